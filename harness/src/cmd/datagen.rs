//! `harness datagen`: self-play games written as labelled positions for `harness tune`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use engine::params::Params;
use indicatif::{ProgressBar, ProgressStyle};

use crate::book::{Book, BookOrder, BookSpec};
use crate::datagen::writer::OutputFormat;
use crate::datagen::{self, DatagenOptions, DatagenReport, SelfPlayConfig};
use crate::usage_bail;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each game starts from a book opening (--book, else the shipped book \
openings/balanced-8ply.epd if found, else the start position) plus --random-plies random \
moves, drawn again while the position after them is lopsided (--max-opening-score). Kept: positions the engine searched, not in check, before any mate score, each replaced \
by the leaf of its quiescence PV; duplicates (board, side, castling, en passant) removed. Labels are the game result from White's view. \
Lines are written whole as each game ends, so a stopped run leaves a usable file, and \
<out>.progress records the run after every game: the same command with --resume carries a stopped \
run on (a higher --positions extends a finished one). \
Same --seed and settings give the same file, whatever the --concurrency or the stops."
)]
pub struct DatagenArgs {
    /// Output file (overwritten).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Stop once this many positions are written.
    #[arg(long, value_name = "N")]
    pub positions: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Games played at once (default: the number of cores).
    #[arg(long, value_name = "C")]
    pub concurrency: Option<usize>,
    /// Opening book (EPD or PGN, optionally .xz); openings are taken in a seeded random order.
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    pub book: Option<PathBuf>,
    /// Start every game from the standard position (plus the random plies).
    #[arg(long)]
    pub no_book: bool,
    /// PGN books: play at most this many plies of each book game.
    #[arg(long, value_name = "N")]
    pub book_plies: Option<usize>,
    /// Random legal moves played after the book line: N in even-numbered games, N+1 in odd
    /// ones, so that each colour is as often the first to answer the other's random move.
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// Draw the random plies again while the position after them scores beyond this many
    /// centipawns (quiescence search); 0 = keep every random line.
    #[arg(long, value_name = "CP", default_value_t = 100)]
    pub max_opening_score: i32,
    /// Seed of the opening order and the random plies (default: from the clock, printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// `book`: `FEN [1.0]`; `score`: `FEN; score; result` (score in cp, White's view).
    #[arg(long, value_enum, default_value = "book")]
    pub format: OutputFormat,
    /// Hash table per player, MiB.
    #[arg(long, value_name = "MiB", default_value_t = 16)]
    pub hash: usize,
    /// Engine parameters (TOML) for both sides; default: the engine's defaults.
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Carry on the run recorded in `<out>.progress` (same settings; --positions may be
    /// higher) instead of overwriting --out.
    #[arg(long)]
    pub resume: bool,
}

pub fn run(args: DatagenArgs) -> anyhow::Result<ExitCode> {
    if args.positions == 0 {
        usage_bail!("--positions must be at least 1");
    }
    if args.nodes == 0 {
        usage_bail!("--nodes must be at least 1");
    }
    if args.max_opening_score < 0 {
        usage_bail!(
            "--max-opening-score {} must be 0 (off) or positive",
            args.max_opening_score
        );
    }
    if args.hash == 0 {
        usage_bail!("--hash must be at least 1 MiB");
    }
    let concurrency = match args.concurrency {
        Some(0) => usage_bail!("--concurrency must be at least 1"),
        Some(c) => c,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let params = match &args.params {
        Some(path) => {
            Params::load(path).map_err(|e| crate::UsageError(format!("--params: {e}")))?
        }
        None => Params::default(),
    };
    let seed = match args.seed {
        Some(seed) => seed,
        // A resumed run keeps the seed it was given or drew.
        None if args.resume => {
            datagen::progress::Progress::load(&datagen::progress::progress_path(&args.out))?
                .run
                .seed
        }
        None => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    };

    let book_path = match (&args.book, args.no_book) {
        (Some(path), _) => Some(path.clone()),
        (None, true) => None,
        (None, false) => crate::book::default_book_path(),
    };
    let book = match &book_path {
        Some(path) => {
            let mut spec = BookSpec::for_file(path)?;
            spec.order = BookOrder::Random;
            spec.plies = args.book_plies;
            Some(Book::load(&spec, seed)?)
        }
        None => None,
    };
    match (&book_path, &book) {
        (Some(path), Some(book)) => eprintln!(
            "book: {} ({} openings), random plies: {}, seed: {seed}",
            path.display(),
            book.len(),
            args.random_plies
        ),
        _ => eprintln!(
            "book: none (start position), random plies: {}, seed: {seed}",
            args.random_plies
        ),
    }

    let options = DatagenOptions {
        book_name: book_path.as_ref().map(|path| path.display().to_string()),
        resume: args.resume,
        out: args.out.clone(),
        positions: args.positions,
        format: args.format,
        selfplay: SelfPlayConfig {
            params,
            nodes: args.nodes,
            hash_mb: args.hash,
            random_plies: args.random_plies,
            max_opening_score: (args.max_opening_score > 0).then_some(args.max_opening_score),
            seed,
            concurrency,
            rules: datagen::default_rules(),
        },
    };

    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = Arc::clone(&stop);
        // Fails only if a handler is already installed (e.g. called twice in one process).
        let _ = ctrlc::set_handler(move || stop.store(true, Ordering::Relaxed));
    }
    if args.resume {
        eprintln!(
            "resuming the run recorded in {}",
            datagen::progress::progress_path(&args.out).display()
        );
    }
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(args.positions)
    };
    bar.set_style(
        ProgressStyle::with_template(
            "[{elapsed_precise}] {wide_bar} {human_pos}/{human_len} positions \
             ({per_sec}, ETA {eta}) {msg}",
        )
        .map_err(anyhow::Error::msg)?,
    );
    let report = datagen::generate(&options, book.as_ref(), &stop, |r| {
        bar.set_position(r.positions);
        bar.set_message(format!("{} games", r.games));
    })?;
    bar.finish_and_clear();

    print_report(&report, &args.out);
    if report.positions < args.positions {
        eprintln!(
            "interrupted: {} of {} positions written; the same command with --resume carries \
             the run on",
            report.positions, args.positions
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

fn print_report(report: &DatagenReport, out: &Path) {
    let seconds = report.elapsed.as_secs_f64();
    let new_positions = report.positions - report.resumed_positions;
    println!(
        "Wrote {} positions from {} games to {} in {:.1} s ({:.0} positions/s){}",
        report.positions,
        report.games,
        out.display(),
        seconds,
        new_positions as f64 / seconds.max(1e-9),
        if report.resumed_positions > 0 {
            format!(
                "; {} of them before this resumed run, {new_positions} in it",
                report.resumed_positions
            )
        } else {
            String::new()
        }
    );
    println!(
        "Games: {} White wins, {} draws, {} Black wins",
        report.white_wins, report.draws, report.black_wins
    );
    println!("{}", report.filtered.describe(report.duplicates));
}
