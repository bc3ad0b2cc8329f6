//! One tuning run from data files to a parameter set: load, split, fit K, optimise, round.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use engine::params::{EVAL_PARAMS, ParamId, ParamKind, Params, specs};
use regex::Regex;

use super::dataset::Format;
use super::kfit::fit_k;
use super::model::{FeatureWeights, Objective, mse};
use super::optim::{OnProgress, OptimOptions, minimize};
use super::traces::{self, LoadOptions, TraceSet};
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
    /// Share of the positions held out for validation.
    pub validation: f64,
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
    /// Number of tuned parameters.
    pub parameters: usize,
    pub iterations: u64,
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
    let (train, validation) = all.split(config.validation, config.seed)?;
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

    let init_weights = FeatureWeights::from_params(&config.init);
    let (k, initial_mse) = fit_k(&train, &init_weights)?;
    let validation = Arc::new(validation);
    let initial_validation_mse =
        (!validation.is_empty()).then(|| mse(&validation, &init_weights, k));
    log.line(format_args!(
        "K = {k:.4} (sigmoid(K*eval/400)); initial MSE train {initial_mse:.6}{}",
        initial_validation_mse.map_or(String::new(), |v| format!(" validation {v:.6}"))
    ));
    log.line(format_args!(
        "tuning {} parameters with {:?}, up to {} iterations",
        tuned.len(),
        config.optim.optimizer,
        config.optim.iterations
    ));

    let objective =
        Arc::new(Objective::new(Arc::new(train), k, &config.init, tuned).with_l2(config.l2));
    let on_progress = progress_reporter(config, Arc::clone(&objective), Arc::clone(&validation));
    let outcome = minimize(Arc::clone(&objective), &config.optim, on_progress)?;

    let params = objective.to_params(&config.init, &outcome.x);
    let final_weights = FeatureWeights::from_params(&params);
    let train_mse = mse(objective.set(), &final_weights, k);
    let validation_mse = (!validation.is_empty()).then(|| mse(&validation, &final_weights, k));
    let mut changes: Vec<Change> = objective
        .tuned()
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
        train_positions: objective.set().len(),
        parameters: objective.tuned().len(),
        iterations: outcome.iterations,
        stop_reason: outcome.stop_reason,
        seconds: started.elapsed().as_secs_f64(),
        params,
        changes,
        skipped_bad: report.skipped_bad,
        dropped_in_check: report.dropped_in_check,
    })
}

fn progress_reporter(
    config: &TuneConfig,
    objective: Arc<Objective>,
    validation: Arc<TraceSet>,
) -> OnProgress {
    let log = config.log;
    let report_every = config.report_every.max(1);
    let checkpoint_every = config.checkpoint_every;
    let checkpoint_path = config.checkpoint_path.clone();
    let init = config.init.clone();
    let started = Instant::now();
    Box::new(move |progress| {
        let i = progress.iteration;
        if i == 1 || i % report_every == 0 {
            let valid = if validation.is_empty() {
                String::new()
            } else {
                let v = mse(&validation, &objective.weights(progress.x), objective.k());
                format!("  validation {v:.6}")
            };
            log.line(format_args!(
                "iter {i:>5}  train {:.6}{valid}  ({:.1} s)",
                progress.train_mse,
                started.elapsed().as_secs_f64()
            ));
        }
        if let Some(path) = &checkpoint_path
            && checkpoint_every > 0
            && i % checkpoint_every == 0
        {
            objective.to_params(&init, progress.x).save(path)?;
        }
        Ok(())
    })
}
