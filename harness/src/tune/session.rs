//! One tuning run from data files to a parameter set: load, split, fit K, optimise with early
//! stopping on the validation set, round.

use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use engine::params::{EVAL_PARAMS, ParamId, ParamKind, Params, specs};
use regex::Regex;

use super::dataset::Format;
use super::kfit::{fit_k, fit_scale};
use super::model::{FeatureWeights, Objective, mse, parameter_usage};
use super::optim::{Control, OnProgress, OptimOptions, minimize};
use super::traces::{self, LoadOptions, Split, TraceSet};
use crate::UsageError;

/// Where progress lines go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Log {
    Stdout,
    Stderr,
    Quiet,
}

impl Log {
    pub fn line(self, args: fmt::Arguments<'_>) {
        match self {
            Log::Stdout => println!("{args}"),
            Log::Stderr => eprintln!("{args}"),
            Log::Quiet => {}
        }
    }
}

/// Default L2 strength toward the starting weights (chosen by the sweeps in docs/tuning.md).
pub const DEFAULT_L2: f64 = 3e-5;
/// Default smoothness prior on the piece-square tables (chosen by the sweeps in
/// docs/tuning.md).
pub const DEFAULT_SMOOTHNESS: f64 = 1e-4;
/// Fits at most: the first, then one more each time weights land beyond their ranges.
const MAX_BOUND_PASSES: usize = 3;

/// Default early-stopping patience, in iterations (chosen by the sweep in the README).
pub const DEFAULT_PATIENCE: u64 = 50;

/// Which positions K is fitted on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum KFitOn {
    /// Every loaded position, training and validation (as the published reference figures
    /// do; K is one number, so what it learns from the held-out results is negligible).
    All,
    /// The training positions only.
    Train,
}

/// The scale of the search scores in the blended target `sigmoid(K · score / 400)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ScoreScale {
    /// The evaluation's K: right for scores from our own engine's search.
    Eval,
    /// A K of their own, fitted on the scored training positions' results: for another
    /// engine's scores (`harness relabel`), whose centipawns are not ours.
    Fit,
}

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    pub data: Vec<PathBuf>,
    pub format: Format,
    pub skip_bad: bool,
    /// Starting values (also the values of every parameter not tuned).
    pub init: Params,
    /// Regular expressions matched against whole parameter names; empty = every evaluation
    /// parameter.
    pub patterns: Vec<String>,
    pub optim: OptimOptions,
    /// L2 penalty on the tuned weights' distance from their start (0 = none).
    pub l2: f64,
    /// Penalty on differences between neighbouring piece-square table entries (0 = none).
    pub smoothness: f64,
    pub k_fit_on: KFitOn,
    /// Early stopping: end the run after this many iterations without a new best validation
    /// error, and keep the parameters with the best one. 0 = off: run to the iteration limit and
    /// keep the optimiser's result.
    pub patience: u64,
    /// Share of the positions held out for validation.
    pub validation: f64,
    /// How the validation positions are chosen.
    pub split: Split,
    /// Weight of the search score in the training target (0 = the game result alone); the
    /// validation error is always measured against game results.
    pub score_weight: f64,
    pub score_scale: ScoreScale,
    pub seed: u64,
    /// Run quiescence at load and keep the leaf; drop positions in check.
    pub resolve: bool,
    /// Write the parameters every this many iterations (0 = never).
    pub checkpoint_every: u64,
    pub checkpoint_path: Option<PathBuf>,
    /// Print progress every this many iterations.
    pub report_every: u64,
    pub log: Log,
}

/// One parameter's change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub id: ParamId,
    pub before: i32,
    pub after: i32,
}

/// What a run found.
#[derive(Clone, Debug)]
pub struct TuneSummary {
    pub k: f64,
    /// Training error with the starting weights.
    pub initial_mse: f64,
    /// Training error with the result (rounded, clamped).
    pub train_mse: f64,
    /// Validation error with the result; `None` without a validation set.
    pub validation_mse: Option<f64>,
    /// Validation error with the starting weights.
    pub initial_validation_mse: Option<f64>,
    /// Positions loaded (training plus validation).
    pub positions: usize,
    pub train_positions: usize,
    /// Number of tuned parameters (those selected that occur in the training data).
    pub parameters: usize,
    /// Selected parameters kept at their start because no training position uses them.
    pub unused: usize,
    pub iterations: u64,
    /// With early stopping, the iteration whose parameters were kept (0 = the start).
    pub best_iteration: Option<u64>,
    pub stop_reason: String,
    pub seconds: f64,
    pub params: Params,
    /// Tuned parameters that changed, largest change first.
    pub changes: Vec<Change>,
    pub skipped_bad: usize,
    pub dropped_in_check: usize,
}

/// The evaluation parameters whose names match one of `patterns` entirely (all of them when
/// there are no patterns). A pattern matching none is a usage error.
pub fn select_params(patterns: &[String]) -> anyhow::Result<Vec<ParamId>> {
    let eval_ids = || (0..EVAL_PARAMS).filter(|&id| specs()[id].kind == ParamKind::Eval);
    if patterns.is_empty() {
        return Ok(eval_ids().collect());
    }
    let mut chosen = vec![false; EVAL_PARAMS];
    for pattern in patterns {
        let regex = Regex::new(&format!("^(?:{pattern})$"))
            .map_err(|e| UsageError(format!("--tune pattern '{pattern}': {e}")))?;
        let mut any = false;
        for id in eval_ids().filter(|&id| regex.is_match(&specs()[id].name)) {
            chosen[id] = true;
            any = true;
        }
        if !any {
            return Err(UsageError(format!(
                "--tune pattern '{pattern}' matches no evaluation parameter"
            ))
            .into());
        }
    }
    Ok((0..EVAL_PARAMS).filter(|&id| chosen[id]).collect())
}

/// Runs a tune.
pub fn run(config: &TuneConfig) -> anyhow::Result<TuneSummary> {
    let started = Instant::now();
    let log = config.log;
    let tuned = select_params(&config.patterns)?;
    if !(0.0..=1.0).contains(&config.score_weight) {
        return Err(UsageError(format!(
            "--score-weight {} must be in [0, 1]",
            config.score_weight
        ))
        .into());
    }
    if !(0.0..1.0).contains(&config.validation) {
        return Err(UsageError(format!(
            "--validation {} must be in [0, 1)",
            config.validation
        ))
        .into());
    }

    let load_options = LoadOptions {
        format: config.format,
        skip_bad: config.skip_bad,
        resolve: config.resolve.then(|| config.init.clone()),
    };
    let (all, report) = traces::load(&config.data, &load_options)?;
    if report.skipped_bad > 0 {
        log.line(format_args!(
            "skipped {} malformed lines; first: {}",
            report.skipped_bad,
            report.first_skipped.as_deref().unwrap_or("")
        ));
    }
    if report.dropped_in_check > 0 {
        log.line(format_args!(
            "dropped {} positions in check",
            report.dropped_in_check
        ));
    }
    if all.is_empty() {
        return Err(UsageError("the data sets hold no positions".into()).into());
    }
    let init_weights = FeatureWeights::from_params(&config.init);
    let k_on_all = match config.k_fit_on {
        KFitOn::All => Some(fit_k(&all, &init_weights)?.0),
        KFitOn::Train => None,
    };
    let (mut train, mut validation) = all.split(config.validation, config.split, config.seed)?;
    drop(all);
    if train.is_empty() {
        return Err(UsageError("no positions left for training".into()).into());
    }
    log.line(format_args!(
        "loaded {} positions ({} train, {} validation), {:.1} terms and {:.0} bytes per position, {:.1} s",
        report.positions,
        train.len(),
        validation.len(),
        train.term_count() as f64 / train.len() as f64,
        train.bytes() as f64 / train.len() as f64,
        started.elapsed().as_secs_f64()
    ));

    let k = match k_on_all {
        Some(k) => k,
        None => fit_k(&train, &init_weights)?.0,
    };
    if config.score_weight > 0.0 {
        let scored = train.scored();
        if scored == 0 {
            return Err(UsageError(
                "--score-weight needs data with search scores ('<FEN>; <score>; <result>', as \
                 `harness datagen --format score` writes); these positions have none"
                    .into(),
            )
            .into());
        }
        log.line(format_args!(
            "training target: {:.2} x sigmoid(K*score/400) + {:.2} x result on the {scored} of {} training positions with a score",
            config.score_weight,
            1.0 - config.score_weight,
            train.len()
        ));
    }
    let score_k = match config.score_scale {
        ScoreScale::Fit if config.score_weight > 0.0 => {
            let (values, results) = train.scored_pairs();
            let (score_k, error) = fit_scale(values, results)?;
            log.line(format_args!(
                "score K = {score_k:.4} (sigmoid(K*score/400) against the results: MSE {error:.6})"
            ));
            score_k
        }
        _ => k,
    };
    train.blend_scores(score_k, config.score_weight);
    validation.blend_scores(k, 0.0);
    let initial_mse = mse(&train, &init_weights, k);
    let validation = Arc::new(validation);
    let initial_validation_mse =
        (!validation.is_empty()).then(|| mse(&validation, &init_weights, k));
    log.line(format_args!(
        "K = {k:.4} (sigmoid(K*eval/400), fitted on {} positions); initial MSE train {initial_mse:.6}{}",
        if k_on_all.is_some() { "all" } else { "training" },
        initial_validation_mse.map_or(String::new(), |v| format!(" validation {v:.6}"))
    ));

    // A weight no training position uses has no gradient: the data says nothing about it.
    let usage = parameter_usage(&train);
    let (tuned, unused): (Vec<ParamId>, Vec<ParamId>) =
        tuned.into_iter().partition(|&id| usage[id] > 0.0);
    if !unused.is_empty() {
        log.line(format_args!(
            "{} selected parameters never occur in the training data and keep their start values (e.g. {})",
            unused.len(),
            specs()[unused[0]].name
        ));
    }
    let early_stopping = config.patience > 0 && !validation.is_empty();
    log.line(format_args!(
        "tuning {} parameters with {:?}, up to {} iterations, L2 {:e}, PST smoothness {:e}{}",
        tuned.len(),
        config.optim.optimizer,
        config.optim.iterations,
        config.l2,
        config.smoothness,
        if early_stopping {
            format!(
                ", early stopping after {} without a better validation MSE",
                config.patience
            )
        } else {
            String::new()
        }
    ));

    let train = Arc::new(train);
    let selected = tuned.clone();
    let mut base = config.init.clone();
    let mut tuned = tuned;
    let mut iterations = 0;
    let mut pass = 0;
    let (objective, x, best_iteration, stop_reason) = loop {
        pass += 1;
        let objective = Arc::new(
            Objective::new(Arc::clone(&train), k, &base, tuned.clone())
                .with_l2(config.l2)
                .with_smoothness(config.smoothness),
        );
        let best = Arc::new(Mutex::new(BestValidation {
            mse: if pass == 1 {
                initial_validation_mse.unwrap_or(f64::INFINITY)
            } else {
                f64::INFINITY
            },
            iteration: 0,
            x: objective.start(),
        }));
        let on_progress = progress_reporter(
            config,
            Arc::clone(&objective),
            Arc::clone(&validation),
            early_stopping.then(|| Arc::clone(&best)),
        );
        let outcome = minimize(Arc::clone(&objective), &config.optim, on_progress)?;
        iterations += outcome.iterations;
        let (x, best_iteration) = if early_stopping {
            let best = best.lock().unwrap_or_else(|e| e.into_inner());
            (best.x.clone(), Some(best.iteration))
        } else {
            (outcome.x, None)
        };
        // A weight the optimum puts beyond its range is fixed at the bound, and the others
        // are fitted again around it: clamping alone would leave them balancing a value the
        // engine cannot hold.
        let beyond: Vec<ParamId> = objective
            .tuned()
            .iter()
            .zip(&x)
            .filter(|&(&id, &v)| {
                let spec = &specs()[id];
                v < f64::from(spec.min) - 0.5 || v > f64::from(spec.max) + 0.5
            })
            .map(|(&id, _)| id)
            .collect();
        if beyond.is_empty() || pass == MAX_BOUND_PASSES || beyond.len() == tuned.len() {
            break (objective, x, best_iteration, outcome.stop_reason);
        }
        log.line(format_args!(
            "pass {pass}: {} weights beyond their range ({}); fixed at the bound, the rest fitted again",
            beyond.len(),
            beyond
                .iter()
                .map(|&id| specs()[id].name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        base = objective.to_params(&base, &x);
        tuned.retain(|id| !beyond.contains(id));
    };

    let params = objective.to_params(&base, &x);
    let final_weights = FeatureWeights::from_params(&params);
    let train_mse = mse(&train, &final_weights, k);
    let validation_mse = (!validation.is_empty()).then(|| mse(&validation, &final_weights, k));
    let mut changes: Vec<Change> = selected
        .iter()
        .map(|&id| Change {
            id,
            before: config.init.get(id),
            after: params.get(id),
        })
        .filter(|c| c.before != c.after)
        .collect();
    changes.sort_by_key(|c| std::cmp::Reverse((i64::from(c.after) - i64::from(c.before)).abs()));
    Ok(TuneSummary {
        k,
        initial_mse,
        train_mse,
        validation_mse,
        initial_validation_mse,
        positions: report.positions,
        train_positions: train.len(),
        parameters: selected.len(),
        unused: unused.len(),
        iterations,
        best_iteration,
        stop_reason,
        seconds: started.elapsed().as_secs_f64(),
        params,
        changes,
        skipped_bad: report.skipped_bad,
        dropped_in_check: report.dropped_in_check,
    })
}

/// The parameters with the lowest validation error so far.
struct BestValidation {
    mse: f64,
    iteration: u64,
    x: Vec<f64>,
}

/// Prints progress, writes checkpoints and, with `best`, tracks the validation error every
/// iteration and stops after `patience` iterations without a new best.
fn progress_reporter(
    config: &TuneConfig,
    objective: Arc<Objective>,
    validation: Arc<TraceSet>,
    best: Option<Arc<Mutex<BestValidation>>>,
) -> OnProgress {
    let log = config.log;
    let report_every = config.report_every.max(1);
    let checkpoint_every = config.checkpoint_every;
    let checkpoint_path = config.checkpoint_path.clone();
    let patience = config.patience;
    let init = config.init.clone();
    let started = Instant::now();
    Box::new(move |progress| {
        let i = progress.iteration;
        let report = i == 1 || i % report_every == 0;
        let validation_mse = (!validation.is_empty() && (report || best.is_some()))
            .then(|| mse(&validation, &objective.weights(progress.x), objective.k()));
        let mut control = Control::Continue;
        let mut best_note = String::new();
        if let (Some(best), Some(v)) = (&best, validation_mse) {
            let mut best = best.lock().unwrap_or_else(|e| e.into_inner());
            if v < best.mse {
                *best = BestValidation {
                    mse: v,
                    iteration: i,
                    x: progress.x.to_vec(),
                };
            } else if i - best.iteration >= patience {
                control = Control::Stop(format!(
                    "early stop: no better validation MSE for {patience} iterations (best {:.6} at iteration {})",
                    best.mse, best.iteration
                ));
            }
            best_note = format!(" (best {:.6} at {})", best.mse, best.iteration);
        }
        if report {
            let valid = validation_mse.map_or(String::new(), |v| format!("  validation {v:.6}"));
            log.line(format_args!(
                "iter {i:>5}  objective {:.6} (train MSE + priors){valid}{best_note}  ({:.1} s)",
                progress.train_mse,
                started.elapsed().as_secs_f64()
            ));
        }
        if let Some(path) = &checkpoint_path
            && checkpoint_every > 0
            && i % checkpoint_every == 0
        {
            // With early stopping the checkpoint is what the run would keep now.
            let kept = match &best {
                Some(best) => {
                    let best = best.lock().unwrap_or_else(|e| e.into_inner());
                    objective.to_params(&init, &best.x)
                }
                None => objective.to_params(&init, progress.x),
            };
            crate::output::write_atomically(path, &kept.to_toml_string())?;
        }
        Ok(control)
    })
}
