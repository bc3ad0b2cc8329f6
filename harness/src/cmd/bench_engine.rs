//! `harness bench engine --against git=REV`: our engine's `bench` speed side by side with
//! another build (typically an older revision, built by the harness's git builder), both run
//! alternately in one command so that both see the same machine load.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use crate::build::bench::{BenchRound, compare};
use crate::build::{BuildCache, Revision};
use crate::usage_bail;

/// Longest one `bench` may run.
const BENCH_TIMEOUT: Duration = Duration::from_secs(600);

#[derive(Debug, clap::Args)]
pub struct EngineBenchArgs {
    /// The engine to compare with: `git=REV` (built from that revision; `git=WORKTREE` for the
    /// work tree) or `cmd=PATH`.
    #[arg(long, value_name = "git=REV|cmd=PATH")]
    pub against: String,
    /// The engine measured: `git=REV` or `cmd=PATH` (default: `engine` next to the harness
    /// binary, as `cargo build --release` leaves it).
    #[arg(long, value_name = "git=REV|cmd=PATH")]
    pub engine: Option<String>,
    /// Bench runs of each engine, alternated.
    #[arg(long, default_value_t = 5)]
    pub rounds: usize,
    /// Bench depth (passed as `bench DEPTH`; default: the engine's own).
    #[arg(long)]
    pub depth: Option<u32>,
}

/// The binary an engine specification names, building a `git=` revision if needed.
fn binary(option: &str, spec: &str) -> anyhow::Result<PathBuf> {
    match spec.split_once('=') {
        Some(("cmd", path)) if !path.is_empty() => {
            let path = PathBuf::from(path);
            if !path.is_file() {
                usage_bail!("{option} cmd={}: no such file", path.display());
            }
            Ok(path)
        }
        Some(("git", reference)) if !reference.is_empty() => {
            let cache = BuildCache::for_current_repo()?;
            let built = cache.build(&Revision::parse(reference), &mut |m| eprintln!("{m}"))?;
            eprintln!(
                "{option} git={reference}: {} ({}, {})",
                built.binary.display(),
                built.revision.description,
                if built.reused {
                    "cached build"
                } else {
                    "built"
                }
            );
            Ok(built.binary)
        }
        _ => usage_bail!("{option} {spec:?}: expected git=REV or cmd=PATH"),
    }
}

pub fn run(args: EngineBenchArgs) -> anyhow::Result<ExitCode> {
    if args.rounds == 0 {
        usage_bail!("--rounds 0: at least 1 round is needed");
    }
    let base = binary("--against", &args.against)?;
    let new = match &args.engine {
        Some(spec) => binary("--engine", spec)?,
        None => {
            let next_to_harness = std::env::current_exe()
                .ok()
                .map(|exe| exe.with_file_name("engine"))
                .filter(|p| p.is_file());
            match next_to_harness {
                Some(path) => path,
                None => usage_bail!(
                    "no engine binary next to the harness: build it with `cargo build --release`, \
                     or give --engine git=REV|cmd=PATH"
                ),
            }
        }
    };
    let bench_args: Vec<String> = args.depth.map(|d| d.to_string()).into_iter().collect();
    println!(
        "harness bench engine: {} vs {} ({}), {} rounds alternating",
        new.display(),
        base.display(),
        match args.depth {
            Some(d) => format!("bench {d}"),
            None => "bench".to_string(),
        },
        args.rounds
    );
    println!(
        "{:>5} {:>12} {:>12} {:>12} {:>12} {:>7}",
        "round", "base nodes", "base nps", "new nodes", "new nps", "ratio"
    );
    let print = |index: usize, r: &BenchRound| {
        println!(
            "{:>5} {:>12} {:>12} {:>12} {:>12} {:>7.3}",
            index + 1,
            r.base.nodes,
            r.base.nps,
            r.new.nodes,
            r.new.nps,
            r.ratio()
        );
    };
    let comparison = compare(
        &base,
        &new,
        &bench_args,
        args.rounds,
        BENCH_TIMEOUT,
        &mut |i, r| print(i, r),
    )?;
    let (base_nps, new_nps) = comparison.mean_nps();
    println!(
        "mean nps: base {base_nps:.0}, new {new_nps:.0} (ratio of means {:.3}); median ratio {:.3}",
        new_nps / base_nps.max(1.0),
        comparison.median_ratio()
    );
    println!(
        "node counts: {}",
        if comparison.same_nodes() {
            "identical (same search)"
        } else {
            "DIFFER (the two builds search differently)"
        }
    );
    Ok(ExitCode::SUCCESS)
}
