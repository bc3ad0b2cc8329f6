//! The work queue: workers register, claim batches of pairs under a lease, renew it, and
//! commit results; the commit updates the test's SPRT in the same transaction.

use std::time::{Duration, SystemTime};

use postgres::Transaction;

use crate::stats::SprtState;

use super::catalog::read_test;
use super::connection::{Store, q};
use super::error::StoreError;
use super::types::{CommitOutcome, Lease, PairResult, TestStatus};
use super::url::StoreUrl;

impl Store {
    /// Records a worker (or refreshes its host and last-seen time).
    pub fn register_worker(&mut self, name: &str, host: &str) -> Result<(), StoreError> {
        check_worker_name(name)?;
        self.run("register a worker", |c, url| {
            c.execute(
                "INSERT INTO workers (name, host) VALUES ($1, $2)
                 ON CONFLICT (name) DO UPDATE SET host = EXCLUDED.host, last_seen = now()",
                &[&name, &host],
            )
            .map_err(q(url, "register a worker"))?;
            Ok(())
        })
    }

    /// Leases up to `batch_pairs` unplayed pairs of test `test` (or of the oldest active test
    /// that has some, when `None`) to `worker` for `lease`: pairs whose lease expired (or that
    /// were given back) first, then pairs never handed out, from the lowest stripe of 1024
    /// pairs that no other claim holds at the moment. Concurrent
    /// claims never get the same pair (row locks, `SKIP LOCKED`, and the test's cursors of
    /// fresh pairs). `None` when there is nothing to claim: no active test, the test is not
    /// active (decided, stopped, finished), or all its pairs are leased or committed.
    /// One call of the schema's `harness_claim` function.
    pub fn claim(
        &mut self,
        test: Option<i64>,
        worker: &str,
        batch_pairs: u32,
        lease: Duration,
    ) -> Result<Option<Lease>, StoreError> {
        check_worker_name(worker)?;
        if batch_pairs == 0 || batch_pairs > i32::MAX as u32 {
            return Err(StoreError::Invalid(format!(
                "a batch needs 1 to {} pairs, got {batch_pairs}",
                i32::MAX
            )));
        }
        let secs = lease.as_secs_f64();
        if !(1.0..=7.0 * 86_400.0).contains(&secs) {
            return Err(StoreError::Invalid(format!(
                "lease must be between 1 s and 7 days, got {lease:?}"
            )));
        }
        let limit = batch_pairs as i32;
        self.run_prepared(
            "claim pairs",
            &[CLAIM_SQL, ACTIVE_TESTS_SQL],
            |c, statements, url| {
                let candidates: Vec<i64> = match test {
                    Some(id) => vec![id],
                    None => c
                        .query(&statements[1], &[])
                        .map_err(q(url, "list active tests"))?
                        .iter()
                        .map(|r| r.get(0))
                        .collect(),
                };
                for id in candidates {
                    let rows = c
                        .query(&statements[0], &[&id, &worker, &limit, &secs])
                        .map_err(function_error(url, "claim pairs", id))?;
                    if rows.is_empty() {
                        continue;
                    }
                    let expires_at: SystemTime = rows[0].get(1);
                    let mut pairs: Vec<u64> =
                        rows.iter().map(|r| r.get::<_, i64>(0) as u64).collect();
                    pairs.sort_unstable();
                    return Ok(Some(Lease {
                        test_id: id,
                        worker: worker.to_owned(),
                        pairs,
                        expires_at,
                    }));
                }
                Ok(None)
            },
        )
    }

    /// The oldest active test (or test `test`, if active), not one of `skip`, with a pair
    /// that can be claimed now: never handed out, given back, or its lease expired. Reads
    /// only; `None` when there is none.
    pub fn claimable_test(
        &mut self,
        test: Option<i64>,
        skip: &[i64],
    ) -> Result<Option<i64>, StoreError> {
        self.run("look for claimable pairs", |c, url| {
            let row = c
                .query_opt(
                    "SELECT t.id FROM tests t
                     WHERE t.status = 'active' AND ($1::bigint IS NULL OR t.id = $1)
                       AND NOT (t.id = ANY($2))
                       AND (EXISTS (SELECT 1 FROM test_cursors c WHERE c.test_id = t.id
                                    AND c.next_pair < c.end_pair)
                            OR EXISTS (SELECT 1 FROM leases l WHERE l.test_id = t.id
                                       AND l.expires_at < now()))
                     ORDER BY t.id LIMIT 1",
                    &[&test, &skip],
                )
                .map_err(q(url, "look for claimable pairs"))?;
            Ok(row.map(|r| r.get(0)))
        })
    }

    /// Gives back `worker`'s lease on these pairs (not played: an interrupted batch), so other
    /// workers can claim them at once. Pairs it no longer holds are left alone.
    pub fn release(&mut self, test: i64, worker: &str, pairs: &[u64]) -> Result<u64, StoreError> {
        let pairs: Vec<i64> = pairs.iter().map(|&p| p as i64).collect();
        self.run("release a lease", |c, url| {
            let n = c
                .execute(
                    "UPDATE leases SET worker = NULL, expires_at = '-infinity'
                     WHERE test_id = $1 AND worker = $2 AND pair_index = ANY($3)",
                    &[&test, &worker, &pairs],
                )
                .map_err(q(url, "release a lease"))?;
            Ok(n)
        })
    }

    /// Extends `worker`'s lease on these pairs by `lease` from now and marks the worker seen.
    /// Returns the pairs it still holds (a pair whose expired lease went to another worker,
    /// or that was committed, is left out).
    pub fn renew(
        &mut self,
        test: i64,
        worker: &str,
        pairs: &[u64],
        lease: Duration,
    ) -> Result<Vec<u64>, StoreError> {
        let pairs: Vec<i64> = pairs.iter().map(|&p| p as i64).collect();
        let secs = lease.as_secs_f64();
        self.run("renew a lease", |c, url| {
            let mut tx = c.transaction().map_err(q(url, "renew a lease"))?;
            let mut held: Vec<u64> = tx
                .query(
                    "UPDATE leases SET expires_at = now() + make_interval(secs => $4)
                     WHERE test_id = $1 AND worker = $2 AND pair_index = ANY($3)
                     RETURNING pair_index",
                    &[&test, &worker, &pairs, &secs],
                )
                .map_err(q(url, "renew a lease"))?
                .iter()
                .map(|r| r.get::<_, i64>(0) as u64)
                .collect();
            tx.execute(
                "UPDATE workers SET last_seen = now() WHERE name = $1",
                &[&worker],
            )
            .map_err(q(url, "renew a lease"))?;
            tx.commit().map_err(q(url, "renew a lease"))?;
            held.sort_unstable();
            Ok(held)
        })
    }

    /// Stores finished pairs of test `test` in one transaction: each pair once (a pair
    /// committed before is skipped and not counted again), their leases released, the
    /// counts updated; then, when the counts decide the SPRT (or every pair is in), the
    /// test is marked passed, failed or finished. Results for a test that is no longer
    /// active are not stored (the counts that decided stay those of the stored rows).
    /// Safe to call again with the same results (after a lost connection, say).
    pub fn commit(
        &mut self,
        test: i64,
        worker: &str,
        results: &[PairResult],
    ) -> Result<CommitOutcome, StoreError> {
        check_worker_name(worker)?;
        let mut sorted: Vec<&PairResult> = results.iter().collect();
        sorted.sort_by_key(|r| r.pair_index);
        for w in sorted.windows(2) {
            if w[0].pair_index == w[1].pair_index {
                return Err(StoreError::Invalid(format!(
                    "pair {} appears twice in one commit",
                    w[0].pair_index
                )));
            }
        }
        for r in &sorted {
            r.outcome.check()?;
        }
        let index: Vec<i64> = sorted.iter().map(|r| r.pair_index as i64).collect();
        let ptnml: Vec<i16> = sorted
            .iter()
            .map(|r| i16::from(r.outcome.ptnml()))
            .collect();
        let wins: Vec<i16> = sorted.iter().map(|r| i16::from(r.outcome.wins)).collect();
        let draws: Vec<i16> = sorted.iter().map(|r| i16::from(r.outcome.draws)).collect();
        let losses: Vec<i16> = sorted.iter().map(|r| i16::from(r.outcome.losses)).collect();
        let games: Vec<&[u8]> = sorted.iter().map(|r| r.games.as_bytes()).collect();
        let committed =
            self.run_prepared("commit pairs", &[COMMIT_SQL], |c, statements, url| {
                let row = c
                    .query_one(
                        &statements[0],
                        &[
                            &test, &worker, &index, &ptnml, &wins, &draws, &losses, &games,
                        ],
                    )
                    .map_err(function_error(url, "commit pairs", test))?;
                let stored: i64 = row.get(0);
                Ok((stored.max(0) as u64, TestStatus::parse(row.get(1))?))
            })?;
        let (inserted, mut status) = committed;
        if status == TestStatus::Active {
            // Read after committing, so that of two commits finishing together the later
            // one sees both: does the test end with these counts?
            let now = self.test_counts(test)?;
            if decide(&now) != TestStatus::Active {
                status = self.settle(test)?;
            }
        }
        Ok(CommitOutcome { inserted, status })
    }

    /// Ends test `test` if its committed counts decide it (or every pair is in): waits for
    /// the commits under way, decides on the counts they leave, and records the status.
    fn settle(&mut self, test: i64) -> Result<TestStatus, StoreError> {
        self.run("record the SPRT decision", |c, url| {
            let mut tx = c
                .transaction()
                .map_err(q(url, "record the SPRT decision"))?;
            lock_test_exclusive(&mut tx, url, test)?;
            let now = read_test(&mut tx, url, test)?;
            if now.status != TestStatus::Active {
                return Ok(now.status);
            }
            let status = decide(&now);
            if status != TestStatus::Active {
                tx.execute(
                    "UPDATE tests SET status = $2, finished_at = now() WHERE id = $1",
                    &[&test, &status.name()],
                )
                .map_err(q(url, "record the SPRT decision"))?;
            }
            tx.commit().map_err(q(url, "record the SPRT decision"))?;
            Ok(status)
        })
    }
}

/// Claims pairs: see `harness_claim` in migrations/0002_claim_cursor_functions.sql.
const CLAIM_SQL: &str = "SELECT leased_pair, leased_until FROM harness_claim($1, $2, $3, $4)";

/// The active tests, oldest first.
const ACTIVE_TESTS_SQL: &str = "SELECT id FROM tests WHERE status = 'active' ORDER BY id";

/// Stores pairs: see `harness_commit` in migrations/0005_games_deflated_in_the_row.sql.
const COMMIT_SQL: &str = "SELECT stored, test_status \
    FROM harness_commit($1, $2, $3, $4, $5, $6, $7, $8)";

/// The advisory-lock key of a test (two keys: a constant for "harness test", and the id).
/// `harness_commit` takes the same lock (shared) with this constant written out.
const LOCK_CLASS: i32 = 0x4841_5254; // "HART"

/// Taken to end a test: waits for the commits under way (`harness_commit` takes it shared);
/// later ones then see it ended.
pub(crate) fn lock_test_exclusive(
    tx: &mut Transaction<'_>,
    url: &StoreUrl,
    test: i64,
) -> Result<(), StoreError> {
    tx.execute(
        "SELECT pg_advisory_xact_lock($1, ($2::bigint % 2147483647)::int)",
        &[&LOCK_CLASS, &test],
    )
    .map_err(q(url, "lock the test"))?;
    Ok(())
}

/// Worker names are free text, but not empty and not huge.
fn check_worker_name(name: &str) -> Result<(), StoreError> {
    if name.trim().is_empty() || name.len() > 200 {
        return Err(StoreError::Invalid(format!(
            "a worker name must have 1 to 200 characters, got '{name}'"
        )));
    }
    Ok(())
}

/// Maps the errors the schema's functions raise on purpose: an unknown test, and a pair
/// index out of range (whose message says which).
fn function_error(
    url: &StoreUrl,
    what: &'static str,
    test: i64,
) -> impl Fn(postgres::Error) -> StoreError {
    let other = q(url, what);
    move |e| match e.code().map(|c| c.code()) {
        Some("P0002") => StoreError::NoSuchTest(test),
        Some("22023") => StoreError::Invalid(
            e.as_db_error()
                .map_or_else(|| e.to_string(), |db| db.message().to_string()),
        ),
        _ => other(e),
    }
}

/// The status the committed counts imply: passed/failed when the SPRT decides
/// (fishtest's rule on the current LLR), finished when every pair is in, else active.
fn decide(test: &super::types::TestRecord) -> TestStatus {
    let decided = match (test.sprt, test.llr) {
        (Some(cfg), Some(llr)) => cfg.decide(llr),
        _ => SprtState::Continue,
    };
    match decided {
        SprtState::AcceptH1 => TestStatus::Passed,
        SprtState::AcceptH0 => TestStatus::Failed,
        SprtState::Continue if test.pentanomial.pairs() >= test.pair_count => TestStatus::Finished,
        SprtState::Continue => TestStatus::Active,
    }
}
