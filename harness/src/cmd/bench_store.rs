//! `harness bench store`: committed pairs per second and claim latency of the PostgreSQL
//! store under many simulated workers (fake results, no chess).

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;

use crate::UsageError;
use crate::store::StoreUrl;
use crate::store::bench::{self, BenchConfig};

#[derive(Debug, clap::Args)]
pub struct StoreBenchArgs {
    /// The store (a migrated database; the role must be allowed to create and delete
    /// tests). Default: $HARNESS_STORE.
    #[arg(long)]
    pub store: Option<StoreUrl>,
    /// Simulated workers, one connection each (the server's max_connections must allow
    /// one more).
    #[arg(long, default_value_t = 200)]
    pub workers: usize,
    /// Pairs per claim.
    #[arg(long, default_value_t = 16)]
    pub batch: u32,
    /// Seconds to run.
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
    /// Pairs of the scratch test (deleted afterwards).
    #[arg(long, default_value_t = 1_000_000)]
    pub pairs: u64,
    /// Pairs a second each simulated worker plays (a real worker's pace, from `harness
    /// bench match`): after each claim it waits as long as playing the batch would take,
    /// and the report says whether the store kept up with all of them. Without it, the
    /// workers claim and commit as fast as they can (the store's ceiling).
    #[arg(long)]
    pub pace: Option<f64>,
    /// Apply the schema migrations first (for a scratch database).
    #[arg(long)]
    pub migrate: bool,
}

pub fn run(args: StoreBenchArgs) -> anyhow::Result<ExitCode> {
    if !(1..=10_000).contains(&args.workers) {
        return Err(UsageError(format!(
            "--workers must be between 1 and 10000, got {}",
            args.workers
        ))
        .into());
    }
    if !(1..=10_000).contains(&args.batch) || args.seconds == 0 {
        return Err(UsageError(format!(
            "--batch must be between 1 and 10000 and --seconds positive, got {} and {}",
            args.batch, args.seconds
        ))
        .into());
    }
    if let Some(pace) = args.pace
        && !(pace.is_finite() && pace > 0.0 && pace <= 1_000_000.0)
    {
        return Err(UsageError(format!(
            "--pace must be a number of pairs a second above 0 and at most 1000000, got {pace}"
        ))
        .into());
    }
    if let Some(pace) = args.pace
        && (args.seconds as f64) < 2.0 * f64::from(args.batch) / pace
    {
        return Err(UsageError(format!(
            "--seconds {} is too short for --batch {} at --pace {pace}: a batch takes {:.1} s and the run needs at least two",
            args.seconds,
            args.batch,
            f64::from(args.batch) / pace
        ))
        .into());
    }
    let url =
        StoreUrl::from_arg_or_env(args.store.as_ref()).map_err(|e| UsageError(e.to_string()))?;
    if args.migrate {
        crate::store::migrate(&url).with_context(|| format!("migrate {url}"))?;
    }
    let report = bench::run(
        &url,
        BenchConfig {
            workers: args.workers,
            batch_pairs: args.batch,
            duration: Duration::from_secs(args.seconds),
            pairs: args.pairs,
            pace: args.pace,
        },
    )
    .with_context(|| format!("store benchmark on {url}"))?;
    print!("{report}");
    Ok(ExitCode::SUCCESS)
}
