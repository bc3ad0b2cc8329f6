//! The store's throughput without chess: simulated workers claim batches and commit fake
//! pair results as fast as they can, each on its own connection.

use std::fmt;
use std::time::{Duration, Instant};

use serde_json::json;

use super::connection::Store;
use super::error::StoreError;
use super::types::{NewTest, PairOutcome, PairResult, TestStatus};
use super::url::StoreUrl;

/// What to simulate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BenchConfig {
    /// Concurrent workers, one connection each.
    pub workers: usize,
    /// Pairs per claim.
    pub batch_pairs: u32,
    /// How long to run.
    pub duration: Duration,
    /// Pairs of the scratch test (more than the run can commit).
    pub pairs: u64,
}

/// The figures of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchReport {
    pub config: BenchConfig,
    pub elapsed: Duration,
    pub pairs_committed: u64,
    pub claims: u64,
    pub claim_median: Duration,
    pub claim_p99: Duration,
    pub commit_median: Duration,
    pub commit_p99: Duration,
}

impl BenchReport {
    pub fn pairs_per_second(&self) -> f64 {
        self.pairs_committed as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        writeln!(
            f,
            "workers {}, batch {} pairs, {:.1} s",
            self.config.workers,
            self.config.batch_pairs,
            self.elapsed.as_secs_f64()
        )?;
        writeln!(
            f,
            "committed pairs: {} ({:.0} pairs/s, {} claims)",
            self.pairs_committed,
            self.pairs_per_second(),
            self.claims
        )?;
        writeln!(
            f,
            "claim latency: median {:.2} ms, p99 {:.2} ms",
            ms(self.claim_median),
            ms(self.claim_p99)
        )?;
        writeln!(
            f,
            "commit latency: median {:.2} ms, p99 {:.2} ms",
            ms(self.commit_median),
            ms(self.commit_p99)
        )
    }
}

/// A pair's fake result: a fixed function of its index, with game rows of realistic size.
pub fn fake_pair(pair_index: u64) -> PairResult {
    let h = pair_index.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 59;
    let points = [(h % 3) as u8, ((h / 3) % 3) as u8];
    let outcome = PairOutcome::from_points_x2(points).unwrap_or(PairOutcome {
        wins: 0,
        draws: 2,
        losses: 0,
    });
    let moves = "e2e4 e7e5 g1f3 b8c6 ".repeat(20);
    PairResult {
        pair_index,
        outcome,
        games: json!([
            {"game": 2 * pair_index, "points_x2": points[0], "moves": moves},
            {"game": 2 * pair_index + 1, "points_x2": points[1], "moves": moves},
        ]),
    }
}

/// Runs the benchmark on a scratch test, which is deleted afterwards (so the URL's role
/// must be the owner's). Needs `workers + 1` connections.
pub fn run(url: &StoreUrl, config: BenchConfig) -> Result<BenchReport, StoreError> {
    if config.workers == 0 || config.batch_pairs == 0 {
        return Err(StoreError::Invalid(
            "the benchmark needs at least 1 worker and 1 pair per batch".into(),
        ));
    }
    let mut owner = Store::connect(url)?;
    let test_id = owner.create_test(&NewTest {
        spec: json!({"benchmark": "store"}),
        pair_count: config.pairs,
        seed: 1,
        sprt: None,
        expected_bench: Vec::new(),
        book_sha256: None,
        book: None,
    })?;
    let mut stores = Vec::with_capacity(config.workers);
    for _ in 0..config.workers {
        stores.push(Store::connect(url)?);
    }
    let started = Instant::now();
    let deadline = started + config.duration;
    let outcomes: Vec<Result<WorkerFigures, StoreError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = stores
            .into_iter()
            .enumerate()
            .map(|(i, store)| scope.spawn(move || simulate(store, i, test_id, config, deadline)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(StoreError::Invalid("a worker thread panicked".into())))
            })
            .collect()
    });
    let elapsed = started.elapsed();
    let cleanup = owner.delete_test(test_id);
    let mut claims = Vec::new();
    let mut commits = Vec::new();
    let mut pairs = 0;
    for o in outcomes {
        let o = o?;
        claims.extend(o.claims);
        commits.extend(o.commits);
        pairs += o.pairs;
    }
    cleanup?;
    Ok(BenchReport {
        config,
        elapsed,
        pairs_committed: pairs,
        claims: claims.len() as u64,
        claim_median: quantile(&mut claims, 0.5),
        claim_p99: quantile(&mut claims, 0.99),
        commit_median: quantile(&mut commits, 0.5),
        commit_p99: quantile(&mut commits, 0.99),
    })
}

struct WorkerFigures {
    claims: Vec<Duration>,
    commits: Vec<Duration>,
    pairs: u64,
}

fn simulate(
    mut store: Store,
    index: usize,
    test: i64,
    config: BenchConfig,
    deadline: Instant,
) -> Result<WorkerFigures, StoreError> {
    let name = format!("bench-{index}");
    let mut out = WorkerFigures {
        claims: Vec::new(),
        commits: Vec::new(),
        pairs: 0,
    };
    while Instant::now() < deadline {
        let t = Instant::now();
        let lease = store.claim(
            Some(test),
            &name,
            config.batch_pairs,
            Duration::from_secs(60),
        )?;
        out.claims.push(t.elapsed());
        let Some(lease) = lease else { break };
        let results: Vec<PairResult> = lease.pairs.iter().map(|&p| fake_pair(p)).collect();
        let t = Instant::now();
        let done = store.commit(test, &name, &results)?;
        out.commits.push(t.elapsed());
        out.pairs += done.inserted;
        if done.status != TestStatus::Active {
            break;
        }
    }
    Ok(out)
}

/// The q-quantile (nearest rank) of the durations, 0 for none.
fn quantile(v: &mut [Duration], q: f64) -> Duration {
    if v.is_empty() {
        return Duration::ZERO;
    }
    v.sort_unstable();
    let rank = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
    v[rank - 1]
}
