//! The worker loop: find a test with claimable pairs, check it on this machine (book hash,
//! engine benches), register, then claim a batch of pairs under a lease, play exactly those
//! pairs with [`play_pairs`], renew the lease from a second connection while playing, and
//! commit the complete pairs (rows and pentanomial outcomes) in one transaction. The store
//! ends a test centrally when its SPRT decides; the worker then stops claiming it.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;

use super::stored_game::StoredGame;
use super::verify::{BenchMemo, PreparedTest, prepare_test};
use crate::output::{PgnHeader, format_game};
use crate::runner::{Control, Event, first_engine_points_x2, play_pairs};
use crate::scoreboard::Scoreboard;
use crate::store::{
    Lease, PairGames, PairOutcome, PairResult, RetryPolicy, Store, StoreUrl, TestStatus,
};

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// Play only this test (exit once it has ended); else the oldest active test with work.
    pub test: Option<i64>,
    /// Games played at once.
    pub concurrency: usize,
    /// Pairs a claim asks for: the first batch of each test, and the least of later ones.
    pub batch_pairs: u32,
    /// When set, later batches of a test are sized to take about this long at the pace of
    /// the batch before (see [`next_batch_pairs`]); when `None`, every batch is `batch_pairs`.
    pub batch_target: Option<Duration>,
    /// This worker's name in the store (unique among the workers of a test).
    pub name: String,
    /// The machine, for `harness test status`.
    pub host: String,
    /// Exit when no active test has a pair to claim, instead of waiting for work.
    pub exit_when_idle: bool,
    /// How long a claim holds its pairs; renewed every third of it while playing.
    pub lease: Duration,
    /// Pause between looks for work when idle.
    pub idle_poll: Duration,
    /// Reconnection policy for the store (a restart is waited out).
    pub retry: RetryPolicy,
}

impl WorkerOptions {
    /// Defaults for `name` on `host`: every core, a first batch of 4 pairs a game slot and
    /// later ones of about [`BATCH_TARGET`], 2-minute leases.
    pub fn new(name: String, host: String) -> Self {
        let concurrency = std::thread::available_parallelism().map_or(1, |n| n.get());
        WorkerOptions {
            test: None,
            concurrency,
            batch_pairs: 4 * concurrency as u32,
            batch_target: Some(BATCH_TARGET),
            name,
            host,
            exit_when_idle: false,
            lease: Duration::from_secs(120),
            idle_poll: Duration::from_secs(10),
            retry: RetryPolicy::default(),
        }
    }
}

/// How long a batch should take by default. A claim and a commit cost the store a few
/// milliseconds, so at 30 s even 1,000 workers make about 70 calls a second (OpenBench and
/// fishtest also hand out work that lasts minutes); pairs still in a batch when the test is
/// decided are not counted, so much longer batches would waste more at the end of a test.
pub const BATCH_TARGET: Duration = Duration::from_secs(30);

/// Most pairs a claim asks for.
pub const MAX_BATCH_PAIRS: u32 = 100_000;

/// The next batch of a test: as many pairs as this worker plays in `target` at the pace of
/// its last batch (`pairs` in `seconds`), at least `least`, at most [`MAX_BATCH_PAIRS`].
pub fn next_batch_pairs(least: u32, pairs: usize, seconds: f64, target: Duration) -> u32 {
    if pairs == 0 || seconds.is_nan() || seconds <= 0.0 {
        return least;
    }
    let paced = pairs as f64 / seconds * target.as_secs_f64();
    (paced.round().min(f64::from(MAX_BATCH_PAIRS)) as u32)
        .clamp(least.min(MAX_BATCH_PAIRS), MAX_BATCH_PAIRS)
}

/// Why a worker stopped (an error is returned as such).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerEnd {
    /// `--exit-when-idle`: no active test had a pair to claim.
    Idle,
    /// `--test`: the test ended (decided, stopped or finished).
    TestEnded(TestStatus),
    /// The stop flag (SIGTERM, Ctrl-C): the games under way were finished and committed.
    Interrupted,
}

/// `host-pid`: a worker name unique on a machine at one time.
pub fn default_worker_name(host: &str) -> String {
    format!("{host}-{}", std::process::id())
}

/// This machine's host name (`localhost` when it cannot be read).
pub fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at most that much.
    let rc = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    match std::str::from_utf8(&buf[..end]) {
        Ok(name) if rc == 0 && !name.is_empty() => name.to_string(),
        _ => "localhost".to_string(),
    }
}

/// Runs the worker until it is idle (with `exit_when_idle`), its test ended (with `test`),
/// `stop` is set, or an error. `log` hears one line per batch and per notable event.
pub fn run_worker(
    url: &StoreUrl,
    options: &WorkerOptions,
    stop: &AtomicBool,
    log: &mut dyn FnMut(&str),
) -> anyhow::Result<WorkerEnd> {
    anyhow::ensure!(
        options.concurrency >= 1,
        "a worker plays at least 1 game at once"
    );
    let connect =
        || -> anyhow::Result<Store> { Ok(Store::connect(url)?.with_retry(options.retry)) };
    let mut store = connect()?;
    let mut renewer = connect()?;
    let mut prepared: HashMap<i64, PreparedTest> = HashMap::new();
    let mut memo = BenchMemo::default();
    let mut registered = false;
    // Tests this worker cannot play (another bench, another book): left to other workers.
    let mut refused: Vec<i64> = Vec::new();
    // Each test's next batch size (its pace differs: time control, engines).
    let mut batch_of: HashMap<i64, u32> = HashMap::new();
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(WorkerEnd::Interrupted);
        }
        if let Some(id) = options.test {
            let status = store.test(id)?.status;
            if status != TestStatus::Active {
                return Ok(WorkerEnd::TestEnded(status));
            }
        }
        let Some(id) = store.claimable_test(options.test, &refused)? else {
            if options.exit_when_idle {
                return Ok(WorkerEnd::Idle);
            }
            sleep_unless_stopped(options.idle_poll, stop);
            continue;
        };
        if let std::collections::hash_map::Entry::Vacant(slot) = prepared.entry(id) {
            let test = store.test(id)?;
            let started = Instant::now();
            let mut stored_book =
                || -> anyhow::Result<Option<Vec<u8>>> { Ok(store.test_book(id)?) };
            let prepared_test =
                prepare_test(&test, options.concurrency, &mut memo, &mut stored_book);
            let ready = match prepared_test {
                Ok(ready) => ready,
                // With --test, this worker has nothing else to do: an error.
                Err(e) if options.test.is_some() => return Err(e),
                Err(e) => {
                    log(&format!(
                        "worker {}: leaving test {id} to other workers: {e:#}",
                        options.name
                    ));
                    refused.push(id);
                    continue;
                }
            };
            if let Some(path) = &ready.book_from_store {
                log(&format!(
                    "worker {}: test {id}: its book is not at its path here; using the copy \
                     stored with the test (SHA-256 checked), written to {}",
                    options.name,
                    path.display()
                ));
            }
            log(&format!(
                "worker {}: test {id} checked (book and engine benches) in {:.1} s",
                options.name,
                started.elapsed().as_secs_f64()
            ));
            slot.insert(ready);
        }
        // The benches take seconds: a SIGTERM during them claims nothing.
        if stop.load(Ordering::Relaxed) {
            return Ok(WorkerEnd::Interrupted);
        }
        if !registered {
            store.register_worker(&options.name, &options.host)?;
            registered = true;
        }
        let batch_pairs = *batch_of.get(&id).unwrap_or(&options.batch_pairs);
        let Some(lease) = store.claim(Some(id), &options.name, batch_pairs, options.lease)? else {
            // Another worker took the last pairs between the look and the claim.
            continue;
        };
        let test = &prepared[&id];
        let started = Instant::now();
        let batch = match play_batch(test, &lease, options, &mut renewer, stop, log) {
            Ok(batch) => batch,
            Err(e) => {
                // Give the pairs back at once rather than when the lease expires (best
                // effort: the error is what matters).
                let _ = store.release(id, &options.name, &lease.pairs);
                return Err(e.context(format!("test {id}: playing pairs {:?}", lease.pairs)));
            }
        };
        let seconds = started.elapsed().as_secs_f64();
        if let Some(target) = options.batch_target
            && !batch.interrupted
            && batch.results.len() == lease.pairs.len()
        {
            let next = next_batch_pairs(options.batch_pairs, batch.results.len(), seconds, target);
            batch_of.insert(id, next);
        }
        let outcome = if batch.results.is_empty() {
            None
        } else {
            Some(store.commit(id, &options.name, &batch.results)?)
        };
        let unplayed: Vec<u64> = lease
            .pairs
            .iter()
            .copied()
            .filter(|p| !batch.results.iter().any(|r| r.pair_index == *p))
            .collect();
        if !unplayed.is_empty() {
            store.release(id, &options.name, &unplayed)?;
        }
        let games = 2 * batch.results.len();
        log(&format!(
            "worker {}: test {id}: {} of {} pairs ({games} games) in {seconds:.1} s, {:.2} games/s; \
             {} newly stored; test {}",
            options.name,
            batch.results.len(),
            lease.pairs.len(),
            games as f64 / seconds.max(1e-9),
            outcome.map_or(0, |o| o.inserted),
            outcome.map_or("active", |o| o.status.name()),
        ));
        if let Some(fault) = batch.fault_stop {
            anyhow::bail!(
                "test {id}: {fault}; the complete pairs are committed and the rest released \
                 (the test has no --recover, so this worker stops)"
            );
        }
        if batch.interrupted {
            return Ok(WorkerEnd::Interrupted);
        }
    }
}

/// What a batch produced.
struct Batch {
    /// The complete pairs, ready to commit.
    results: Vec<PairResult>,
    interrupted: bool,
    fault_stop: Option<String>,
}

/// Plays the pairs of `lease`, renewing it every third of its length from `renewer`'s
/// connection. Once `stop` is set, only the pairs already started are finished.
fn play_batch(
    test: &PreparedTest,
    lease: &Lease,
    options: &WorkerOptions,
    renewer: &mut Store,
    stop: &AtomicBool,
    log: &mut dyn FnMut(&str),
) -> anyhow::Result<Batch> {
    let config = &test.config;
    let mut board = Scoreboard::new(
        &config.engines[0].name,
        &config.engines[1].name,
        Some(config.games.div_ceil(2)),
    );
    let date = chrono::Local::now().format("%Y.%m.%d").to_string();
    let time_controls = [
        config.engines[0].limits.pgn_time_control(),
        config.engines[1].limits.pgn_time_control(),
    ];
    let mut games: BTreeMap<u64, StoredGame> = BTreeMap::new();
    let mut results: Vec<PairResult> = Vec::new();
    let mut interrupted = false;
    let mut listener = |event: &Event<'_>, _: &Scoreboard| -> anyhow::Result<Control> {
        match event {
            Event::GameFinished {
                row,
                moves,
                reason,
                record,
            } => {
                let (white, black) = if row.game % 2 == 0 { (0, 1) } else { (1, 0) };
                let header = PgnHeader {
                    event: &config.event,
                    site: "harness",
                    date: &date,
                    game: row.game,
                    white_time_control: time_controls[white].clone(),
                    black_time_control: time_controls[black].clone(),
                };
                games.insert(
                    row.game,
                    StoredGame {
                        row: (*row).clone(),
                        moves: moves.clone(),
                        reason: reason.to_string(),
                        pgn: format_game(&header, record),
                    },
                );
            }
            Event::PairFinished { pair, .. } => {
                let (Some(a), Some(b)) = (games.remove(&(2 * pair)), games.remove(&(2 * pair + 1)))
                else {
                    anyhow::bail!("pair {pair} finished without both of its games");
                };
                let points = |g: &StoredGame| -> anyhow::Result<u8> {
                    let result = g
                        .row
                        .outcome()
                        .with_context(|| format!("game {} did not finish", g.row.game))?;
                    Ok(first_engine_points_x2(g.row.game, result))
                };
                let outcome = PairOutcome::from_points_x2([points(&a)?, points(&b)?])?;
                results.push(PairResult {
                    pair_index: *pair,
                    outcome,
                    games: PairGames::compress(&[a, b])?,
                });
            }
            _ => {}
        }
        if stop.load(Ordering::Relaxed) {
            interrupted = true;
            return Ok(Control::FinishStartedPairs);
        }
        Ok(Control::Continue)
    };
    // The runner's own stop flag stays clear: a SIGTERM finishes the games under way.
    let never = AtomicBool::new(false);
    let (done, renew_stop) = mpsc::channel::<()>();
    let every = options.lease / 3;
    let mut renew_notes: Vec<String> = Vec::new();
    let run = std::thread::scope(|scope| {
        let notes = &mut renew_notes;
        scope.spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) = renew_stop.recv_timeout(every) {
                match renewer.renew(lease.test_id, &lease.worker, &lease.pairs, options.lease) {
                    Ok(held) if held.len() < lease.pairs.len() => notes.push(format!(
                        "lease renewed on {} of {} pairs (the others expired and went to \
                         other workers; their results are stored once)",
                        held.len(),
                        lease.pairs.len()
                    )),
                    Ok(_) => {}
                    Err(e) => notes.push(format!("cannot renew the lease: {e}")),
                }
            }
        });
        let run = play_pairs(
            config,
            test.book.as_ref(),
            lease.pairs.clone(),
            &mut board,
            &never,
            &mut listener,
        );
        let _ = done.send(());
        run
    });
    for note in &renew_notes {
        log(&format!(
            "worker {}: test {}: {note}",
            options.name, test.id
        ));
    }
    let run = run?;
    Ok(Batch {
        results,
        interrupted: interrupted || stop.load(Ordering::Relaxed),
        fault_stop: run.fault_stop,
    })
}

/// Sleeps `pause`, waking early when `stop` is set.
fn sleep_unless_stopped(pause: Duration, stop: &AtomicBool) {
    let until = Instant::now() + pause;
    while Instant::now() < until && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(100).min(until - Instant::now()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_follow_the_pace_within_bounds() {
        let target = Duration::from_secs(30);
        // 8 pairs in 0.64 s (12.5 pairs/s: a 2-core machine at 1,000 nodes) -> 375 pairs.
        assert_eq!(next_batch_pairs(8, 8, 0.64, target), 375);
        // Slow games never go below the least batch.
        assert_eq!(next_batch_pairs(8, 8, 600.0, target), 8);
        assert_eq!(next_batch_pairs(8, 0, 1.0, target), 8);
        assert_eq!(next_batch_pairs(8, 8, 0.0, target), 8);
        assert_eq!(next_batch_pairs(8, 8, 1e-9, target), MAX_BATCH_PAIRS);
    }
}
