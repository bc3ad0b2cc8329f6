//! `harness bench spsa`: SPSA iterations per hour at a fixed node limit, the same tune played
//! in-process and with our `engine` binary over UCI (parameters set with `setoption`), side by
//! side in one run.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::cli::match_options::{MatchArgs, build_config};
use crate::cli::spellings::group_value;
use crate::spsa::play::{SpsaSpec, registry_params, run_tune};
use crate::spsa::{Settings, Tuner};
use crate::{UsageError, usage_bail};

#[derive(Debug, clap::Args)]
pub struct SpsaBenchArgs {
    /// Node limit per move.
    #[arg(long, default_value_t = 1000)]
    pub nodes: u64,
    /// Iterations per measurement.
    #[arg(long, default_value_t = 30)]
    pub iterations: u64,
    /// Game pairs per iteration.
    #[arg(long, default_value_t = 8)]
    pub pairs_per_iteration: u64,
    /// Games played at the same time (default: all cores).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Parameters tuned (registry names, groups or prefixes).
    #[arg(long, default_value = "search")]
    pub params: String,
    /// Our engine binary for the UCI side (default: `engine` next to the harness binary, as
    /// `cargo build --release` leaves it).
    #[arg(long, value_name = "PATH")]
    pub uci_engine: Option<PathBuf>,
}

/// One measured tune.
struct Measured {
    iterations: u64,
    games: u64,
    wall_seconds: f64,
    /// spsa.csv: the trajectory, to compare the two ways of playing.
    trajectory: String,
}

impl Measured {
    fn per_hour(&self) -> f64 {
        self.iterations as f64 * 3600.0 / self.wall_seconds
    }
}

fn measure(args: &SpsaBenchArgs, engine_keys: &[String], tag: &str) -> anyhow::Result<Measured> {
    let side = |name: &str| {
        let mut keys = vec![format!("name={name}")];
        keys.extend(engine_keys.iter().cloned());
        group_value(&keys)
    };
    let options = MatchArgs {
        engine: vec![side("plus"), side("minus")],
        each: vec![format!("nodes={}", args.nodes)],
        games: Some(2),
        concurrency: args.concurrency,
        hash: Some(16),
        ..Default::default()
    };
    let (games, _) = build_config(&options)?;
    let params = registry_params(&args.params, &engine::params::Params::default())
        .map_err(|e| UsageError(format!("--params {}: {e}", args.params)))?;
    let settings = Settings {
        iterations: args.iterations,
        pairs_per_iteration: args.pairs_per_iteration,
        alpha: 0.602,
        gamma: 0.101,
        a_ratio: 0.1,
        in_flight: Settings::in_flight_for(games.concurrency, args.pairs_per_iteration),
        seed: games.seed,
    };
    let spec = SpsaSpec {
        games,
        params,
        settings,
    };
    let tuner = Tuner::new(spec.params.clone(), spec.settings.clone())
        .map_err(|e| UsageError(format!("harness bench spsa: {e}")))?;
    let dir = std::env::temp_dir().join(format!("harness-bench-spsa-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let outcome = run_tune(&spec, tuner, &dir, &stop, &mut |_| {});
    let wall_seconds = started.elapsed().as_secs_f64();
    let trajectory = std::fs::read_to_string(dir.join("spsa.csv")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    let outcome = outcome?;
    let iterations = outcome.tuner.state().applied;
    Ok(Measured {
        iterations,
        games: iterations * 2 * args.pairs_per_iteration,
        wall_seconds,
        trajectory,
    })
}

fn print_row(label: &str, m: &Measured) {
    println!(
        "{label:>11} {:>10} {:>7} {:>8.1} {:>12.0}",
        m.iterations,
        m.games,
        m.wall_seconds,
        m.per_hour()
    );
}

pub fn run(args: SpsaBenchArgs) -> anyhow::Result<ExitCode> {
    if args.iterations == 0 || args.pairs_per_iteration == 0 {
        usage_bail!("--iterations and --pairs-per-iteration must be at least 1");
    }
    let binary = match &args.uci_engine {
        Some(path) => path.clone(),
        None => std::env::current_exe()
            .ok()
            .map(|exe| exe.with_file_name("engine"))
            .filter(|p| p.is_file())
            .ok_or_else(|| {
                UsageError(
                    "no engine binary next to the harness: build it with `cargo build --release`, \
                     or give --uci-engine PATH"
                        .into(),
                )
            })?,
    };
    println!(
        "harness bench spsa: {} iterations of {} pairs, --params {}, nodes={}, hash 16 MiB, shipped book",
        args.iterations, args.pairs_per_iteration, args.params, args.nodes
    );
    println!(
        "{:>11} {:>10} {:>7} {:>8} {:>12}",
        "engines", "iterations", "games", "wall s", "iter/hour"
    );
    let in_process = measure(&args, &[], "inprocess")?;
    print_row("in-process", &in_process);
    let cmd = format!("cmd={}", binary.display());
    let over_uci = measure(&args, &[cmd], "uci")?;
    print_row("UCI", &over_uci);
    let same = !in_process.trajectory.is_empty() && in_process.trajectory == over_uci.trajectory;
    println!(
        "in-process runs {:.2}x the iterations per hour of the same tune over UCI ({}); same trajectory: {}",
        in_process.per_hour() / over_uci.per_hour(),
        binary.display(),
        if same {
            "yes"
        } else {
            "NO (is the engine binary built from these sources?)"
        }
    );
    Ok(ExitCode::SUCCESS)
}
