//! `harness bench match`: match throughput at fixed nodes with 1 and 2 workers, and the
//! harness's own cost per game (wall time × workers not spent inside the engines' searches:
//! game loop, legality and rule checks, clearing hash tables, writing CSV/PGN). Then the same
//! match with both engines as our `engine` binary over UCI, to show what in-process play saves
//! (and that both paths play the same games).

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use std::path::PathBuf;

use crate::cli::match_options::{MatchArgs, build_config};
use crate::cli::spellings::group_value;
use crate::output::read_games_csv;
use crate::runner::{Control, Event, Start, run_match};
use crate::scoreboard::Scoreboard;
use crate::usage_bail;

/// What one measured match cost.
struct MatchReport {
    games_played: u64,
    wall_seconds: f64,
    search_seconds: f64,
    /// CPU time of the harness and of the engine processes it started and reaped.
    cpu_seconds: f64,
}

/// CPU seconds (user + system) used so far by this process and its reaped children.
fn cpu_seconds() -> f64 {
    let used = |who| {
        // SAFETY: getrusage only writes the struct it is given.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(who, &mut usage) } != 0 {
            return 0.0;
        }
        let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        seconds(usage.ru_utime) + seconds(usage.ru_stime)
    };
    used(libc::RUSAGE_SELF) + used(libc::RUSAGE_CHILDREN)
}

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
    /// Our engine binary, for the comparison with play over UCI (default: `engine` next to the
    /// harness binary, as `cargo build --release` leaves it). `none` skips the comparison.
    #[arg(long, value_name = "PATH")]
    pub uci_engine: Option<PathBuf>,
}

/// One measured match: its report and the final position of every game, by game index.
struct Measured {
    report: MatchReport,
    final_fens: Vec<String>,
    /// Moves played in all games.
    plies: u64,
}

fn measure(match_args: &MatchArgs, tag: &str) -> anyhow::Result<Measured> {
    let (config, _) = build_config(match_args)?;
    let dir =
        std::env::temp_dir().join(format!("harness-bench-match-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let stop = AtomicBool::new(false);
    let mut quiet = |_: &Event<'_>, _: &Scoreboard| Ok(Control::Continue);
    let cpu_before = cpu_seconds();
    let report =
        run_match(&config, &dir, Start::Fresh, &stop, &mut quiet).map(|outcome| MatchReport {
            games_played: outcome.run.games_played,
            wall_seconds: outcome.wall_seconds,
            search_seconds: outcome.run.search_seconds,
            cpu_seconds: cpu_seconds() - cpu_before,
        });
    let rows = read_games_csv(&dir.join("games.csv")).map(|found| found.rows);
    let _ = std::fs::remove_dir_all(&dir);
    let mut rows = rows?;
    rows.sort_by_key(|r| r.game);
    Ok(Measured {
        report: report?,
        plies: rows.iter().map(|r| u64::from(r.plies)).sum(),
        final_fens: rows.into_iter().map(|r| r.final_fen).collect(),
    })
}

fn print_row(label: &str, workers: usize, report: &MatchReport) {
    let games = report.games_played as f64;
    let busy = report.wall_seconds * workers as f64;
    let overhead = (busy - report.search_seconds).max(0.0);
    println!(
        "{:>7} {:>6} {:>8.2} {:>8.2} {:>10.2} {:>10.2} ms {:>8.1}%",
        label,
        report.games_played,
        report.wall_seconds,
        games / report.wall_seconds,
        report.search_seconds,
        overhead / games * 1000.0,
        100.0 * overhead / busy
    );
}

/// The engine binary for the UCI comparison, if there is one.
fn uci_engine_path(args: &MatchBenchArgs) -> Option<PathBuf> {
    match &args.uci_engine {
        Some(path) if path.as_os_str() == "none" => None,
        Some(path) => Some(path.clone()),
        None => std::env::current_exe()
            .ok()
            .map(|exe| exe.with_file_name("engine"))
            .filter(|p| p.is_file()),
    }
}

pub fn run(args: MatchBenchArgs) -> anyhow::Result<ExitCode> {
    let args = &args;
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
    let mut single_worker: Option<Measured> = None;
    for &workers in &args.workers {
        let match_args = MatchArgs {
            engine: vec![],
            each: vec![format!("nodes={}", args.nodes)],
            games: Some(args.games),
            concurrency: Some(workers),
            hash: Some(args.hash),
            ..Default::default()
        };
        let measured = measure(&match_args, &workers.to_string())?;
        print_row(&workers.to_string(), workers, &measured.report);
        if workers == 1 {
            single_worker = Some(measured);
        }
    }
    println!(
        "(overhead = wall time × workers not spent inside the searches; with several workers it \
         includes the idle tail while the last games finish)"
    );

    let Some(binary) = uci_engine_path(args) else {
        println!(
            "UCI comparison skipped: no engine binary next to the harness (build it with \
             `cargo build --release`, or give --uci-engine PATH)"
        );
        return Ok(ExitCode::SUCCESS);
    };
    // The same two configurations, each as our engine binary over UCI, one worker.
    let cmd = format!("cmd={}", binary.display());
    let match_args = MatchArgs {
        engine: [
            vec!["name=base".to_string(), cmd.clone()],
            vec![
                "name=noqchecks".to_string(),
                cmd,
                "qsearch_check_plies=0".to_string(),
            ],
        ]
        .into_iter()
        .map(|keys| group_value(&keys))
        .collect(),
        each: vec![format!("nodes={}", args.nodes)],
        games: Some(args.games),
        concurrency: Some(1),
        hash: Some(args.hash),
        ..Default::default()
    };
    let over_uci = measure(&match_args, "uci")?;
    println!("over UCI ({}):", binary.display());
    print_row("1 uci", 1, &over_uci.report);
    if let Some(in_process) = &single_worker {
        let speedup = over_uci.report.wall_seconds / in_process.report.wall_seconds;
        let same = in_process.final_fens == over_uci.final_fens;
        println!(
            "in-process is {speedup:.2}x as fast as UCI at nodes={} (1 worker); games identical: {}",
            args.nodes,
            if same {
                "yes"
            } else {
                "NO (is the engine binary built from these sources?)"
            }
        );
        // The same games with the same searches: the difference is what playing a move over
        // UCI costs (position, go, info, bestmove, on both sides of the pipe). Wall time
        // includes waking the threads and processes; CPU time (harness and engines) does not
        // count waiting, so it holds on a busy machine where the wall time does not.
        let plies = over_uci.plies.max(1) as f64;
        let per_move = |uci: f64, in_process: f64| (uci - in_process) / plies * 1000.0;
        println!(
            "UCI cost per move beyond its search: wall {:.3} ms ({:.2} s UCI - {:.2} s in-process), \
             CPU {:.3} ms ({:.2} s - {:.2} s), {} moves",
            per_move(over_uci.report.wall_seconds, in_process.report.wall_seconds),
            over_uci.report.wall_seconds,
            in_process.report.wall_seconds,
            per_move(over_uci.report.cpu_seconds, in_process.report.cpu_seconds),
            over_uci.report.cpu_seconds,
            in_process.report.cpu_seconds,
            over_uci.plies
        );
    }
    Ok(ExitCode::SUCCESS)
}
