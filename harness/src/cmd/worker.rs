//! `harness worker`: plays batches of a stored test's pairs until told to stop (see
//! [`crate::distributed::worker`]).

use std::process::ExitCode;
use std::time::Duration;

use crate::UsageError;
use crate::cli::match_options::MAX_CONCURRENCY;
use crate::distributed::worker::{MAX_BATCH_PAIRS, default_worker_name, host_name};
use crate::distributed::{WorkerEnd, WorkerOptions, run_worker};
use crate::store::StoreUrl;

/// Exit code after SIGTERM or Ctrl-C (the games under way were committed).
const INTERRUPTED: u8 = 130;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Before its first batch of a test the worker checks it: the book must be at the test's path \
with the stored SHA-256, and each engine's bench node count must be the stored one (our engine \
is benched in this process, a git= engine built here and benched). A test that fails the \
check is refused with nothing written: with --test the worker exits with the reason; without, \
it says why once, leaves that test to other workers and goes on with the others. Exit codes: 0 when idle (--exit-when-idle) or when its --test ended; 130 after \
SIGTERM or Ctrl-C (the pairs under way are finished and committed, the rest of the batch given \
back; a second signal exits at once); 1 on an error.")]
pub struct WorkerArgs {
    /// The store: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE. Default: $HARNESS_STORE.
    #[arg(long)]
    pub store: Option<StoreUrl>,
    /// Play only this test, and exit when it ends (default: the oldest active test with work).
    #[arg(long)]
    pub test: Option<i64>,
    /// Games played at once (default: all cores).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Pairs claimed at a time (default: 4 × concurrency for a test's first batch, then as
    /// many as this worker plays in about 30 s).
    #[arg(long)]
    pub batch: Option<u32>,
    /// This worker's name in the store (default: HOST-PID).
    #[arg(long)]
    pub name: Option<String>,
    /// Exit (code 0) when no active test has a pair to claim, instead of waiting for work.
    #[arg(long)]
    pub exit_when_idle: bool,
    /// Seconds a claim holds its pairs before other workers may take them (renewed while
    /// playing); a killed worker's pairs are played again after this.
    #[arg(long, default_value_t = 120, hide = true)]
    pub lease_seconds: u64,
}

pub fn run(args: WorkerArgs) -> anyhow::Result<ExitCode> {
    let url =
        StoreUrl::from_arg_or_env(args.store.as_ref()).map_err(|e| UsageError(e.to_string()))?;
    let host = host_name();
    let name = args
        .name
        .clone()
        .unwrap_or_else(|| default_worker_name(&host));
    let mut options = WorkerOptions::new(name, host);
    options.test = args.test;
    if let Some(c) = args.concurrency {
        if !(1..=MAX_CONCURRENCY).contains(&c) {
            return Err(UsageError(format!(
                "--concurrency {c}: accepted 1 to {MAX_CONCURRENCY}"
            ))
            .into());
        }
        options.concurrency = c;
        options.batch_pairs = 4 * c as u32;
    }
    if let Some(b) = args.batch {
        if !(1..=MAX_BATCH_PAIRS).contains(&b) {
            return Err(UsageError(format!(
                "--batch {b}: accepted 1 to {MAX_BATCH_PAIRS} pairs"
            ))
            .into());
        }
        options.batch_pairs = b;
        options.batch_target = None;
    }
    if !(3..=86_400).contains(&args.lease_seconds) {
        return Err(UsageError(format!(
            "--lease-seconds {}: accepted 3 to 86400",
            args.lease_seconds
        ))
        .into());
    }
    options.lease = Duration::from_secs(args.lease_seconds);
    options.idle_poll = (options.lease / 2).min(Duration::from_secs(10));
    options.exit_when_idle = args.exit_when_idle;
    let stop = crate::interrupt::stop_flag();
    let batches = match options.batch_target {
        Some(t) => format!(
            "batches of {} pairs, then of about {} s",
            options.batch_pairs,
            t.as_secs()
        ),
        None => format!("{} pairs a batch", options.batch_pairs),
    };
    eprintln!(
        "worker {} on {url}: {} games at once, {batches}",
        options.name, options.concurrency
    );
    let end = run_worker(&url, &options, stop, &mut |line| eprintln!("{line}"))?;
    let name = &options.name;
    Ok(match end {
        WorkerEnd::Idle => {
            eprintln!("worker {name}: no test has pairs to claim; exiting");
            ExitCode::SUCCESS
        }
        WorkerEnd::TestEnded(status) => {
            eprintln!("worker {name}: the test is {status}; exiting");
            ExitCode::SUCCESS
        }
        WorkerEnd::Interrupted => {
            eprintln!("worker {name}: interrupted; the complete pairs are committed");
            ExitCode::from(INTERRUPTED)
        }
    })
}
