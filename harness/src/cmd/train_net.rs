//! `harness train-net`: train the engine's NNUE evaluation on labelled positions.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::key_value::{check_finite, check_range};
use crate::cli::net_targets::NetTargetArgs;
use crate::nnue::trainer::{
    DEFAULT_BATCH, DEFAULT_EPOCHS, DEFAULT_LEARNING_RATE, DEFAULT_VALIDATION,
};
use crate::nnue::{self, TrainSpec};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "The network: 768 piece-square inputs per side (with --king-buckets, one set of them for each of 4 regions of that side's king), 128 hidden units \
(squared clipped ReLU), one output from one of 8 output layers chosen by the number of pieces on the board; the file is the engine's quantised format (a network of one output layer, given to --init, gives it to every bucket). Each position's \
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
    #[command(flatten)]
    pub targets: NetTargetArgs,
    /// Start from this network file (e.g. engine/nets/default.nnue) instead of random
    /// weights, to carry its training on with new data. A network of fewer hidden units is
    /// widened: the units it lacks start from random input weights and no output, so the
    /// start evaluates as that network does.
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
    /// Train a residual network: its output is added to the hand-written evaluation (at the
    /// default weights) instead of replacing it, so it learns only what that evaluation
    /// misses. The file says so; the engine's `nnue` switch adds it.
    #[arg(long)]
    pub residual: bool,
    /// Give the network king buckets: each side reads one of 4 sets of inputs by where its
    /// king stands (castled long, centre, castled short on the first two ranks; beyond them).
    /// From --init, every set starts as a copy of the network's one, so training starts from
    /// its evaluation; a network with king buckets keeps them without this flag.
    #[arg(long)]
    pub king_buckets: bool,
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
    /// Share of the positions held out for validation (0 = none), in runs of 512 consecutive
    /// ones (shorter in a set of under 51,200): a datagen file holds each game's positions
    /// together, so most held-out positions come from games the training never sees.
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
    let targets = args.targets.checked()?;
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
    spec.wdl = targets.wdl;
    spec.rule = targets.rule;
    spec.limit = targets.limit;
    spec.init = args.init;
    spec.residual = args.residual;
    spec.king_buckets = args.king_buckets;
    spec.output_shift = args.output_shift;
    spec.validation = args.validation;
    spec.seed = args.seed;
    if let Some(threads) = args.threads {
        spec.threads = threads;
    }
    Ok(spec)
}

pub fn run(args: TrainNetArgs) -> anyhow::Result<ExitCode> {
    let spec = spec(args)?;
    // Found now, not after loading.
    crate::output::check_writable(&spec.out)?;
    let report = nnue::train(&spec, |progress| println!("{progress}"))?;
    println!("{report}");
    Ok(ExitCode::SUCCESS)
}
