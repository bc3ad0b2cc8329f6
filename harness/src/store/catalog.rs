//! Tests as a whole: create, read, list, stop, delete, status report and export.

use std::collections::VecDeque;

use postgres::{GenericClient, Row};
use serde_json::Value;

use crate::stats::{EloModel, Pentanomial, SprtConfig, Trinomial, summarize};

use super::connection::{Store, q};
use super::error::StoreError;
use super::types::{
    MAX_BOOK_BYTES, MAX_PAIRS, NewTest, PairGames, PairOutcome, StoredPair, TestRecord, TestReport,
    TestStatus, WorkerThroughput, sha256_hex,
};

/// Selects tests (alias `t`) with their counts summed over `test_counts`, in the order
/// [`test_from_row`] reads; append a `WHERE`/`ORDER BY` on `t`.
pub(crate) const TEST_SELECT: &str = "SELECT t.id, t.status, t.spec, t.pair_count, t.seed, \
    t.sprt_elo0, t.sprt_elo1, t.sprt_alpha, t.sprt_beta, t.sprt_model, t.expected_bench, \
    t.book_sha256, t.created_at, t.finished_at, c.p0, c.p1, c.p2, c.p3, c.p4, c.w, c.d, c.l \
    FROM tests t CROSS JOIN LATERAL ( \
        SELECT coalesce(sum(pairs_0), 0)::bigint AS p0, coalesce(sum(pairs_1), 0)::bigint AS p1, \
               coalesce(sum(pairs_2), 0)::bigint AS p2, coalesce(sum(pairs_3), 0)::bigint AS p3, \
               coalesce(sum(pairs_4), 0)::bigint AS p4, coalesce(sum(wins), 0)::bigint AS w, \
               coalesce(sum(draws), 0)::bigint AS d, coalesce(sum(losses), 0)::bigint AS l \
        FROM test_counts WHERE test_id = t.id) c";

/// Pairs per cursor stripe of a test (see migration 0002).
const CURSOR_STRIPE: i64 = 1024;

/// [`TEST_SELECT`] of one test without its spec (read as JSON `null`): what a commit reads
/// to decide the SPRT.
static TEST_COUNTS_SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "{} WHERE t.id = $1",
        TEST_SELECT.replacen("t.spec,", "'null'::jsonb,", 1)
    )
});

pub(crate) fn test_from_row(row: &Row) -> Result<TestRecord, StoreError> {
    let sprt = match row.get::<_, Option<String>>(9) {
        Some(model) => Some(SprtConfig {
            elo0: row.get(5),
            elo1: row.get(6),
            alpha: row.get(7),
            beta: row.get(8),
            model: model.parse::<EloModel>().map_err(StoreError::Invalid)?,
        }),
        None => None,
    };
    let counts = |i: usize| row.get::<_, i64>(i).max(0) as u64;
    Ok(TestRecord {
        id: row.get(0),
        status: TestStatus::parse(row.get(1))?,
        spec: row.get(2),
        pair_count: row.get::<_, i64>(3) as u64,
        seed: row.get::<_, i64>(4) as u64,
        sprt,
        expected_bench: row
            .get::<_, Vec<Option<i64>>>(10)
            .into_iter()
            .map(|b| b.map(|b| b as u64))
            .collect(),
        book_sha256: row.get(11),
        created_at: row.get(12),
        finished_at: row.get(13),
        pentanomial: Pentanomial::new([counts(14), counts(15), counts(16), counts(17), counts(18)]),
        trinomial: Trinomial::new(counts(19), counts(20), counts(21)),
        llr: None,
    }
    .with_llr())
}

pub(crate) fn read_test(
    client: &mut impl GenericClient,
    url: &super::url::StoreUrl,
    id: i64,
) -> Result<TestRecord, StoreError> {
    let sql = format!("{TEST_SELECT} WHERE t.id = $1");
    let row = client
        .query_opt(&sql, &[&id])
        .map_err(q(url, "read a test"))?
        .ok_or(StoreError::NoSuchTest(id))?;
    test_from_row(&row)
}

impl NewTest {
    /// Checks the ranges: 1 ≤ pairs ≤ [`MAX_PAIRS`], a valid SPRT, benches and hash in range.
    pub fn validate(&self) -> Result<(), StoreError> {
        if self.pair_count == 0 || self.pair_count > MAX_PAIRS {
            return Err(StoreError::Invalid(format!(
                "pair count must be between 1 and {MAX_PAIRS}, got {}",
                self.pair_count
            )));
        }
        if let Some(sprt) = &self.sprt {
            sprt.validate()
                .map_err(|e| StoreError::Invalid(format!("SPRT: {e}")))?;
        }
        if let Some(b) = self
            .expected_bench
            .iter()
            .flatten()
            .find(|&&b| b > i64::MAX as u64)
        {
            return Err(StoreError::Invalid(format!(
                "expected bench {b} is above {}",
                i64::MAX
            )));
        }
        if let Some(sha) = &self.book_sha256 {
            let ok = sha.len() == 64 && sha.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
            if !ok {
                return Err(StoreError::Invalid(format!(
                    "book SHA-256 must be 64 lowercase hexadecimal digits, got '{sha}'"
                )));
            }
        }
        match (&self.book, &self.book_sha256) {
            (Some(bytes), _) if bytes.len() > MAX_BOOK_BYTES => {
                return Err(StoreError::Invalid(format!(
                    "the book has {} bytes; the store keeps books of at most {MAX_BOOK_BYTES}",
                    bytes.len()
                )));
            }
            (Some(bytes), Some(sha)) if sha256_hex(bytes) != *sha => {
                return Err(StoreError::Invalid(format!(
                    "the book's bytes have SHA-256 {}, not the test's {sha}",
                    sha256_hex(bytes)
                )));
            }
            (Some(_), None) => {
                return Err(StoreError::Invalid(
                    "a book is kept only with its SHA-256".into(),
                ));
            }
            _ => {}
        }
        Ok(())
    }
}

impl Store {
    /// Stores a new active test (no pair handed out yet); returns its id. Needs the owner
    /// role (workers may not create tests). Not retried: a lost connection during the
    /// commit could otherwise create the test twice.
    pub fn create_test(&mut self, test: &NewTest) -> Result<i64, StoreError> {
        test.validate()?;
        let url = self.url().clone();
        let qe = |what| q(&url, what);
        let client = self.client_mut();
        let mut tx = client.transaction().map_err(qe("create a test"))?;
        let sprt = test.sprt.as_ref();
        let bench: Vec<Option<i64>> = test
            .expected_bench
            .iter()
            .map(|b| b.map(|b| b as i64))
            .collect();
        let id: i64 = tx
            .query_one(
                "INSERT INTO tests (spec, pair_count, seed, sprt_elo0, sprt_elo1, sprt_alpha,
                     sprt_beta, sprt_model, expected_bench, book_sha256, book)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
                &[
                    &test.spec,
                    &(test.pair_count as i64),
                    &(test.seed as i64),
                    &sprt.map(|s| s.elo0),
                    &sprt.map(|s| s.elo1),
                    &sprt.map(|s| s.alpha),
                    &sprt.map(|s| s.beta),
                    &sprt.map(|s| s.model.name()),
                    &bench,
                    &test.book_sha256,
                    &test.book,
                ],
            )
            .map_err(qe("create a test"))?
            .get(0);
        // Fresh pairs are handed out from cursors, one per stripe of pairs, so that
        // concurrent claims take different rows (see migration 0002).
        tx.execute(
            "INSERT INTO test_cursors (test_id, stripe, next_pair, end_pair)
             SELECT $1, s::integer, s * $3::bigint, least((s + 1) * $3::bigint, $2::bigint)
             FROM generate_series(0::bigint, ($2::bigint - 1) / $3::bigint) AS s",
            &[&id, &(test.pair_count as i64), &CURSOR_STRIPE],
        )
        .map_err(qe("create a test's cursors"))?;
        tx.commit().map_err(qe("create a test"))?;
        Ok(id)
    }

    /// One test with its running totals.
    pub fn test(&mut self, id: i64) -> Result<TestRecord, StoreError> {
        self.run("read a test", |c, url| read_test(c, url, id))
    }

    /// The book bytes kept with test `id` (`None`: no book, or a test created before schema
    /// version 3).
    pub fn test_book(&mut self, id: i64) -> Result<Option<Vec<u8>>, StoreError> {
        self.run("read a test's book", |c, url| {
            c.query_opt("SELECT book FROM tests WHERE id = $1", &[&id])
                .map_err(q(url, "read a test's book"))?
                .map(|r| r.get(0))
                .ok_or(StoreError::NoSuchTest(id))
        })
    }

    /// One test with its running totals but not its spec (`Value::Null`).
    pub(crate) fn test_counts(&mut self, id: i64) -> Result<TestRecord, StoreError> {
        self.run_prepared(
            "read a test's counts",
            &[TEST_COUNTS_SQL.as_str()],
            |c, statements, url| {
                let row = c
                    .query_opt(&statements[0], &[&id])
                    .map_err(q(url, "read a test's counts"))?
                    .ok_or(StoreError::NoSuchTest(id))?;
                test_from_row(&row)
            },
        )
    }

    /// All tests, newest first.
    pub fn list_tests(&mut self) -> Result<Vec<TestRecord>, StoreError> {
        self.run("list tests", |c, url| {
            let sql = format!("{TEST_SELECT} ORDER BY t.id DESC");
            c.query(&sql, &[])
                .map_err(q(url, "list tests"))?
                .iter()
                .map(test_from_row)
                .collect()
        })
    }

    /// Stops an active test (no more claims, later commits not counted). Returns the
    /// status after the call: `Stopped`, or the status it had already ended with.
    pub fn stop_test(&mut self, id: i64) -> Result<TestStatus, StoreError> {
        self.run("stop a test", |c, url| {
            let mut tx = c.transaction().map_err(q(url, "stop a test"))?;
            // Waits for commits under way, and keeps later ones from being counted.
            super::queue::lock_test_exclusive(&mut tx, url, id)?;
            let row = tx
                .query_opt(
                    "UPDATE tests SET status = 'stopped', finished_at = now()
                     WHERE id = $1 AND status = 'active' RETURNING status",
                    &[&id],
                )
                .map_err(q(url, "stop a test"))?;
            let status = match row {
                Some(_) => TestStatus::Stopped,
                None => read_test(&mut tx, url, id)?.status,
            };
            tx.commit().map_err(q(url, "stop a test"))?;
            Ok(status)
        })
    }

    /// Deletes a test with its results and leases (owner role only).
    pub fn delete_test(&mut self, id: i64) -> Result<(), StoreError> {
        self.run("delete a test", |c, url| {
            let n = c
                .execute("DELETE FROM tests WHERE id = $1", &[&id])
                .map_err(q(url, "delete a test"))?;
            if n == 0 {
                return Err(StoreError::NoSuchTest(id));
            }
            Ok(())
        })
    }

    /// The status of one test: counts, the statistics summary, pairs leased and each
    /// worker's throughput on it.
    pub fn report(&mut self, id: i64) -> Result<TestReport, StoreError> {
        self.run("report on a test", |c, url| {
            let mut tx = c.transaction().map_err(q(url, "report on a test"))?;
            let test = read_test(&mut tx, url, id)?;
            let leased: i64 = tx
                .query_one(
                    "SELECT count(*) FROM leases WHERE test_id = $1 AND expires_at > now()",
                    &[&id],
                )
                .map_err(q(url, "count leases"))?
                .get(0);
            let workers = tx
                .query(
                    "SELECT worker, count(*), min(committed_at), max(committed_at)
                     FROM pair_results WHERE test_id = $1 GROUP BY worker ORDER BY worker",
                    &[&id],
                )
                .map_err(q(url, "read worker throughput"))?
                .iter()
                .map(|r| {
                    let pairs = r.get::<_, i64>(1) as u64;
                    let first: std::time::SystemTime = r.get(2);
                    let last: std::time::SystemTime = r.get(3);
                    let span = last.duration_since(first).unwrap_or_default().as_secs_f64();
                    WorkerThroughput {
                        worker: r.get(0),
                        pairs,
                        first_commit: first,
                        last_commit: last,
                        pairs_per_minute: (span > 0.0).then(|| pairs as f64 * 60.0 / span),
                    }
                })
                .collect();
            tx.commit().map_err(q(url, "report on a test"))?;
            let summary = summarize(&test.trinomial, Some(&test.pentanomial), test.sprt.as_ref());
            Ok(TestReport {
                pairs_done: test.pentanomial.pairs(),
                pairs_leased: leased as u64,
                summary,
                workers,
                test,
            })
        })
    }

    /// Every committed pair of a test, by pair index, with its games (all in memory: for
    /// tests and small tests; [`Store::pairs`] reads a page at a time).
    pub fn export_pairs(&mut self, id: i64) -> Result<Vec<StoredPair>, StoreError> {
        self.pairs(id)?.collect()
    }

    /// Every committed pair of test `id`, by pair index, read [`PAIRS_PER_PAGE`] at a time,
    /// so that a test of millions of games is exported in bounded memory.
    pub fn pairs(&mut self, id: i64) -> Result<CommittedPairs<'_>, StoreError> {
        self.run("read a test", |c, url| read_test(c, url, id).map(|_| ()))?;
        Ok(CommittedPairs {
            store: self,
            test: id,
            after: -1,
            page: VecDeque::new(),
            done: false,
        })
    }
}

/// Pairs fetched per query by [`CommittedPairs`]: about 10 MB of games.
pub const PAIRS_PER_PAGE: i64 = 1000;

/// The committed pairs of a test in pair order, fetched a page at a time (keyset pagination
/// on the primary key, so each page is one index range whatever came before).
pub struct CommittedPairs<'a> {
    store: &'a mut Store,
    test: i64,
    /// The last pair index returned (-1 before the first).
    after: i64,
    page: VecDeque<StoredPair>,
    done: bool,
}

impl CommittedPairs<'_> {
    fn fetch(&mut self) -> Result<(), StoreError> {
        let (test, after) = (self.test, self.after);
        let rows = self.store.run("export a test", |c, url| {
            c.query(
                "SELECT pair_index, wins, draws, losses, games, games_deflate, worker,
                        committed_at
                 FROM pair_results WHERE test_id = $1 AND pair_index > $2
                 ORDER BY pair_index LIMIT $3",
                &[&test, &after, &PAIRS_PER_PAGE],
            )
            .map_err(q(url, "export a test"))
        })?;
        self.done = (rows.len() as i64) < PAIRS_PER_PAGE;
        for r in &rows {
            self.page.push_back(StoredPair {
                pair_index: r.get::<_, i64>(0) as u64,
                outcome: PairOutcome {
                    wins: r.get::<_, i16>(1) as u8,
                    draws: r.get::<_, i16>(2) as u8,
                    losses: r.get::<_, i16>(3) as u8,
                },
                games: stored_games(r, 4)?,
                worker: r.get(6),
                committed_at: r.get(7),
            });
        }
        Ok(())
    }
}

impl Iterator for CommittedPairs<'_> {
    type Item = Result<StoredPair, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.page.is_empty()
            && !self.done
            && let Err(e) = self.fetch()
        {
            self.done = true;
            return Some(Err(e));
        }
        let pair = self.page.pop_front()?;
        self.after = pair.pair_index as i64;
        Some(Ok(pair))
    }
}

/// A pair's games from columns `at` (jsonb, written by schema 4) and `at + 1` (deflated, since
/// schema 5): exactly one of them is set.
fn stored_games(row: &Row, at: usize) -> Result<Value, StoreError> {
    match row.get::<_, Option<Vec<u8>>>(at + 1) {
        Some(bytes) => PairGames::from_stored(bytes).decompress(),
        None => Ok(row.get::<_, Option<Value>>(at).unwrap_or(Value::Null)),
    }
}
