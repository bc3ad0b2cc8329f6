//! `harness bench match`: match throughput at fixed nodes with 1 and 2 workers, and the
//! harness's own cost per game (wall time × workers not spent inside the engines' searches:
//! game loop, legality and rule checks, clearing hash tables, writing CSV/PGN).

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use super::run_match::{Display, MatchArgs, build_config, run_config};
use crate::usage_bail;

#[derive(Debug, clap::Args)]
pub struct MatchBenchArgs {
    /// Node limit per move.
    #[arg(long, default_value_t = 1000)]
    pub nodes: u64,
    /// Games per measurement (even).
    #[arg(long, default_value_t = 40)]
    pub games: u64,
    /// Worker counts to measure.
    #[arg(long, value_delimiter = ',', default_values_t = [1usize, 2])]
    pub workers: Vec<usize>,
    /// Transposition table per engine, in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

pub fn run(args: MatchBenchArgs) -> anyhow::Result<ExitCode> {
    if args.games < 2 || args.workers.contains(&0) {
        usage_bail!("--games must be at least 2 and every worker count at least 1");
    }
    println!(
        "harness bench match: default engine vs qsearch_check_plies=0, nodes={}, {} games, hash {} MiB, shipped book",
        args.nodes, args.games, args.hash
    );
    println!(
        "{:>7} {:>6} {:>8} {:>8} {:>10} {:>12} {:>9}",
        "workers", "games", "wall s", "games/s", "search s", "overhead/game", "overhead"
    );
    for &workers in &args.workers {
        let match_args = MatchArgs {
            engine: vec![],
            each: vec![format!("nodes={}", args.nodes)],
            games: Some(args.games),
            concurrency: Some(workers),
            hash: Some(args.hash),
            ..Default::default()
        };
        let (config, _) = build_config(&match_args)?;
        let dir = std::env::temp_dir().join(format!(
            "harness-bench-match-{}-{workers}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let stop = AtomicBool::new(false);
        let display = Display {
            progress_bar: false,
            reports: false,
        };
        let report = run_config(&config, &dir, false, &stop, display, None);
        let _ = std::fs::remove_dir_all(&dir);
        let report = report?;
        let games = report.games_played as f64;
        let busy = report.wall_seconds * workers as f64;
        let overhead = (busy - report.search_seconds).max(0.0);
        println!(
            "{:>7} {:>6} {:>8.2} {:>8.2} {:>10.2} {:>10.2} ms {:>8.1}%",
            workers,
            report.games_played,
            report.wall_seconds,
            games / report.wall_seconds,
            report.search_seconds,
            overhead / games * 1000.0,
            100.0 * overhead / busy
        );
    }
    println!(
        "(overhead = wall time × workers not spent inside the searches; with several workers it \
         includes the idle tail while the last games finish)"
    );
    Ok(ExitCode::SUCCESS)
}
