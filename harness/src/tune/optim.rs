//! Minimising the Texel loss: argmin's L-BFGS (More-Thuente line search) or a hand-written
//! Adam, both on the full batch.
//!
//! The mean squared error and its gradient are tiny numbers (a gradient of 1e-4 per
//! centipawn is typical), so both optimisers see the loss multiplied by a constant chosen so that
//! the largest starting gradient component is [`FIRST_STEP_CP`]: L-BFGS's first step then moves
//! weights by centipawns rather than by 1e-4 of one, and Adam's epsilon stays negligible. The
//! L-BFGS tolerances are set near zero so it runs until the iteration limit or until its line
//! search can make no more progress, never stopping early on a small gradient.

use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use argmin::core::observers::{Observe, ObserverMode};
use argmin::core::{CostFunction, Executor, Gradient, IterState, KV, State as _};
use argmin::solver::linesearch::MoreThuenteLineSearch;
use argmin::solver::quasinewton::LBFGS;

use super::model::Objective;

/// Size of the first step, in centipawns, for the largest gradient component.
pub const FIRST_STEP_CP: f64 = 10.0;

/// Which optimiser to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Optimizer {
    /// Limited-memory BFGS with a More-Thuente line search (argmin).
    Lbfgs,
    /// Adam with full-batch gradients.
    Adam,
}

impl Optimizer {
    /// Iterations when none are asked for.
    pub fn default_iterations(self) -> u64 {
        match self {
            Optimizer::Lbfgs => 500,
            Optimizer::Adam => 3000,
        }
    }
}

/// Settings of a run.
#[derive(Clone, Copy, Debug)]
pub struct OptimOptions {
    pub optimizer: Optimizer,
    pub iterations: u64,
    /// Adam's step size in centipawns.
    pub learning_rate: f64,
    /// L-BFGS history length.
    pub memory: usize,
}

impl Default for OptimOptions {
    fn default() -> Self {
        OptimOptions {
            optimizer: Optimizer::Lbfgs,
            iterations: Optimizer::Lbfgs.default_iterations(),
            learning_rate: 1.0,
            memory: 10,
        }
    }
}

/// What the optimiser reports after each iteration.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// 1-based.
    pub iteration: u64,
    /// The tuned parameters now.
    pub x: &'a [f64],
    /// Training loss at `x`: the mean squared error (plus the L2 penalty, if any).
    pub train_mse: f64,
}

/// Called after each iteration; an error stops the run.
pub type OnProgress = Box<dyn FnMut(&Progress<'_>) -> anyhow::Result<()> + Send>;

/// Outcome of a run.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The best tuned parameters found (training loss).
    pub x: Vec<f64>,
    pub train_mse: f64,
    pub iterations: u64,
    /// Why the run stopped.
    pub stop_reason: String,
}

/// Minimises `objective` from its starting point.
pub fn minimize(
    objective: Arc<Objective>,
    options: &OptimOptions,
    on_progress: OnProgress,
) -> anyhow::Result<Outcome> {
    let start = objective.start();
    if start.is_empty() {
        let (mse, _) = objective.loss_and_gradient(&start);
        return Ok(Outcome {
            x: start,
            train_mse: mse,
            iterations: 0,
            stop_reason: "no parameters to tune".into(),
        });
    }
    let (_, gradient) = objective.loss_and_gradient(&start);
    let largest = gradient.iter().fold(0.0f64, |m, g| m.max(g.abs()));
    let scale = if largest > 0.0 && largest.is_finite() {
        FIRST_STEP_CP / largest
    } else {
        1.0
    };
    let problem = ScaledLoss {
        objective,
        scale,
        cache: Mutex::new(None),
    };
    match options.optimizer {
        Optimizer::Lbfgs => lbfgs(problem, start, options, on_progress),
        Optimizer::Adam => adam(&problem, start, options, on_progress),
    }
}

/// The objective times a constant, remembering the last point so a cost and a gradient at the
/// same point (as the line search asks) cost one pass.
struct ScaledLoss {
    objective: Arc<Objective>,
    scale: f64,
    cache: Mutex<Option<Evaluated>>,
}

/// A point with its scaled loss and gradient.
type Evaluated = (Vec<f64>, f64, Vec<f64>);

impl ScaledLoss {
    fn evaluate(&self, x: &[f64]) -> (f64, Vec<f64>) {
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, loss, gradient)) = cache.as_ref()
            && at.as_slice() == x
        {
            return (*loss, gradient.clone());
        }
        let (mse, mut gradient) = self.objective.loss_and_gradient(x);
        let loss = mse * self.scale;
        gradient.iter_mut().for_each(|g| *g *= self.scale);
        *cache = Some((x.to_vec(), loss, gradient.clone()));
        (loss, gradient)
    }
}

impl CostFunction for ScaledLoss {
    type Param = Vec<f64>;
    type Output = f64;

    fn cost(&self, x: &Vec<f64>) -> Result<f64, argmin::core::Error> {
        Ok(self.evaluate(x).0)
    }
}

impl Gradient for ScaledLoss {
    type Param = Vec<f64>;
    type Gradient = Vec<f64>;

    fn gradient(&self, x: &Vec<f64>) -> Result<Vec<f64>, argmin::core::Error> {
        Ok(self.evaluate(x).1)
    }
}

type LbfgsState = IterState<Vec<f64>, Vec<f64>, (), (), (), f64>;

/// Forwards argmin's iterations to the caller's progress callback.
struct ProgressObserver {
    scale: f64,
    on_progress: OnProgress,
}

impl Observe<LbfgsState> for ProgressObserver {
    fn observe_iter(&mut self, state: &LbfgsState, _kv: &KV) -> Result<(), argmin::core::Error> {
        if let Some(x) = state.get_param() {
            (self.on_progress)(&Progress {
                iteration: state.get_iter() + 1,
                x,
                train_mse: state.get_cost() / self.scale,
            })?;
        }
        Ok(())
    }
}

fn lbfgs(
    problem: ScaledLoss,
    start: Vec<f64>,
    options: &OptimOptions,
    on_progress: OnProgress,
) -> anyhow::Result<Outcome> {
    let scale = problem.scale;
    let (initial, _) = problem.evaluate(&start);
    let linesearch = MoreThuenteLineSearch::new();
    let solver = LBFGS::new(linesearch, options.memory.max(1))
        .with_tolerance_grad(1e-12 * FIRST_STEP_CP)?
        .with_tolerance_cost(1e-14 * initial.abs())?;
    let result = Executor::new(problem, solver)
        .configure(|state| state.param(start).max_iters(options.iterations))
        .add_observer(
            ProgressObserver { scale, on_progress },
            ObserverMode::Always,
        )
        .run()
        .context("L-BFGS")?;
    let state = result.state;
    let iterations = state.get_iter();
    let stop_reason = state
        .get_termination_reason()
        .map_or_else(|| "unknown".to_string(), |r| r.to_string());
    let train_mse = state.get_best_cost() / scale;
    let x = state.best_param.context("L-BFGS returned no parameters")?;
    Ok(Outcome {
        x,
        train_mse,
        iterations,
        stop_reason,
    })
}

fn adam(
    problem: &ScaledLoss,
    mut x: Vec<f64>,
    options: &OptimOptions,
    mut on_progress: OnProgress,
) -> anyhow::Result<Outcome> {
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPSILON: f64 = 1e-8;
    let n = x.len();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let mut best = (f64::INFINITY, x.clone());
    // Each pass gives the loss at the current point (the previous step's result) and the
    // gradient for the next step.
    for t in 0..=options.iterations {
        let (loss, g) = problem.evaluate(&x);
        if loss < best.0 {
            best = (loss, x.clone());
        }
        if t > 0 {
            on_progress(&Progress {
                iteration: t,
                x: &x,
                train_mse: loss / problem.scale,
            })?;
        }
        if t == options.iterations {
            break;
        }
        let step = (t + 1) as i32;
        let (c1, c2) = (1.0 - BETA1.powi(step), 1.0 - BETA2.powi(step));
        for i in 0..n {
            m[i] = BETA1 * m[i] + (1.0 - BETA1) * g[i];
            v[i] = BETA2 * v[i] + (1.0 - BETA2) * g[i] * g[i];
            x[i] -= options.learning_rate * (m[i] / c1) / ((v[i] / c2).sqrt() + EPSILON);
        }
    }
    Ok(Outcome {
        train_mse: best.0 / problem.scale,
        x: best.1,
        iterations: options.iterations,
        stop_reason: "iteration limit".into(),
    })
}
