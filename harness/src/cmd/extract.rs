//! `harness extract`: the positions of games already played, labelled for training.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use engine::params::Params;
use indicatif::{ProgressBar, ProgressStyle};

use crate::datagen::from_games::{self, FromGamesOptions};
use crate::datagen::writer::OutputFormat;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Reads finished games with engine scores in their move comments \
(`{+0.35/12 0.120s}`, as `harness match` writes games.pgn and cutechess-cli and fastchess write \
theirs). Kept, as `harness datagen` keeps them: positions an engine searched, not in check, \
before the game's first mate score, each replaced by the quiet leaf of its quiescence PV; \
duplicates across all the files removed; games ended by a time forfeit, crash, stall or \
illegal move left out. Each is labelled with the score of the search played from it (White's \
view) and the game result: the `score` format `harness train-net` and `harness tune` read. \
Games without a result are counted and skipped; a game that does not parse is an error naming \
the file and line.

Example: harness extract --pgn results/sprt-*/games.pgn --out results/datagen/sprt-games.txt"
)]
pub struct ExtractArgs {
    /// PGN files (plain or .xz), read in order. Repeat or list several.
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    pub pgn: Vec<PathBuf>,
    /// Output file (overwritten).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// `score`: `FEN; score; result`; `book`: `FEN [1.0]` (results only).
    #[arg(long, value_enum, default_value = "score")]
    pub format: OutputFormat,
    /// Engine parameters (TOML) of the quiescence search that finds each quiet leaf;
    /// default: the engine's defaults.
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: ExtractArgs) -> anyhow::Result<ExitCode> {
    let params = match &args.params {
        Some(path) => {
            Params::load(path).map_err(|e| crate::UsageError(format!("--params: {e}")))?
        }
        None => Params::default(),
    };
    for path in &args.pgn {
        if !path.is_file() {
            crate::usage_bail!("--pgn {}: no such file", path.display());
        }
    }
    let options = FromGamesOptions {
        pgn: args.pgn.clone(),
        out: args.out.clone(),
        format: args.format,
        params,
    };
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        // Fails only if a handler is already installed (e.g. called twice in one process).
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::Relaxed));
    }
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new_spinner()
    };
    bar.set_style(
        ProgressStyle::with_template("[{elapsed_precise}] {msg}").map_err(anyhow::Error::msg)?,
    );
    let report = from_games::extract(&options, &stop, |r| {
        if r.games % 64 == 0 {
            bar.set_message(format!(
                "{} games, {} positions (file {} of {})",
                r.games,
                r.positions,
                r.files + 1,
                options.pgn.len()
            ));
        }
    })?;
    bar.finish_and_clear();
    let seconds = report.elapsed.as_secs_f64();
    println!(
        "Wrote {} positions from {} games of {} files to {} in {seconds:.1} s \
         ({:.0} positions/s)",
        report.positions,
        report.games,
        report.files,
        args.out.display(),
        report.positions as f64 / seconds.max(1e-9),
    );
    println!(
        "Games: {} White wins, {} draws, {} Black wins; {} without a result left out",
        report.white_wins, report.draws, report.black_wins, report.unfinished
    );
    println!("{}", report.filtered.describe(report.duplicates));
    if report.interrupted {
        eprintln!(
            "interrupted: {} holds the whole games read before the stop",
            args.out.display()
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
