//! The work queue: workers register, claim batches of pairs under a lease, renew it, and
//! commit results; the commit updates the test's SPRT in the same transaction.

use std::time::{Duration, SystemTime};

use postgres::Transaction;
use serde_json::Value;

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
    /// that has some, when `None`) to `worker` for `lease`: pairs whose lease expired first,
    /// then pairs never handed out, lowest index first. Concurrent claims never get the same
    /// pair (row locks, `SKIP LOCKED`). `None` when there is nothing to claim: no active test,
    /// the test is not active (decided, stopped, finished), or all its pairs are leased.
    pub fn claim(
        &mut self,
        test: Option<i64>,
        worker: &str,
        batch_pairs: u32,
        lease: Duration,
    ) -> Result<Option<Lease>, StoreError> {
        check_worker_name(worker)?;
        if batch_pairs == 0 {
            return Err(StoreError::Invalid("a batch needs at least 1 pair".into()));
        }
        let secs = lease.as_secs_f64();
        if !(1.0..=7.0 * 86_400.0).contains(&secs) {
            return Err(StoreError::Invalid(format!(
                "lease must be between 1 s and 7 days, got {lease:?}"
            )));
        }
        self.run("claim pairs", |c, url| {
            let candidates: Vec<i64> = match test {
                Some(id) => vec![id],
                None => c
                    .query(
                        "SELECT id FROM tests WHERE status = 'active' ORDER BY id",
                        &[],
                    )
                    .map_err(q(url, "list active tests"))?
                    .iter()
                    .map(|r| r.get(0))
                    .collect(),
            };
            for id in candidates {
                let mut tx = c.transaction().map_err(q(url, "claim pairs"))?;
                if let Some(lease) = claim_in(&mut tx, url, id, worker, batch_pairs, secs)? {
                    tx.commit().map_err(q(url, "claim pairs"))?;
                    return Ok(Some(lease));
                }
                tx.rollback().map_err(q(url, "claim pairs"))?;
            }
            Ok(None)
        })
    }

    /// The oldest active test (or test `test`, if active) with a pair that can be claimed now:
    /// never handed out, or its lease expired. Reads only; `None` when there is none.
    pub fn claimable_test(&mut self, test: Option<i64>) -> Result<Option<i64>, StoreError> {
        self.run("look for claimable pairs", |c, url| {
            let row = c
                .query_opt(
                    "SELECT t.id FROM tests t
                     WHERE t.status = 'active' AND ($1::bigint IS NULL OR t.id = $1)
                       AND EXISTS (SELECT 1 FROM leases l WHERE l.test_id = t.id
                                   AND (l.expires_at IS NULL OR l.expires_at < now()))
                     ORDER BY t.id LIMIT 1",
                    &[&test],
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
                    "UPDATE leases SET worker = NULL, expires_at = NULL
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
        let games: Vec<&Value> = sorted.iter().map(|r| &r.games).collect();
        let committed = self.run("commit pairs", |c, url| {
            let mut tx = c.transaction().map_err(q(url, "commit pairs"))?;
            // Shared with other commits; a decision or a stop takes it exclusively, so after
            // one nothing more is stored.
            lock_test_shared(&mut tx, url, test)?;
            let test_row = read_test(&mut tx, url, test)?;
            if let Some(bad) = index.iter().find(|&&i| i as u64 >= test_row.pair_count) {
                return Err(StoreError::Invalid(format!(
                    "pair index {bad} is out of range: test {test} has pairs 0..{}",
                    test_row.pair_count
                )));
            }
            if test_row.status != TestStatus::Active {
                return Ok((0, test_row.status));
            }
            // Rows in pair order, so two overlapping commits cannot deadlock.
            let inserted = tx
                .query(
                    "INSERT INTO pair_results
                         (test_id, pair_index, ptnml, wins, draws, losses, games, worker)
                     SELECT $1, i, p, w, d, l, g, $2
                     FROM unnest($3::bigint[], $4::smallint[], $5::smallint[], $6::smallint[],
                                 $7::smallint[], $8::jsonb[]) AS u(i, p, w, d, l, g)
                     ON CONFLICT (test_id, pair_index) DO NOTHING
                     RETURNING ptnml, wins, draws, losses",
                    &[
                        &test, &worker, &index, &ptnml, &wins, &draws, &losses, &games,
                    ],
                )
                .map_err(q(url, "store pair results"))?;
            tx.execute(
                "DELETE FROM leases WHERE test_id = $1 AND pair_index = ANY($2)",
                &[&test, &index],
            )
            .map_err(q(url, "release leases"))?;
            if inserted.is_empty() {
                tx.commit().map_err(q(url, "commit pairs"))?;
                return Ok((0, TestStatus::Active));
            }
            let mut add = [0i64; 5];
            let (mut w, mut d, mut l) = (0i64, 0i64, 0i64);
            for r in &inserted {
                add[r.get::<_, i16>(0) as usize] += 1;
                w += i64::from(r.get::<_, i16>(1));
                d += i64::from(r.get::<_, i16>(2));
                l += i64::from(r.get::<_, i16>(3));
            }
            let n = inserted.len() as i64;
            tx.execute(
                "INSERT INTO test_counts (test_id, worker, pairs_0, pairs_1, pairs_2, pairs_3,
                     pairs_4, wins, draws, losses)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                 ON CONFLICT (test_id, worker) DO UPDATE SET
                     pairs_0 = test_counts.pairs_0 + EXCLUDED.pairs_0,
                     pairs_1 = test_counts.pairs_1 + EXCLUDED.pairs_1,
                     pairs_2 = test_counts.pairs_2 + EXCLUDED.pairs_2,
                     pairs_3 = test_counts.pairs_3 + EXCLUDED.pairs_3,
                     pairs_4 = test_counts.pairs_4 + EXCLUDED.pairs_4,
                     wins = test_counts.wins + EXCLUDED.wins,
                     draws = test_counts.draws + EXCLUDED.draws,
                     losses = test_counts.losses + EXCLUDED.losses",
                &[
                    &test, &worker, &add[0], &add[1], &add[2], &add[3], &add[4], &w, &d, &l,
                ],
            )
            .map_err(q(url, "count the pairs"))?;
            tx.execute(
                "INSERT INTO workers (name, host) VALUES ($1, '') ON CONFLICT (name)
                 DO UPDATE SET pairs_done = workers.pairs_done + $2, last_seen = now()",
                &[&worker, &n],
            )
            .map_err(q(url, "count a worker's pairs"))?;
            tx.commit().map_err(q(url, "commit pairs"))?;
            Ok((n as u64, TestStatus::Active))
        })?;
        let (inserted, mut status) = committed;
        if status == TestStatus::Active {
            // Read after committing, so that of two commits finishing together the later
            // one sees both: does the test end with these counts?
            let now = self.test(test)?;
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

/// The advisory-lock key of a test (two keys: a constant for "harness test", and the id).
const LOCK_CLASS: i32 = 0x4841_5254; // "HART"

/// Taken by every commit for its transaction; commits do not wait for each other.
pub(crate) fn lock_test_shared(
    tx: &mut Transaction<'_>,
    url: &StoreUrl,
    test: i64,
) -> Result<(), StoreError> {
    tx.execute(
        "SELECT pg_advisory_xact_lock_shared($1, ($2::bigint % 2147483647)::int)",
        &[&LOCK_CLASS, &test],
    )
    .map_err(q(url, "lock the test"))?;
    Ok(())
}

/// Taken to end a test: waits for the commits under way; later ones then see it ended.
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

/// The claim of one test inside `tx`.
fn claim_in(
    tx: &mut Transaction<'_>,
    url: &StoreUrl,
    test: i64,
    worker: &str,
    batch_pairs: u32,
    lease_secs: f64,
) -> Result<Option<Lease>, StoreError> {
    // A test ended by a committed decision or stop is not claimed from.
    let status: Option<String> = tx
        .query_opt("SELECT status FROM tests WHERE id = $1", &[&test])
        .map_err(q(url, "claim pairs"))?
        .map(|r| r.get(0));
    match status {
        None => return Err(StoreError::NoSuchTest(test)),
        Some(s) if s != "active" => return Ok(None),
        Some(_) => {}
    }
    let limit = i64::from(batch_pairs);
    let take = |tx: &mut Transaction<'_>, condition: &str, limit: i64| {
        let sql = format!(
            "WITH picked AS (
                 SELECT pair_index FROM leases
                 WHERE test_id = $1 AND {condition}
                 ORDER BY expires_at NULLS FIRST, pair_index
                 LIMIT $2 FOR UPDATE SKIP LOCKED)
             UPDATE leases l SET worker = $3, expires_at = now() + make_interval(secs => $4)
             FROM picked WHERE l.test_id = $1 AND l.pair_index = picked.pair_index
             RETURNING l.pair_index, l.expires_at"
        );
        tx.query(&sql, &[&test, &limit, &worker, &lease_secs])
            .map_err(q(url, "claim pairs"))
    };
    // Expired leases first (their pairs are the oldest), then fresh pairs.
    let mut rows = take(tx, "expires_at < now()", limit)?;
    if (rows.len() as i64) < limit {
        let more = take(tx, "expires_at IS NULL", limit - rows.len() as i64)?;
        rows.extend(more);
    }
    if rows.is_empty() {
        return Ok(None);
    }
    let expires_at: SystemTime = rows[0].get(1);
    let mut pairs: Vec<u64> = rows.iter().map(|r| r.get::<_, i64>(0) as u64).collect();
    pairs.sort_unstable();
    tx.execute(
        "INSERT INTO workers (name, host) VALUES ($1, '')
         ON CONFLICT (name) DO UPDATE SET last_seen = now()",
        &[&worker],
    )
    .map_err(q(url, "claim pairs"))?;
    Ok(Some(Lease {
        test_id: test,
        worker: worker.to_owned(),
        pairs,
        expires_at,
    }))
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
