//! The training run: load, split, epochs of shuffled mini-batches with Adam, a network file
//! after every epoch, and a last check that the quantised network loses nothing.
//!
//! A batch is cut into chunks whose size depends on the batch size alone; each chunk's
//! gradient goes to its own buffer (in parallel), and the buffers are summed in chunk order.
//! The sums, and so the network, are the same for any number of threads.

use std::fmt;
use std::path::PathBuf;
use std::time::Instant;

use engine::eval::Evaluator;
use engine::eval::nnue::{Accumulator, FloatNetwork, Network, OutputBucket};
use engine::params::Params;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::data::{self, LoadReport, PackedPosition, ScoreRule};
use super::model::{self, Adam, Objective, SIGMOID_CP};
use super::split;

pub const DEFAULT_EPOCHS: usize = 10;
pub const DEFAULT_BATCH: usize = 1024;
pub const DEFAULT_LEARNING_RATE: f32 = 0.001;
pub const DEFAULT_WDL: f32 = 0.3;
pub const DEFAULT_MAX_SCORE: i32 = 3000;
pub const DEFAULT_VALIDATION: f64 = 0.02;
/// The learning rate falls along a half cosine from its start to this share of it.
pub const FINAL_LR_SHARE: f32 = 0.1;

/// Smallest chunk of a batch given to one task.
const MIN_CHUNK: usize = 512;
/// Most chunks (gradient buffers) a batch is cut into.
const MAX_CHUNKS: usize = 32;
/// Positions a task evaluates when only losses are wanted.
const EVAL_CHUNK: usize = 4096;

/// A training run.
#[derive(Clone, Debug)]
pub struct TrainSpec {
    /// `FEN; score; result` files (plain or `.xz`), read in order.
    pub data: Vec<PathBuf>,
    /// The network file, rewritten after every epoch.
    pub out: PathBuf,
    pub epochs: usize,
    pub batch_size: usize,
    /// Adam's step size at the start.
    pub learning_rate: f32,
    /// Weight λ of the game result in the target (1 − λ on the score).
    pub wdl: f32,
    /// How each score is read: scaled to our centipawns, offset from the side to move's
    /// view, and left out beyond a cutoff.
    pub rule: ScoreRule,
    /// A residual network's output kept within ±this many centipawns in the loss, as the
    /// search's `nnue_residual_limit` keeps it; `None` = unlimited.
    pub limit: Option<i32>,
    /// A network file to start from (its weights dequantised) instead of random weights:
    /// training carried on with new data.
    pub init: Option<PathBuf>,
    /// Centipawns added to the output of every network written (not to the one trained):
    /// e.g. to take out of a residual network the constant bonus for the side to move that
    /// its targets carry (the side to move of a self-play position is often better by
    /// another engine's lights, as the other side's last move was weaker than it knew),
    /// which the search's margins take for a tempo.
    pub output_shift: f32,
    /// A residual network: its output is added to the hand-written evaluation (at the
    /// default weights), so it learns what that evaluation misses.
    pub residual: bool,
    /// Give the network king buckets (a network started from that has them keeps them).
    pub king_buckets: bool,
    /// Share of the positions held out for validation, in runs ([`super::split::by_runs`]).
    pub validation: f64,
    pub seed: u64,
    pub threads: usize,
}

impl TrainSpec {
    /// What the network is fitted to.
    pub fn objective(&self) -> Objective {
        Objective {
            wdl: self.wdl,
            limit_cp: self.limit.map_or(f32::INFINITY, |l| l as f32),
        }
    }

    /// The defaults, on all cores.
    pub fn new(data: Vec<PathBuf>, out: PathBuf) -> TrainSpec {
        TrainSpec {
            data,
            out,
            epochs: DEFAULT_EPOCHS,
            batch_size: DEFAULT_BATCH,
            learning_rate: DEFAULT_LEARNING_RATE,
            wdl: DEFAULT_WDL,
            rule: ScoreRule::cutoff(DEFAULT_MAX_SCORE),
            limit: None,
            init: None,
            output_shift: 0.0,
            residual: false,
            king_buckets: false,
            validation: DEFAULT_VALIDATION,
            seed: 1,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// One epoch's figures.
#[derive(Clone, Debug)]
pub struct EpochStats {
    /// From 1.
    pub epoch: usize,
    pub epochs: usize,
    /// Mean loss over the epoch's batches (each taken before its step).
    pub train_loss: f64,
    /// After the epoch; `None` without validation positions.
    pub validation_loss: Option<f64>,
    /// The learning rate of the epoch's last step.
    pub learning_rate: f32,
    /// Training positions a second.
    pub positions_per_second: f64,
    pub seconds: f64,
}

/// The float network against the quantised one, as the engine evaluates it.
#[derive(Clone, Debug)]
pub struct QuantisationCheck {
    /// Positions compared (the validation set, else the training set).
    pub positions: usize,
    pub on_validation: bool,
    pub float_loss: f64,
    pub quantised_loss: f64,
    /// Mean and largest |float − quantised| evaluation, centipawns.
    pub mean_cp_difference: f64,
    pub max_cp_difference: f64,
}

/// What a run did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub load: LoadReport,
    pub train_positions: usize,
    pub validation_positions: usize,
    /// The loss of the initial network on the validation set.
    pub initial_validation_loss: Option<f64>,
    pub epochs: Vec<EpochStats>,
    pub quantisation: QuantisationCheck,
    /// The trained float network (its quantised form is in the file).
    pub network: FloatNetwork,
    pub out: PathBuf,
}

/// Progress, as it happens.
#[derive(Clone, Debug)]
pub enum Progress<'a> {
    Loaded {
        load: &'a LoadReport,
        max_score: i32,
        train: usize,
        validation: usize,
        threads: usize,
    },
    /// The initial network: its validation loss (none without validation positions).
    Start {
        validation_loss: Option<f64>,
        /// Hidden units that `--init`'s network did not have (a narrower file), now given
        /// weights ([`model::widen`]).
        added_units: usize,
    },
    Epoch(&'a EpochStats),
}

impl fmt::Display for Progress<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Progress::Loaded {
                load,
                max_score,
                train,
                validation,
                threads,
            } => {
                if load.files.len() > 1 {
                    for (path, kept) in &load.files {
                        writeln!(f, "{}: {kept} positions", path.display())?;
                    }
                }
                write!(
                    f,
                    "{} positions ({} with |score| > {max_score} left out): {train} to train \
                     on, {validation} to validate; {threads} thread{}",
                    load.kept,
                    load.over_max_score,
                    if *threads == 1 { "" } else { "s" }
                )
            }
            Progress::Start {
                validation_loss,
                added_units,
            } => {
                write!(f, "epoch   0  initial network")?;
                if *added_units > 0 {
                    write!(f, " ({added_units} hidden units added, with no output yet)")?;
                }
                match validation_loss {
                    Some(loss) => write!(f, ", validation loss {loss:.6}"),
                    None => Ok(()),
                }
            }
            Progress::Epoch(e) => {
                let width = e.epochs.to_string().len();
                write!(
                    f,
                    "epoch {:>3}/{:<width$}  train loss {:.6}  validation loss {}  lr {:.3e}  \
                     {:.0} positions/s  ({:.1} s)",
                    e.epoch,
                    e.epochs,
                    e.train_loss,
                    e.validation_loss
                        .map_or_else(|| "-".to_string(), |l| format!("{l:.6}")),
                    e.learning_rate,
                    e.positions_per_second,
                    e.seconds
                )
            }
        }
    }
}

impl fmt::Display for TrainReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let q = &self.quantisation;
        writeln!(
            f,
            "quantised network as the engine evaluates it, on {} {} positions: loss {:.6} \
             (float {:.6}); evaluations differ by {:.2} cp on average, {:.0} cp at most",
            q.positions,
            if q.on_validation {
                "validation"
            } else {
                "training"
            },
            q.quantised_loss,
            q.float_loss,
            q.mean_cp_difference,
            q.max_cp_difference
        )?;
        write!(f, "wrote {}", self.out.display())
    }
}

/// The learning rate at `step` of `total` (from 0): a half cosine from `base` down to
/// `FINAL_LR_SHARE · base` at the last step.
pub fn learning_rate(base: f32, step: usize, total: usize) -> f32 {
    let progress = if total <= 1 {
        0.0
    } else {
        step as f64 / (total - 1) as f64
    };
    let cosine = 0.5 * (1.0 + (std::f64::consts::PI * progress).cos());
    base * (FINAL_LR_SHARE + (1.0 - FINAL_LR_SHARE) * cosine as f32)
}

/// Trains a network as `spec` says, writing it to `spec.out` after every epoch, and tells
/// `progress` how it goes.
pub fn train(
    spec: &TrainSpec,
    mut progress: impl FnMut(Progress<'_>) + Send,
) -> anyhow::Result<TrainReport> {
    anyhow::ensure!(spec.epochs >= 1, "at least one epoch");
    anyhow::ensure!(spec.batch_size >= 1, "a batch of at least one position");
    anyhow::ensure!(
        (0.0..1.0).contains(&spec.validation),
        "the validation share is in [0, 1)"
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(spec.threads.max(1))
        .build()?;
    if spec.limit.is_some() && !spec.residual {
        crate::usage_bail!("--limit applies to a residual network: add --residual");
    }
    if spec.limit.is_some() && spec.output_shift != 0.0 {
        crate::usage_bail!(
            "--limit with --output-shift: the limit is fitted to the network as trained, \
             which the shift would then move; take a constant out of the targets with \
             --score-offset instead"
        );
    }
    pool.install(|| run(spec, &mut progress))
}

fn run(spec: &TrainSpec, progress: &mut dyn FnMut(Progress<'_>)) -> anyhow::Result<TrainReport> {
    // Read before the data, so that a bad file stops the run at once.
    let start = spec.init.as_deref().map(read_network).transpose()?;
    if let (Some(init), Some((start, _))) = (&spec.init, &start)
        && start.residual != spec.residual
    {
        crate::usage_bail!(
            "--init {} is {} network; {}",
            init.display(),
            if start.residual {
                "a residual"
            } else {
                "a full (not residual)"
            },
            if start.residual {
                "add --residual to carry it on"
            } else {
                "leave out --residual to carry it on"
            }
        );
    }
    let base = spec.residual.then(|| Evaluator::new(&Params::default()));
    let (positions, load) = data::load(&spec.data, spec.rule, base.as_ref())?;
    if positions.is_empty() {
        crate::usage_bail!("no positions to train on in the --data files");
    }
    anyhow::ensure!(
        u32::try_from(positions.len()).is_ok(),
        "at most {} positions",
        u32::MAX
    );
    let objective = spec.objective();
    let mut rng = ChaCha8Rng::seed_from_u64(spec.seed);
    // Drawn even when a network is given, so that the split and shuffles do not depend on it.
    let random = model::init(&mut rng);
    let mut added_units = 0;
    let mut net = match start {
        Some((mut start, width)) => {
            added_units = model::widen(&mut start, width, &random);
            start
        }
        None if spec.residual => model::residual_start(random),
        None => random,
    };
    if spec.king_buckets {
        net = net.with_king_buckets();
    }

    let validation_count = if spec.validation > 0.0 && positions.len() >= 2 {
        ((positions.len() as f64 * spec.validation).round() as usize).clamp(1, positions.len() - 1)
    } else {
        0
    };
    // In runs of consecutive positions (a game's positions lie together), in file order: for
    // locality in the evaluation passes.
    let (mut train_order, validation_order) =
        split::by_runs(positions.len(), validation_count, &mut rng);
    let validation: Vec<PackedPosition> = validation_order
        .iter()
        .map(|&i| positions[i as usize])
        .collect();
    progress(Progress::Loaded {
        load: &load,
        max_score: spec.rule.max_score,
        train: train_order.len(),
        validation: validation.len(),
        threads: rayon::current_num_threads(),
    });

    let initial_validation_loss =
        (!validation.is_empty()).then(|| mean_loss(&net, &validation, &objective));
    // Said even without validation positions when units were added, so that a widening
    // never passes unseen.
    if initial_validation_loss.is_some() || added_units > 0 {
        progress(Progress::Start {
            validation_loss: initial_validation_loss,
            added_units,
        });
    }

    let steps_per_epoch = train_order.len().div_ceil(spec.batch_size);
    let total_steps = steps_per_epoch * spec.epochs;
    let chunk = chunk_size(spec.batch_size);
    let mut buffers = Gradients::new(spec.batch_size.div_ceil(chunk), &net);
    let mut adam = Adam::for_network(&net);
    let mut step = 0usize;
    let mut epochs = Vec::with_capacity(spec.epochs);
    for epoch in 1..=spec.epochs {
        let started = Instant::now();
        train_order.shuffle(&mut rng);
        let mut loss_sum = 0.0f64;
        let mut lr = spec.learning_rate;
        for batch in train_order.chunks(spec.batch_size) {
            lr = learning_rate(spec.learning_rate, step, total_steps);
            loss_sum += buffers.compute(&net, &positions, batch, chunk, &objective);
            adam.step(&mut net, &buffers.total, 1.0 / batch.len() as f32, lr);
            step += 1;
        }
        let seconds = started.elapsed().as_secs_f64();
        let stats = EpochStats {
            epoch,
            epochs: spec.epochs,
            train_loss: loss_sum / train_order.len() as f64,
            validation_loss: (!validation.is_empty())
                .then(|| mean_loss(&net, &validation, &objective)),
            learning_rate: lr,
            positions_per_second: train_order.len() as f64 / seconds.max(1e-9),
            seconds,
        };
        crate::output::write_bytes_atomically(
            &spec.out,
            &shifted(&net, spec.output_shift).quantise().to_bytes(),
        )?;
        progress(Progress::Epoch(&stats));
        epochs.push(stats);
    }

    let net = shifted(&net, spec.output_shift);
    let quantised = net.quantise();
    let quantisation = if validation.is_empty() {
        let train: Vec<PackedPosition> = train_order
            .iter()
            .take(1 << 20)
            .map(|&i| positions[i as usize])
            .collect();
        check_quantisation(&net, &quantised, &train, &objective, false)
    } else {
        check_quantisation(&net, &quantised, &validation, &objective, true)
    };
    Ok(TrainReport {
        load,
        train_positions: train_order.len(),
        validation_positions: validation.len(),
        initial_validation_loss,
        epochs,
        quantisation,
        network: net,
        out: spec.out.clone(),
    })
}

/// `net` with `shift` centipawns added to its output.
fn shifted(net: &FloatNetwork, shift: f32) -> FloatNetwork {
    let mut out = net.clone();
    for bias in &mut out.output_bias {
        *bias += shift / engine::eval::nnue::SCALE as f32;
    }
    out
}

/// The network in the engine's file at `path`, in floats, and the hidden units the file held.
fn read_network(path: &std::path::Path) -> anyhow::Result<(FloatNetwork, usize)> {
    let bad = |e: &dyn fmt::Display| crate::UsageError(format!("--init {}: {e}", path.display()));
    let bytes = std::fs::read(path).map_err(|e| bad(&e))?;
    let network = Network::from_bytes(&bytes).map_err(|e| bad(&e))?;
    let width = engine::eval::nnue::file_hidden_units(&bytes).map_err(|e| bad(&e))?;
    Ok((network.dequantise(), width))
}

/// Chunk size of a batch: at least [`MIN_CHUNK`], at most [`MAX_CHUNKS`] chunks.
fn chunk_size(batch_size: usize) -> usize {
    batch_size.div_ceil(MAX_CHUNKS).max(MIN_CHUNK)
}

/// A gradient buffer per chunk of a batch, and their sum.
struct Gradients {
    chunks: Vec<FloatNetwork>,
    total: FloatNetwork,
}

impl Gradients {
    /// Buffers for `chunks` chunks of a network of `net`'s shape.
    fn new(chunks: usize, net: &FloatNetwork) -> Gradients {
        Gradients {
            chunks: (0..chunks).map(|_| net.zeros_like()).collect(),
            total: net.zeros_like(),
        }
    }

    /// The summed (not averaged) loss gradient of the positions `batch` indexes, into
    /// `self.total`; returns the summed loss.
    fn compute(
        &mut self,
        net: &FloatNetwork,
        positions: &[PackedPosition],
        batch: &[u32],
        chunk: usize,
        objective: &Objective,
    ) -> f64 {
        let used = batch.len().div_ceil(chunk);
        let buffers = &mut self.chunks[..used];
        let losses: Vec<f64> = buffers
            .par_iter_mut()
            .zip(batch.par_chunks(chunk))
            .map(|(grad, indices)| {
                for group in model::groups(grad) {
                    group.fill(0.0);
                }
                let mut loss = 0.0f64;
                for &i in indices {
                    loss += f64::from(model::accumulate(
                        net,
                        &positions[i as usize],
                        objective,
                        grad,
                    ));
                }
                loss
            })
            .collect();
        let buffers = &self.chunks[..used];
        for (g, total) in model::groups(&mut self.total).into_iter().enumerate() {
            const BLOCK: usize = 8192;
            total
                .par_chunks_mut(BLOCK)
                .enumerate()
                .for_each(|(b, out)| {
                    let range = b * BLOCK..b * BLOCK + out.len();
                    out.copy_from_slice(&model::groups_ref(&buffers[0])[g][range.clone()]);
                    for buffer in &buffers[1..] {
                        for (o, x) in out
                            .iter_mut()
                            .zip(&model::groups_ref(buffer)[g][range.clone()])
                        {
                            *o += x;
                        }
                    }
                });
        }
        losses.iter().sum()
    }
}

/// The mean loss of `net` over `positions`, the same for any number of threads.
pub fn mean_loss(net: &FloatNetwork, positions: &[PackedPosition], objective: &Objective) -> f64 {
    let sums: Vec<f64> = positions
        .par_chunks(EVAL_CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|p| f64::from(model::loss(net, p, objective)))
                .sum::<f64>()
        })
        .collect();
    sums.iter().sum::<f64>() / positions.len().max(1) as f64
}

fn check_quantisation(
    float: &FloatNetwork,
    quantised: &Network,
    positions: &[PackedPosition],
    objective: &Objective,
    on_validation: bool,
) -> QuantisationCheck {
    // (float loss, quantised loss, Σ |difference|, max |difference|)
    let sums: Vec<(f64, f64, f64, f64)> = positions
        .par_chunks(EVAL_CHUNK)
        .map(|chunk| {
            let mut sum = (0.0, 0.0, 0.0, 0.0f64);
            for p in chunk {
                let t = model::target(p, objective.wdl);
                // Both kept within the limit, the float one as the loss keeps it and the
                // engine's as the search does (an integer).
                let limit = objective.limit_cp;
                let float_cp = model::eval_cp(float, p).clamp(-limit, limit);
                let board = p.board();
                let engine_raw = Accumulator::new(quantised, &board).evaluate(
                    quantised,
                    p.turn(),
                    OutputBucket::of(&board),
                );
                let engine_cp = if limit.is_finite() {
                    engine_raw.clamp(-(limit as i32), limit as i32) as f32
                } else {
                    engine_raw as f32
                };
                let loss = |cp: f32| {
                    f64::from((model::sigmoid((cp + p.base_stm()) / SIGMOID_CP) - t).powi(2))
                };
                let difference = f64::from((float_cp - engine_cp).abs());
                sum.0 += loss(float_cp);
                sum.1 += loss(engine_cp);
                sum.2 += difference;
                sum.3 = sum.3.max(difference);
            }
            sum
        })
        .collect();
    let n = positions.len().max(1) as f64;
    let total = sums.iter().fold((0.0, 0.0, 0.0, 0.0f64), |a, s| {
        (a.0 + s.0, a.1 + s.1, a.2 + s.2, a.3.max(s.3))
    });
    QuantisationCheck {
        positions: positions.len(),
        on_validation,
        float_loss: total.0 / n,
        quantised_loss: total.1 / n,
        mean_cp_difference: total.2 / n,
        max_cp_difference: total.3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_learning_rate_falls_from_its_start_to_a_tenth() {
        assert_eq!(learning_rate(0.001, 0, 100), 0.001);
        assert!((learning_rate(0.001, 99, 100) - 0.0001).abs() < 1e-9);
        assert_eq!(learning_rate(0.001, 0, 1), 0.001);
        let mid = learning_rate(0.001, 50, 101);
        assert!((mid - 0.00055).abs() < 1e-7, "{mid}");
    }

    #[test]
    fn chunks_depend_on_the_batch_size_alone() {
        assert_eq!(chunk_size(16_384), 512);
        assert_eq!(chunk_size(100), 512);
        assert_eq!(chunk_size(1 << 20), 32_768);
    }

    #[test]
    fn the_start_line_names_added_units_with_or_without_validation() {
        let line = |validation_loss, added_units| {
            Progress::Start {
                validation_loss,
                added_units,
            }
            .to_string()
        };
        assert_eq!(
            line(Some(0.0125), 0),
            "epoch   0  initial network, validation loss 0.012500"
        );
        assert_eq!(
            line(None, 64),
            "epoch   0  initial network (64 hidden units added, with no output yet)"
        );
    }
}
