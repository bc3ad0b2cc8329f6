//! The options that say what a network is fitted to, shared by `train-net` (which fits it) and
//! `check-net` (which measures the same loss on other positions): declared once, so that the two
//! read a data file alike.

use crate::cli::key_value::{check_finite, check_range};
use crate::nnue::data::{MAX_SCORE_LIMIT, ScoreRule};
use crate::nnue::trainer::{DEFAULT_MAX_SCORE, DEFAULT_WDL};

#[derive(Debug, clap::Args)]
pub struct NetTargetArgs {
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
    /// Keep a residual network's output within ±this many centipawns, as the engine's
    /// `nnue_residual_limit` keeps it in the search (in training: the network is fitted to
    /// what the engine adds, and a position whose output lies beyond it teaches nothing).
    #[arg(long, value_name = "CP")]
    pub limit: Option<i32>,
}

/// [`NetTargetArgs`] with their ranges checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NetTargets {
    pub rule: ScoreRule,
    pub wdl: f32,
    pub limit: Option<i32>,
}

impl NetTargetArgs {
    /// The targets, or a usage error naming the option, its value and its range.
    pub fn checked(&self) -> anyhow::Result<NetTargets> {
        check_finite("--wdl", self.wdl)?;
        check_range("--wdl", self.wdl, 0.0, 1.0)?;
        check_range("--max-score", self.max_score, 1, MAX_SCORE_LIMIT)?;
        check_finite("--score-scale", self.score_scale)?;
        check_range("--score-scale", self.score_scale, 0.01, 100.0)?;
        check_finite("--score-offset", self.score_offset)?;
        check_range("--score-offset", self.score_offset, -1000.0, 1000.0)?;
        if let Some(limit) = self.limit {
            check_range("--limit", limit, 1, 1000)?;
        }
        Ok(NetTargets {
            rule: ScoreRule {
                scale: self.score_scale,
                offset: self.score_offset,
                max_score: self.max_score,
            },
            wdl: self.wdl,
            limit: self.limit,
        })
    }
}
