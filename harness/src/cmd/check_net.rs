//! `harness check-net`: how a network fits labelled positions, next to the hand-written
//! evaluation.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::key_value::check_range;
use crate::nnue::data::{MAX_SCORE_LIMIT, ScoreRule};
use crate::nnue::fit::{self, FitSpec};
use crate::nnue::trainer::{DEFAULT_MAX_SCORE, DEFAULT_WDL};

#[derive(Debug, clap::Args)]
#[command(after_help = "Each position's target is the one `train-net` fits \
(`wdl · result + (1 − wdl) · sigmoid(score / 400)`, side to move's view); the loss of an \
evaluation is the mean squared difference to `sigmoid(eval / 400)`. The network is evaluated \
as the engine does (quantised); a residual network's output is added to the hand-written \
evaluation at the default weights, kept within ±--limit if given. Use fresh positions (another \
datagen seed) to see how a network does beyond its training data.

Example:
  harness check-net --net engine/nets/default.nnue --data results/datagen/fresh-sf5.txt \\
    --score-scale 0.8 --wdl 0.2 --limit 20")]
pub struct CheckNetArgs {
    /// The network file.
    #[arg(long, value_name = "FILE")]
    pub net: PathBuf,
    /// `FEN; score; result` file (may end in .xz). Repeat for several.
    #[arg(long, value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,
    /// Weight of the game result in the target.
    #[arg(long, default_value_t = DEFAULT_WDL)]
    pub wdl: f32,
    /// Leave out positions whose score is beyond ±this many centipawns.
    #[arg(long, value_name = "CP", default_value_t = DEFAULT_MAX_SCORE)]
    pub max_score: i32,
    /// Multiply every score by this as it is read (before --max-score).
    #[arg(long, value_name = "F", default_value_t = 1.0)]
    pub score_scale: f32,
    /// Add this many centipawns to every score from the side to move's view (after
    /// --score-scale), as `train-net --score-offset` does.
    #[arg(
        long,
        value_name = "CP",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub score_offset: f32,
    /// Keep a residual network's correction within ±this many centipawns, as the engine's
    /// `nnue_residual_limit` does.
    #[arg(long, value_name = "CP")]
    pub limit: Option<i32>,
}

pub fn spec(args: CheckNetArgs) -> anyhow::Result<FitSpec> {
    if !args.wdl.is_finite() {
        crate::usage_bail!("--wdl {} is not a number", args.wdl);
    }
    check_range("--wdl", args.wdl, 0.0, 1.0)?;
    check_range("--max-score", args.max_score, 1, MAX_SCORE_LIMIT)?;
    if !args.score_scale.is_finite() {
        crate::usage_bail!("--score-scale {} is not a number", args.score_scale);
    }
    check_range("--score-scale", args.score_scale, 0.01, 100.0)?;
    if !args.score_offset.is_finite() {
        crate::usage_bail!("--score-offset {} is not a number", args.score_offset);
    }
    check_range("--score-offset", args.score_offset, -1000.0, 1000.0)?;
    if let Some(limit) = args.limit {
        check_range("--limit", limit, 1, 1000)?;
    }
    Ok(FitSpec {
        net: args.net,
        data: args.data,
        rule: ScoreRule {
            scale: args.score_scale,
            offset: args.score_offset,
            max_score: args.max_score,
        },
        wdl: args.wdl,
        limit: args.limit,
    })
}

pub fn run(args: CheckNetArgs) -> anyhow::Result<ExitCode> {
    let report = fit::measure(&spec(args)?)?;
    println!("{report}");
    Ok(ExitCode::SUCCESS)
}
