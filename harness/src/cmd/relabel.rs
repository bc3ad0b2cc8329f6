//! `harness relabel`: labelled positions given another engine's search scores.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use engine::search::Limits;
use indicatif::{ProgressBar, ProgressStyle};

use crate::cli::external_engine::take_external_key;
use crate::cli::key_value::{check_range, key_values};
use crate::datagen::relabel::{self, RelabelReport, RelabelSpec};
use crate::runner::external::ExternalSpec;
use crate::tune::dataset::Format;
use crate::uci::UciEngineConfig;
use crate::usage_bail;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each kept position is searched from a cleared table (ucinewgame) by \
the --engine at --depth or --nodes; its score, turned to White's view, is written with the \
line's game result as `FEN; score; result`, the format `harness tune --score-weight` reads. \
Positions the engine scores as mate are left out. The output is the same at any --concurrency; \
after a stop, --resume carries on where the run stopped (<out>.done holds the counts).

Example: harness relabel --data results/retune14/selfplay.csv --stride 4 \\
  --engine cmd=/usr/games/stockfish --depth 6 --out results/sf/relabelled.csv"
)]
pub struct RelabelArgs {
    /// Data set to relabel (any format `harness tune` reads; may end in .xz). Repeat for several.
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Format of the data files.
    #[arg(long, value_enum, default_value = "auto")]
    pub format: Format,
    /// Output file (`FEN; score; result`); overwritten unless --resume.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The scoring engine: cmd=PATH or git=REV, [args="A B"] [dir=DIR] [name=N] option.NAME=VALUE ...
    #[arg(long, num_args = 1.., required = true, value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// Search depth per position.
    #[arg(long, conflicts_with = "nodes", required_unless_present = "nodes")]
    pub depth: Option<u32>,
    /// Nodes per position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Keep every N-th position of the inputs.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub stride: usize,
    /// Stop once this many positions are written.
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Engine processes at once (default: the number of cores).
    #[arg(long, value_name = "C")]
    pub concurrency: Option<usize>,
    /// Hash per engine, MiB (sent unless the engine's options set Hash): small, as every
    /// position starts from a cleared table.
    #[arg(long, value_name = "MiB", default_value_t = 1)]
    pub hash: usize,
    /// Longest wait for one search, seconds.
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    pub timeout: f64,
    /// Append to --out, skipping the positions a stopped run settled.
    #[arg(long)]
    pub resume: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: RelabelArgs) -> anyhow::Result<ExitCode> {
    let engine = engine_config(&args.engine, args.hash)?;
    let limits = Limits {
        depth: args
            .depth
            .map(|d| check_range("--depth", d, 1, 255))
            .transpose()?,
        nodes: args
            .nodes
            .map(|n| check_range("--nodes", n, 1, u64::MAX / 2))
            .transpose()?,
        ..Limits::default()
    };
    if args.stride == 0 {
        usage_bail!("--stride must be at least 1");
    }
    if args.limit == Some(0) {
        usage_bail!("--limit must be at least 1");
    }
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        usage_bail!(
            "--timeout {} must be a positive number of seconds",
            args.timeout
        );
    }
    let concurrency = match args.concurrency {
        Some(0) => usage_bail!("--concurrency must be at least 1"),
        Some(c) => c,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let spec = RelabelSpec {
        inputs: args.data.clone(),
        format: args.format,
        out: args.out.clone(),
        engine,
        limits,
        timeout: Duration::from_secs_f64(args.timeout),
        stride: args.stride,
        limit: args.limit,
        concurrency,
        resume: args.resume,
    };

    let bar = match (args.quiet, args.limit) {
        (true, _) => ProgressBar::hidden(),
        (false, Some(limit)) => ProgressBar::new(limit),
        (false, None) => ProgressBar::no_length(),
    };
    bar.set_style(
        ProgressStyle::with_template(
            "[{elapsed_precise}] {wide_bar} {human_pos}/{human_len} positions ({per_sec}) {msg}",
        )
        .map_err(anyhow::Error::msg)?,
    );
    let stop = crate::interrupt::stop_flag();
    let report = relabel::relabel(&spec, stop, |r| {
        bar.set_position(r.held + r.written);
        bar.set_message(format!("{} mates left out", r.mates));
    })?;
    bar.finish_and_clear();
    print_report(&report, &args);
    Ok(if report.interrupted {
        ExitCode::from(130)
    } else {
        ExitCode::SUCCESS
    })
}

/// The scoring engine from `--engine` keys: the match's external-engine keys (`git=` builds
/// our engine at a revision) and `name=`.
fn engine_config(tokens: &[String], hash_mb: usize) -> anyhow::Result<UciEngineConfig> {
    let mut spec = ExternalSpec::default();
    let mut name = None;
    for (key, value) in key_values("--engine", tokens)? {
        if key == "name" {
            name = Some(value);
        } else if !take_external_key("--engine", &mut spec, &key, &value)? {
            usage_bail!(
                "--engine: unknown key '{key}={value}'; expected cmd=, git=, args=, dir=, name= or option.NAME="
            );
        }
    }
    if !spec.is_external() {
        usage_bail!("--engine needs cmd=PATH or git=REV (the scoring engine)");
    }
    let name = name
        .or_else(|| spec.git.clone())
        .or_else(|| {
            spec.cmd
                .as_ref()
                .and_then(|c| c.file_name())
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "engine".to_string());
    Ok(spec.resolve(&name)?.uci_config(&name, hash_mb))
}

fn print_report(report: &RelabelReport, args: &RelabelArgs) {
    println!(
        "Wrote {} positions to {} in {:.1} s ({:.0} positions/s){}",
        report.written,
        args.out.display(),
        report.elapsed.as_secs_f64(),
        report.written as f64 / report.elapsed.as_secs_f64().max(1e-9),
        if report.resumed > 0 {
            format!(
                ", after the {} lines of the run resumed ({} input positions settled)",
                report.held, report.resumed
            )
        } else {
            String::new()
        }
    );
    println!(
        "Left out: {} scored as mate, {} without a score",
        report.mates, report.unscored
    );
    if report.interrupted {
        eprintln!(
            "interrupted: run again with --resume to carry on ({} holds the count)",
            relabel::done_path(&args.out).display()
        );
    }
}
