//! `harness tune`: Texel-tune evaluation weights on labelled positions.

use std::path::PathBuf;
use std::process::ExitCode;

use engine::params::{Params, specs};

use crate::UsageError;
use crate::tune::dataset::Format;
use crate::tune::optim::{OptimOptions, Optimizer};
use crate::tune::session::{
    self, DEFAULT_L2, DEFAULT_PATIENCE, DEFAULT_SMOOTHNESS, KFitOn, Log, ScoreScale, TuneConfig,
    TuneSummary,
};
use crate::tune::traces::Split;

#[derive(Debug, clap::Args)]
pub struct TuneArgs {
    /// Data set (`FEN [1.0]` book, `FEN; result` CSV or EPD with `c9`; may end in .xz).
    /// Repeat for several files.
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Format of the data files.
    #[arg(long, value_enum, default_value = "auto")]
    pub format: Format,
    /// Skip and count malformed lines instead of stopping at the first.
    #[arg(long)]
    pub skip_bad: bool,
    /// Starting weights: `default`, `material` (100/300/300/500/900, other terms 0) or a
    /// parameter TOML file.
    #[arg(long, default_value = "default")]
    pub init: String,
    /// Parameters to tune: comma-separated regular expressions matched against whole names
    /// (e.g. 'pst.*,material.*'). Default: every evaluation parameter.
    #[arg(long, value_delimiter = ',')]
    pub tune: Vec<String>,
    #[arg(long, value_enum, default_value = "lbfgs")]
    pub optimizer: Optimizer,
    /// Iterations (default: 500 for L-BFGS, 3000 for Adam).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub learning_rate: f64,
    /// L2 regularisation toward the starting weights: the loss is
    /// `(Σ err² + λ · Σ (w − w_start)²) / positions` (weights in centipawns); 0 = none.
    #[arg(long, default_value_t = DEFAULT_L2)]
    pub l2: f64,
    /// Smoothness prior on the piece-square tables: adds `λ · Σ (w_a − w_b)² / positions`
    /// over squares next to each other (same table and phase); 0 = none.
    #[arg(long, default_value_t = DEFAULT_SMOOTHNESS)]
    pub smooth: f64,
    /// Positions K is fitted on (with the starting weights, then fixed).
    #[arg(long, value_enum, default_value = "all")]
    pub k_fit: KFitOn,
    /// Early stopping: stop after N iterations without a better validation MSE and keep the
    /// parameters with the best one; 0 = run to the iteration limit and keep the last.
    #[arg(long, default_value_t = DEFAULT_PATIENCE)]
    pub patience: u64,
    /// Share of positions held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Weight of the search score in the training target, `(1 - w) · result + w ·
    /// sigmoid(K · score / 400)`, for `<FEN>; <score>; <result>` data (`harness datagen
    /// --format score`); validation is always against game results.
    #[arg(long, default_value_t = 0.0)]
    pub score_weight: f64,
    /// K of the scores in that target: `eval`, the evaluation's (scores from our own engine),
    /// or `fit`, fitted on the scored positions' results (another engine's scores, as
    /// `harness relabel` writes).
    #[arg(long, value_enum, default_value = "eval")]
    pub score_k: ScoreScale,
    /// Validation positions: `random` (seeded), or `tail`, the last positions in file order,
    /// which for `harness datagen` output are whole games.
    #[arg(long, value_enum, default_value = "random")]
    pub split: Split,
    /// Seed of the train/validation shuffle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Replace each position by the leaf of its quiescence search; drop positions in check.
    #[arg(long)]
    pub resolve: bool,
    /// Write the parameters to `<out>.checkpoint.toml` every N iterations (0 = never).
    #[arg(long, default_value_t = 50)]
    pub checkpoint_every: u64,
    /// Print progress every N iterations (default: about 20 lines per run).
    #[arg(long)]
    pub report_every: Option<u64>,
    /// Result: a full parameter TOML the engine and the match runner read.
    #[arg(long)]
    pub out: PathBuf,
    /// Print one JSON object at the end (progress then goes to stderr).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: TuneArgs) -> anyhow::Result<ExitCode> {
    let init = match args.init.as_str() {
        "default" => Params::default(),
        "material" => Params::material_only(),
        path => Params::load(std::path::Path::new(path))
            .map_err(|e| UsageError(format!("--init: {e}")))?,
    };
    let optimizer = args.optimizer;
    let iterations = args
        .iterations
        .unwrap_or_else(|| optimizer.default_iterations());
    if !(args.learning_rate > 0.0 && args.learning_rate.is_finite()) {
        return Err(UsageError(format!(
            "--learning-rate {} must be positive",
            args.learning_rate
        ))
        .into());
    }
    if !(args.smooth >= 0.0 && args.smooth.is_finite()) {
        return Err(
            UsageError(format!("--smooth {} must be zero or positive", args.smooth)).into(),
        );
    }
    if !(args.l2 >= 0.0 && args.l2.is_finite()) {
        return Err(UsageError(format!("--l2 {} must be zero or positive", args.l2)).into());
    }
    let checkpoint_path = args.out.with_extension("checkpoint.toml");
    // Found now, not after the tuning.
    crate::output::check_writable(&args.out)?;
    crate::output::check_writable(&checkpoint_path)?;
    let log = if args.json { Log::Stderr } else { Log::Stdout };
    let config = TuneConfig {
        data: args.data,
        format: args.format,
        skip_bad: args.skip_bad,
        init,
        patterns: args.tune,
        optim: OptimOptions {
            optimizer,
            iterations,
            learning_rate: args.learning_rate,
            ..OptimOptions::default()
        },
        l2: args.l2,
        smoothness: args.smooth,
        k_fit_on: args.k_fit,
        patience: args.patience,
        validation: args.validation,
        split: args.split,
        score_weight: args.score_weight,
        score_scale: args.score_k,
        seed: args.seed,
        resolve: args.resolve,
        checkpoint_every: args.checkpoint_every,
        checkpoint_path: Some(checkpoint_path),
        report_every: args
            .report_every
            .unwrap_or_else(|| (iterations / 20).max(1)),
        log,
    };
    let summary = session::run(&config)?;
    crate::output::write_atomically(&args.out, &summary.params.to_toml_string())?;
    print_summary(&summary, log, &args.out);
    if args.json {
        let json = serde_json::json!({
            "k": summary.k,
            "initial_mse": summary.initial_mse,
            "train_mse": summary.train_mse,
            "validation_mse": summary.validation_mse,
            "positions": summary.positions,
            "parameters": summary.parameters,
            "seconds": summary.seconds,
        });
        println!("{json}");
    }
    Ok(ExitCode::SUCCESS)
}

fn print_summary(summary: &TuneSummary, log: Log, out: &std::path::Path) {
    const SHOWN: usize = 20;
    log.line(format_args!(
        "stopped after {} iterations: {}",
        summary.iterations, summary.stop_reason
    ));
    if let Some(best) = summary.best_iteration {
        log.line(format_args!(
            "kept the parameters of iteration {best} (best validation MSE)"
        ));
    }
    log.line(format_args!(
        "K {:.4}  MSE train {:.6} -> {:.6}{}  ({} positions, {} parameters, {:.1} s)",
        summary.k,
        summary.initial_mse,
        summary.train_mse,
        match (summary.initial_validation_mse, summary.validation_mse) {
            (Some(a), Some(b)) => format!("  validation {a:.6} -> {b:.6}"),
            _ => String::new(),
        },
        summary.positions,
        summary.parameters,
        summary.seconds
    ));
    if summary.changes.is_empty() {
        log.line(format_args!("no parameter changed"));
    } else {
        log.line(format_args!(
            "largest changes ({} of {} changed):",
            summary.changes.len().min(SHOWN),
            summary.changes.len()
        ));
        log.line(format_args!(
            "  {:<28} {:>7} {:>7} {:>7}",
            "parameter", "before", "after", "change"
        ));
        for c in summary.changes.iter().take(SHOWN) {
            log.line(format_args!(
                "  {:<28} {:>7} {:>7} {:>+7}",
                specs()[c.id].name,
                c.before,
                c.after,
                i64::from(c.after) - i64::from(c.before)
            ));
        }
    }
    log.line(format_args!("wrote {}", out.display()));
}
