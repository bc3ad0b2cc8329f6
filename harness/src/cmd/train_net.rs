//! `harness train-net`: train the engine's NNUE evaluation on labelled positions.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::key_value::check_range;
use crate::nnue::data::MAX_SCORE_LIMIT;
use crate::nnue::trainer::{
    DEFAULT_BATCH, DEFAULT_EPOCHS, DEFAULT_LEARNING_RATE, DEFAULT_MAX_SCORE, DEFAULT_VALIDATION,
    DEFAULT_WDL,
};
use crate::nnue::{self, TrainSpec};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The network: 768 piece-square inputs per side, 128 hidden units \
(squared clipped ReLU), one output; the file is the engine's quantised format. Each position's \
target is `wdl · result + (1 − wdl) · sigmoid(score / 400)` from the side to move's view, \
the loss the mean squared difference to `sigmoid(eval / 400)`. Adam on mini-batches; the \
learning rate falls along a half cosine to a tenth of --lr by the last batch. After every \
epoch the network is written to --out (through a temporary file, so a stopped run leaves the \
last epoch's network) and one line reports the losses, the learning rate and the speed. The \
same --seed and data give the same network, whatever the --threads.

Example:
  harness datagen --format score --positions 5000000 --out data/selfplay.txt
  harness train-net --data data/selfplay.txt --out nets/first.nnue --epochs 15"
)]
pub struct TrainNetArgs {
    /// `FEN; score; result` file (`harness datagen --format score`; may end in .xz).
    /// Repeat for several files.
    #[arg(long, value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,
    /// The network file (overwritten after every epoch).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Passes over the training positions.
    #[arg(long, default_value_t = DEFAULT_EPOCHS)]
    pub epochs: usize,
    /// Positions per mini-batch (one Adam step each).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BATCH)]
    pub batch: usize,
    /// Adam's learning rate at the start.
    #[arg(long, default_value_t = DEFAULT_LEARNING_RATE)]
    pub lr: f32,
    /// Weight of the game result in the target (0 = scores only, 1 = results only).
    #[arg(long, default_value_t = DEFAULT_WDL)]
    pub wdl: f32,
    /// Leave out positions whose score is beyond ±this many centipawns.
    #[arg(long, value_name = "CP", default_value_t = DEFAULT_MAX_SCORE)]
    pub max_score: i32,
    /// Multiply every score by this as it is read (before --max-score): brings another
    /// engine's centipawns (`harness relabel`) to the scale of ours.
    #[arg(long, value_name = "F", default_value_t = 1.0)]
    pub score_scale: f32,
    /// Add this many centipawns to every score from the side to move's view (after
    /// --score-scale, before --max-score): e.g. minus the "score − evaluation" mean that
    /// `check-net` shows, to take out the constant bonus for the side to move that another
    /// engine's scores of our self-play carry.
    #[arg(
        long,
        value_name = "CP",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub score_offset: f32,
    /// Keep a residual network's output within ±this many centipawns in the loss, as the
    /// engine's `nnue_residual_limit` keeps it in the search: the network is fitted to what
    /// the engine adds. Positions whose output lies beyond it teach nothing.
    #[arg(long, value_name = "CP")]
    pub limit: Option<i32>,
    /// Start from this network file (e.g. engine/nets/default.nnue) instead of random
    /// weights, to carry its training on with new data.
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
    /// Train a residual network: its output is added to the hand-written evaluation (at the
    /// default weights) instead of replacing it, so it learns only what that evaluation
    /// misses. The file says so; the engine's `nnue` switch adds it.
    #[arg(long)]
    pub residual: bool,
    /// Centipawns added to the output of the network written (after each epoch; training
    /// goes on without it): e.g. -76.5 takes out of a residual network the constant bonus
    /// for the side to move that Stockfish's scores of our self-play carry (`check-net`
    /// shows it as the network output's mean).
    #[arg(
        long,
        value_name = "CP",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub output_shift: f32,
    /// Share of the positions held out for validation (0 = none).
    #[arg(long, default_value_t = DEFAULT_VALIDATION)]
    pub validation: f64,
    /// Seed of the initial weights, the validation split and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// The options as a training run, their ranges checked.
pub fn spec(args: TrainNetArgs) -> anyhow::Result<TrainSpec> {
    check_range("--epochs", args.epochs, 1, 100_000)?;
    check_range("--batch", args.batch, 1, 1 << 20)?;
    check_finite("--lr", args.lr)?;
    check_range("--lr", args.lr, 1e-6, 1.0)?;
    check_finite("--wdl", args.wdl)?;
    check_range("--wdl", args.wdl, 0.0, 1.0)?;
    check_range("--max-score", args.max_score, 1, MAX_SCORE_LIMIT)?;
    check_finite("--score-scale", args.score_scale)?;
    check_range("--score-scale", args.score_scale, 0.01, 100.0)?;
    check_finite("--score-offset", args.score_offset)?;
    check_range("--score-offset", args.score_offset, -1000.0, 1000.0)?;
    if let Some(limit) = args.limit {
        check_range("--limit", limit, 1, 1000)?;
    }
    check_finite("--output-shift", args.output_shift)?;
    check_range("--output-shift", args.output_shift, -1000.0, 1000.0)?;
    check_finite("--validation", args.validation as f32)?;
    check_range("--validation", args.validation, 0.0, 0.5)?;
    if let Some(threads) = args.threads {
        check_range("--threads", threads, 1, 1024)?;
    }
    let mut spec = TrainSpec::new(args.data, args.out);
    spec.epochs = args.epochs;
    spec.batch_size = args.batch;
    spec.learning_rate = args.lr;
    spec.wdl = args.wdl;
    spec.max_score = args.max_score;
    spec.score_scale = args.score_scale;
    spec.score_offset = args.score_offset;
    spec.limit = args.limit;
    spec.init = args.init;
    spec.residual = args.residual;
    spec.output_shift = args.output_shift;
    spec.validation = args.validation;
    spec.seed = args.seed;
    if let Some(threads) = args.threads {
        spec.threads = threads;
    }
    Ok(spec)
}

fn check_finite(option: &str, value: f32) -> anyhow::Result<()> {
    if !value.is_finite() {
        crate::usage_bail!("{option} {value} is not a number");
    }
    Ok(())
}

pub fn run(args: TrainNetArgs) -> anyhow::Result<ExitCode> {
    let spec = spec(args)?;
    // Found now, not after loading.
    crate::output::check_writable(&spec.out)?;
    let report = nnue::train(&spec, |progress| println!("{progress}"))?;
    println!("{report}");
    Ok(ExitCode::SUCCESS)
}
