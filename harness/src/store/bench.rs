//! The store's throughput without chess: simulated workers claim batches and commit fake
//! pair outcomes with real games' bytes, each on its own connection: as fast as they can (the
//! store's ceiling), or at a real worker's pace, to show whether a given number of workers is
//! served.

use std::fmt;
use std::time::{Duration, Instant};

use std::sync::OnceLock;

use serde_json::{Value, json};

use super::connection::Store;
use super::error::StoreError;
use super::types::{NewTest, PairGames, PairOutcome, PairResult, TestStatus};
use super::url::StoreUrl;

/// What to simulate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BenchConfig {
    /// Concurrent workers, one connection each.
    pub workers: usize,
    /// Pairs per claim.
    pub batch_pairs: u32,
    /// How long to run.
    pub duration: Duration,
    /// Pairs of the scratch test (more than the run can commit).
    pub pairs: u64,
    /// Pairs a second each simulated worker "plays": after a claim it waits as long as a
    /// real worker would take to play the batch, then commits. `None`: no waiting.
    pub pace: Option<f64>,
}

impl BenchConfig {
    /// How long a worker at `pace` takes to play one batch.
    pub fn batch_time(&self) -> Option<Duration> {
        self.pace
            .map(|pace| Duration::from_secs_f64(f64::from(self.batch_pairs) / pace))
    }
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
    /// With a pace: the pairs committed after the first batch time (once every worker
    /// has started), and the length of that window.
    pub steady: Option<(u64, Duration)>,
    /// The share of the workers' time spent waiting for claims and commits (what a paced
    /// worker loses to the store).
    pub store_share: f64,
}

impl BenchReport {
    pub fn pairs_per_second(&self) -> f64 {
        self.pairs_committed as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Pairs a second the simulated workers would play if the store cost nothing.
    pub fn demand(&self) -> Option<f64> {
        self.config.pace.map(|p| p * self.config.workers as f64)
    }

    /// Pairs a second committed once every worker had started (paced runs).
    pub fn steady_pairs_per_second(&self) -> Option<f64> {
        self.steady
            .map(|(pairs, window)| pairs as f64 / window.as_secs_f64().max(1e-9))
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
        )?;
        if let (Some(demand), Some(steady), Some(pace)) = (
            self.demand(),
            self.steady_pairs_per_second(),
            self.config.pace,
        ) {
            writeln!(
                f,
                "paced at {pace} pairs/s a worker: demand {demand:.0} pairs/s, committed {steady:.0} pairs/s once all had started ({:.1} % of demand)",
                100.0 * steady / demand.max(1e-9)
            )?;
            writeln!(
                f,
                "workers' time waiting for the store: {:.2} %",
                100.0 * self.store_share
            )?;
        }
        Ok(())
    }
}

/// Real pairs' games (two games at 1,000 nodes each, as a worker stores them: rows, moves,
/// PGN with the per-move comments), 8.6 to 11.9 KB of JSON, about 3 KB deflated.
const REAL_GAMES: &str = include_str!("bench_games.json");

/// The real pairs of [`REAL_GAMES`], parsed once.
fn real_games() -> &'static [Value] {
    static GAMES: OnceLock<Vec<Value>> = OnceLock::new();
    GAMES.get_or_init(|| serde_json::from_str(REAL_GAMES).unwrap_or_default())
}

/// A pair's fake outcome: a fixed function of its index.
fn fake_outcome(pair_index: u64) -> ([u8; 2], PairOutcome) {
    let h = pair_index.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 59;
    let points = [(h % 3) as u8, ((h / 3) % 3) as u8];
    let outcome = PairOutcome::from_points_x2(points).unwrap_or(PairOutcome {
        wins: 0,
        draws: 2,
        losses: 0,
    });
    (points, outcome)
}

/// A pair's fake result, a fixed function of its index: the games of one of a few real
/// pairs, renumbered as this pair's games and deflated as a worker deflates them.
pub fn fake_pair(pair_index: u64) -> PairResult {
    let (_, outcome) = fake_outcome(pair_index);
    let real = real_games();
    let mut games = real
        .get(pair_index as usize % real.len().max(1))
        .cloned()
        .unwrap_or(Value::Null);
    if let Value::Array(games) = &mut games {
        for (k, game) in games.iter_mut().enumerate() {
            game["row"]["game"] = json!(2 * pair_index + k as u64);
            game["row"]["pair"] = json!(pair_index);
        }
    }
    PairResult {
        pair_index,
        outcome,
        games: PairGames::compress(&games).unwrap_or_else(|_| PairGames::from_stored(Vec::new())),
    }
}

/// The simulated workers' results: [`fake_pair`]'s outcomes with the real pairs' games as
/// deflated once, not renumbered. A real worker deflates its own 20 pairs a second on its own
/// machine; a thousand simulated ones deflating here would take the server's cores.
struct BenchPairs(Vec<PairGames>);

impl BenchPairs {
    fn new() -> Result<BenchPairs, StoreError> {
        if real_games().is_empty() {
            return Err(StoreError::Invalid(
                "the benchmark's games (harness/src/store/bench_games.json) did not parse".into(),
            ));
        }
        real_games()
            .iter()
            .map(PairGames::compress)
            .collect::<Result<_, _>>()
            .map(BenchPairs)
    }

    fn pair(&self, pair_index: u64) -> PairResult {
        PairResult {
            pair_index,
            outcome: fake_outcome(pair_index).1,
            games: self.0[pair_index as usize % self.0.len()].clone(),
        }
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
    if let Some(pace) = config.pace {
        if !(pace.is_finite() && pace > 0.0 && pace <= 1e6) {
            return Err(StoreError::Invalid(format!(
                "the pace must be above 0 and at most 1000000 pairs a second, got {pace}"
            )));
        }
        let batch_time = f64::from(config.batch_pairs) / pace;
        if config.duration.as_secs_f64() < 2.0 * batch_time {
            return Err(StoreError::Invalid(format!(
                "a paced run needs at least two batch times ({batch_time:.1} s at {} pairs per batch) of run time, got {:.1} s",
                config.batch_pairs,
                config.duration.as_secs_f64()
            )));
        }
    }
    let pairs = BenchPairs::new()?;
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
            .map(|(i, store)| {
                let pairs = &pairs;
                scope.spawn(move || simulate(store, pairs, i, test_id, config, deadline))
            })
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
    let mut steady_pairs = 0;
    let mut waited = Duration::ZERO;
    let steady_from = config.batch_time().map(|t| started + t);
    for o in outcomes {
        let o = o?;
        waited += o.claims.iter().sum::<Duration>() + o.commits.iter().sum::<Duration>();
        if let Some(from) = steady_from {
            steady_pairs += o
                .committed_at
                .iter()
                .filter(|(at, _)| *at >= from)
                .map(|(_, n)| n)
                .sum::<u64>();
        }
        claims.extend(o.claims);
        commits.extend(o.commits);
        pairs += o.pairs;
    }
    cleanup?;
    let store_share =
        waited.as_secs_f64() / (elapsed.as_secs_f64() * config.workers as f64).max(1e-9);
    Ok(BenchReport {
        config,
        elapsed,
        pairs_committed: pairs,
        claims: claims.len() as u64,
        claim_median: quantile(&mut claims, 0.5),
        claim_p99: quantile(&mut claims, 0.99),
        commit_median: quantile(&mut commits, 0.5),
        commit_p99: quantile(&mut commits, 0.99),
        steady: steady_from.map(|from| {
            (
                steady_pairs,
                (started + elapsed).saturating_duration_since(from),
            )
        }),
        store_share,
    })
}

struct WorkerFigures {
    claims: Vec<Duration>,
    commits: Vec<Duration>,
    /// When each commit returned, and the pairs it stored.
    committed_at: Vec<(Instant, u64)>,
    pairs: u64,
}

fn simulate(
    mut store: Store,
    pairs: &BenchPairs,
    index: usize,
    test: i64,
    config: BenchConfig,
    deadline: Instant,
) -> Result<WorkerFigures, StoreError> {
    let name = format!("bench-{index}");
    let mut out = WorkerFigures {
        claims: Vec::new(),
        commits: Vec::new(),
        committed_at: Vec::new(),
        pairs: 0,
    };
    let batch_time = config.batch_time();
    if let Some(batch_time) = batch_time {
        // Real workers do not start in step: spread the starts over one batch time.
        let offset = batch_time.mul_f64(index as f64 / config.workers as f64);
        std::thread::sleep(offset.min(deadline.saturating_duration_since(Instant::now())));
    }
    while Instant::now() < deadline {
        let t = Instant::now();
        // A worker's default lease (2 minutes): longer than a paced batch and its waits,
        // so that no lease expires and no pair is handed out twice.
        let lease = store.claim(
            Some(test),
            &name,
            config.batch_pairs,
            Duration::from_secs(120),
        )?;
        out.claims.push(t.elapsed());
        let Some(lease) = lease else { break };
        let played = Instant::now();
        let results: Vec<PairResult> = lease.pairs.iter().map(|&p| pairs.pair(p)).collect();
        if let Some(batch_time) = batch_time {
            // "Play" the batch: at the pace, its pairs take this long (a real worker's
            // batch is cut short only by its own stop, never by the benchmark's clock).
            let pairs = u32::try_from(lease.pairs.len()).unwrap_or(config.batch_pairs);
            let play = batch_time.mul_f64(f64::from(pairs) / f64::from(config.batch_pairs));
            std::thread::sleep(play.saturating_sub(played.elapsed()));
        }
        let t = Instant::now();
        let done = store.commit(test, &name, &results)?;
        out.commits.push(t.elapsed());
        out.committed_at.push((Instant::now(), done.inserted));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fake_pairs_carry_real_games_renumbered_as_their_own() {
        assert_eq!(
            real_games().len(),
            4,
            "bench_games.json holds four real pairs"
        );
        let games = fake_pair(5).games.decompress().unwrap();
        let numbers: Vec<u64> = games
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["row"]["game"].as_u64().unwrap())
            .collect();
        assert_eq!(numbers, [10, 11]);
        assert!(games[0]["pgn"].as_str().unwrap().contains("[Event"));
        let pairs = BenchPairs::new().unwrap();
        assert!(
            pairs.pair(5).games.as_bytes().len() > 1500,
            "deflated real games"
        );
    }
}
