//! The SPSA part of a tune folder's report: how far each parameter moved from its start,
//! and the trajectories to plot.

use super::load::SpsaRun;
use super::plots::Trajectory;
use crate::spsa::ValueKind;

/// One tuned parameter at the end of the tune.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamMove {
    pub name: String,
    pub start: f64,
    /// θ after the last applied iteration (the start if none was applied).
    pub theta: f64,
    /// What `tuned.toml` holds: θ rounded for an integer parameter.
    pub tuned: f64,
    pub min: f64,
    pub max: f64,
}

impl ParamMove {
    /// The move from the start as a fraction of the range (signed).
    pub fn moved(&self) -> f64 {
        (self.theta - self.start) / (self.max - self.min)
    }
}

/// Every parameter's start and end, in the tune's order.
pub fn moves(run: &SpsaRun) -> Vec<ParamMove> {
    let last = run.steps.last();
    run.spec
        .params
        .iter()
        .enumerate()
        .map(|(i, def)| {
            let theta = last
                .and_then(|s| s.theta.get(i).copied())
                .unwrap_or(def.start);
            ParamMove {
                name: def.name.clone(),
                start: def.start,
                theta,
                tuned: match def.kind {
                    ValueKind::Int => theta.round(),
                    ValueKind::Float => theta,
                },
                min: def.min,
                max: def.max,
            }
        })
        .collect()
}

/// θ of every parameter from the start (iteration 0) through each applied iteration.
pub fn trajectories(run: &SpsaRun) -> Vec<Trajectory<'_>> {
    run.spec
        .params
        .iter()
        .enumerate()
        .map(|(i, def)| Trajectory {
            name: &def.name,
            min: def.min,
            max: def.max,
            points: std::iter::once((0.0, def.start))
                .chain(
                    run.steps
                        .iter()
                        .filter_map(|s| s.theta.get(i).map(|&theta| (s.iteration as f64, theta))),
                )
                .collect(),
        })
        .collect()
}

/// Games played in the applied iterations.
pub fn games(run: &SpsaRun) -> u64 {
    run.steps.iter().map(|s| s.result.games()).sum()
}
