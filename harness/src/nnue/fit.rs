//! How a network fits labelled positions, side by side with the hand-written evaluation: the
//! loss of each against the training target, and how far the targets and the network's
//! output stray from that evaluation. For a residual network the output is its correction,
//! kept within the search's `nnue_residual_limit` when one is given.

use std::fmt;
use std::path::PathBuf;

use engine::eval::Evaluator;
use engine::eval::nnue::{Accumulator, Network, OutputBucket};
use engine::params::Params;
use rayon::prelude::*;

use super::data::{self, LoadReport, PackedPosition, ScoreRule};
use super::model::{self, SIGMOID_CP};

/// Positions a task measures.
const CHUNK: usize = 4096;
/// A network output counts as large beyond this many centipawns.
pub const LARGE_CP: i32 = 150;

/// What to measure.
#[derive(Clone, Debug)]
pub struct FitSpec {
    pub net: PathBuf,
    pub data: Vec<PathBuf>,
    pub rule: ScoreRule,
    /// Weight of the game result in the target, as `train-net --wdl`.
    pub wdl: f32,
    /// A residual network's correction kept within ±this (centipawns); `None` = unlimited.
    pub limit: Option<i32>,
}

/// The figures, all from the side to move's view.
#[derive(Clone, Debug)]
pub struct FitReport {
    pub load: LoadReport,
    pub residual: bool,
    pub limit: Option<i32>,
    /// Mean loss of the hand-written evaluation (at the default weights).
    pub evaluation_loss: f64,
    /// Mean loss of the network (added to the evaluation if residual).
    pub network_loss: f64,
    /// Mean and mean absolute (score − hand-written evaluation), centipawns.
    pub target_offset: (f64, f64),
    /// Mean and mean absolute network output (after the limit), centipawns.
    pub output: (f64, f64),
    /// Share of positions whose network output (before the limit) exceeds ±[`LARGE_CP`].
    pub large_share: f64,
}

/// Sums over positions, merged across tasks.
#[derive(Clone, Copy, Default)]
struct Sums {
    evaluation_loss: f64,
    network_loss: f64,
    offset: f64,
    offset_abs: f64,
    output: f64,
    output_abs: f64,
    large: usize,
}

impl Sums {
    fn add(self, o: Sums) -> Sums {
        Sums {
            evaluation_loss: self.evaluation_loss + o.evaluation_loss,
            network_loss: self.network_loss + o.network_loss,
            offset: self.offset + o.offset,
            offset_abs: self.offset_abs + o.offset_abs,
            output: self.output + o.output,
            output_abs: self.output_abs + o.output_abs,
            large: self.large + o.large,
        }
    }
}

/// Reads the network and the positions and measures both evaluations on them.
pub fn measure(spec: &FitSpec) -> anyhow::Result<FitReport> {
    let bytes = std::fs::read(&spec.net)
        .map_err(|e| crate::UsageError(format!("--net {}: {e}", spec.net.display())))?;
    let net = Network::from_bytes(&bytes)
        .map_err(|e| crate::UsageError(format!("--net {}: {e}", spec.net.display())))?;
    if spec.limit.is_some() && !net.is_residual() {
        crate::usage_bail!(
            "--limit applies to a residual network; --net {} is a full one",
            spec.net.display()
        );
    }
    let evaluator = Evaluator::new(&Params::default());
    let (positions, load) = data::load(&spec.data, spec.rule, Some(&evaluator))?;
    if positions.is_empty() {
        crate::usage_bail!("no positions in the --data files");
    }
    let limit = spec.limit;
    let sums = positions
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|p| one(&net, limit, spec.wdl, p))
                .fold(Sums::default(), Sums::add)
        })
        .reduce(Sums::default, Sums::add);
    let n = positions.len() as f64;
    Ok(FitReport {
        load,
        residual: net.is_residual(),
        limit,
        evaluation_loss: sums.evaluation_loss / n,
        network_loss: sums.network_loss / n,
        target_offset: (sums.offset / n, sums.offset_abs / n),
        output: (sums.output / n, sums.output_abs / n),
        large_share: sums.large as f64 / n,
    })
}

fn one(net: &Network, limit: Option<i32>, wdl: f32, p: &PackedPosition) -> Sums {
    let target = model::target(p, wdl);
    let loss = |cp: f32| f64::from((model::sigmoid(cp / SIGMOID_CP) - target).powi(2));
    let base = p.base_stm();
    let board = p.board();
    let raw = Accumulator::new(net, &board).evaluate(net, p.turn(), OutputBucket::of(&board));
    let output = limit.map_or(raw, |l| raw.clamp(-l, l));
    let network = if net.is_residual() {
        base + output as f32
    } else {
        output as f32
    };
    let offset = f64::from(p.score_stm() - base);
    Sums {
        evaluation_loss: loss(base),
        network_loss: loss(network),
        offset,
        offset_abs: offset.abs(),
        output: f64::from(output),
        output_abs: f64::from(output.abs()),
        large: usize::from(raw.abs() > LARGE_CP),
    }
}

impl fmt::Display for FitReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} positions ({} beyond the score cutoff left out); from the side to move's view",
            self.load.kept, self.load.over_max_score
        )?;
        writeln!(
            f,
            "hand-written evaluation        loss {:.6}",
            self.evaluation_loss
        )?;
        let what = match (self.residual, self.limit) {
            (false, _) => "network".to_string(),
            (true, None) => "evaluation + residual network".to_string(),
            (true, Some(l)) => format!("evaluation + residual (±{l})"),
        };
        writeln!(f, "{what:<30} loss {:.6}", self.network_loss)?;
        writeln!(
            f,
            "score − evaluation             mean {:+.1} cp, mean |·| {:.1} cp",
            self.target_offset.0, self.target_offset.1
        )?;
        write!(
            f,
            "network output                 mean {:+.1} cp, mean |·| {:.1} cp, {:.1} % beyond ±{LARGE_CP} cp{}",
            self.output.0,
            self.output.1,
            100.0 * self.large_share,
            if self.limit.is_some() {
                " before the limit"
            } else {
                ""
            }
        )
    }
}
