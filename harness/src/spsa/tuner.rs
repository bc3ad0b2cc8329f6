//! The tune's state and its two moves: draw an iteration's (plus, minus) values from the
//! current θ, and apply a finished iteration's result, in order, with several in flight.
//!
//! Determinism: iteration `n` (0-based) is drawn once `max(0, n − in_flight + 1)` iterations
//! are applied — the first `in_flight` at the start, then one right after each apply — and its
//! signs and roundings come from a random stream keyed by `(seed, n)`. So the whole trajectory
//! depends only on the settings, the start and the results, never on which game ended first,
//! and a checkpoint (θ, counters, the iterations in flight) resumes it exactly.

use std::collections::VecDeque;
use std::ops::Range;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::input::{ParamDef, ValueKind};
use super::rule::{self, Constants, Settings, SettingsError};
use crate::stats::Trinomial;

/// One iteration to play: `pairs_per_iteration` game pairs of `plus` against `minus`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Draw {
    /// 0-based iteration index; also names its game pairs (see [`Draw::pairs`]).
    pub index: u64,
    /// OpenBench's iteration number k when drawn: 1 + applied games / (2 · pairs per).
    pub k: f64,
    /// The values to play on one side, θ + c_k·Δ (rounded and clamped), one per parameter.
    pub plus: Vec<f64>,
    /// The other side, θ − c_k·Δ.
    pub minus: Vec<f64>,
    /// Δ, each +1 or −1.
    pub flips: Vec<f64>,
    /// c_k per parameter.
    pub c: Vec<f64>,
    /// R_k per parameter.
    pub r: Vec<f64>,
}

impl Draw {
    /// The game pair indices of this iteration: `index · P .. (index + 1) · P`, so the games
    /// of a resumed tune are the games of an uninterrupted one.
    pub fn pairs(&self, pairs_per_iteration: u64) -> Range<u64> {
        self.index * pairs_per_iteration..(self.index + 1) * pairs_per_iteration
    }
}

/// An iteration drawn and not yet applied, with its result once it has one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pending {
    pub draw: Draw,
    pub result: Option<Trinomial>,
}

/// Everything that changes during a tune; serialize it to checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// θ, real-valued for integer parameters too.
    pub theta: Vec<f64>,
    /// Iterations applied.
    pub applied: u64,
    /// Games in the applied iterations (k is computed from it, as on OpenBench).
    pub games: u64,
    /// Iterations drawn (applied or in flight).
    pub drawn: u64,
    /// The drawn iterations not yet applied, in index order.
    pub pending: VecDeque<Pending>,
}

/// One applied iteration: what `spsa.csv` needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// 1-based count of applied iterations.
    pub iteration: u64,
    pub k: f64,
    /// From the plus side's view.
    pub result: Trinomial,
    pub c: Vec<f64>,
    pub r: Vec<f64>,
    /// θ after the update.
    pub theta: Vec<f64>,
}

/// What [`Tuner::complete`] did: the iterations it could apply (in order) and the new ones
/// it drew to take their place.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    pub applied: Vec<Step>,
    pub drawn: Vec<Draw>,
}

#[derive(Debug, Error, PartialEq)]
pub enum SpsaError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error("parameter '{name}': {problem}")]
    Param { name: String, problem: String },
    #[error("no parameters to tune")]
    NoParams,
    #[error("iteration {0} is not in flight")]
    NotInFlight(u64),
    #[error("iteration {0} already has a result")]
    AlreadyCompleted(u64),
    #[error("iteration {index}: {games} games, expected at most {max} (2 per pair)")]
    TooManyGames { index: u64, games: u64, max: u64 },
    #[error("checkpoint does not fit these parameters and settings: {0}")]
    BadCheckpoint(String),
}

/// A tune in progress: the parameters, the settings and the [`State`].
///
/// ```
/// use harness::spsa::{ParamDef, Settings, Tuner, ValueKind};
/// use harness::stats::Trinomial;
/// let defs = vec![ParamDef { name: "x".into(), kind: ValueKind::Int, start: 50.0,
///     min: 0.0, max: 100.0, c_end: 5.0, r_end: 0.002 }];
/// let settings = Settings { iterations: 10, in_flight: 3, ..Settings::default() };
/// let mut tuner = Tuner::new(defs, settings).unwrap();
/// let mut queue: Vec<_> = tuner.in_flight().cloned().collect(); // play these
/// assert_eq!(queue.len(), 3);
/// while let Some(draw) = queue.pop() {          // any completion order works
///     let result = Trinomial::new(9, 4, 3);     // plus's wins, draws, losses
///     let progress = tuner.complete(draw.index, result).unwrap();
///     queue.extend(progress.drawn);             // keep the window full
///     // write progress.applied rows and a checkpoint of tuner.state() here
/// }
/// assert!(tuner.is_finished());
/// ```
#[derive(Clone, Debug)]
pub struct Tuner {
    defs: Vec<ParamDef>,
    settings: Settings,
    constants: Vec<Constants>,
    state: State,
}

impl Tuner {
    /// A new tune at the start values, with its first `in_flight` iterations drawn.
    pub fn new(defs: Vec<ParamDef>, settings: Settings) -> Result<Tuner, SpsaError> {
        let theta = defs.iter().map(|d| d.start).collect();
        let mut tuner = Tuner::checked(defs, settings)?;
        tuner.state = State {
            theta,
            applied: 0,
            games: 0,
            drawn: 0,
            pending: VecDeque::new(),
        };
        tuner.refill();
        Ok(tuner)
    }

    /// Continues from a checkpointed state. The iterations in flight in it (those without a
    /// result) must be played again; [`Tuner::in_flight`] lists them.
    pub fn resume(
        defs: Vec<ParamDef>,
        settings: Settings,
        state: State,
    ) -> Result<Tuner, SpsaError> {
        let mut tuner = Tuner::checked(defs, settings)?;
        let n = tuner.defs.len();
        let bad = |what: String| Err(SpsaError::BadCheckpoint(what));
        if state.theta.len() != n {
            return bad(format!("{} values for {n} parameters", state.theta.len()));
        }
        if let Some((def, theta)) = tuner
            .defs
            .iter()
            .zip(&state.theta)
            .find(|(d, t)| !(d.min..=d.max).contains(*t))
        {
            return bad(format!(
                "'{}' = {theta} is outside [{}, {}]",
                def.name, def.min, def.max
            ));
        }
        if state.pending.iter().any(|p| {
            let d = &p.draw;
            [&d.plus, &d.minus, &d.flips, &d.c, &d.r]
                .iter()
                .any(|v| v.len() != n)
        }) {
            return bad("an iteration in flight has the wrong number of values".into());
        }
        let indices: Vec<u64> = state.pending.iter().map(|p| p.draw.index).collect();
        let expected: Vec<u64> = (state.applied..state.drawn).collect();
        if indices != expected || state.drawn > tuner.settings.iterations {
            return bad(format!(
                "iterations in flight {indices:?}, expected {expected:?}"
            ));
        }
        tuner.state = state;
        tuner.refill();
        Ok(tuner)
    }

    fn checked(defs: Vec<ParamDef>, settings: Settings) -> Result<Tuner, SpsaError> {
        settings.validate()?;
        if defs.is_empty() {
            return Err(SpsaError::NoParams);
        }
        if let Some((def, problem)) = defs.iter().find_map(|d| d.problem().map(|p| (d, p))) {
            return Err(SpsaError::Param {
                name: def.name.clone(),
                problem,
            });
        }
        let constants = defs.iter().map(|d| Constants::new(d, &settings)).collect();
        Ok(Tuner {
            defs,
            settings,
            constants,
            state: State {
                theta: Vec::new(),
                applied: 0,
                games: 0,
                drawn: 0,
                pending: VecDeque::new(),
            },
        })
    }

    pub fn params(&self) -> &[ParamDef] {
        &self.defs
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The state to checkpoint.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// θ now.
    pub fn theta(&self) -> &[f64] {
        &self.state.theta
    }

    /// θ as it would be played without perturbation: integers rounded to nearest, ties to
    /// even (as Python's `round`, with which OpenBench reports its optimal values).
    pub fn values(&self) -> Vec<f64> {
        self.defs
            .iter()
            .zip(&self.state.theta)
            .map(|(d, &t)| match d.kind {
                ValueKind::Int => t.round_ties_even(),
                ValueKind::Float => t,
            })
            .collect()
    }

    /// The iterations drawn and still waiting for a result, in index order.
    pub fn in_flight(&self) -> impl Iterator<Item = &Draw> {
        self.state
            .pending
            .iter()
            .filter(|p| p.result.is_none())
            .map(|p| &p.draw)
    }

    /// Whether every iteration has been applied.
    pub fn is_finished(&self) -> bool {
        self.state.applied >= self.settings.iterations
    }

    /// Records iteration `index`'s result (plus's wins, draws and losses), then applies every
    /// iteration at the head of the queue that has its result, drawing the next iteration
    /// after each apply.
    pub fn complete(&mut self, index: u64, result: Trinomial) -> Result<Progress, SpsaError> {
        let max = 2 * self.settings.pairs_per_iteration;
        let games = result.wins + result.draws + result.losses;
        if games > max {
            return Err(SpsaError::TooManyGames { index, games, max });
        }
        let pending = self
            .state
            .pending
            .iter_mut()
            .find(|p| p.draw.index == index)
            .ok_or(SpsaError::NotInFlight(index))?;
        if pending.result.is_some() {
            return Err(SpsaError::AlreadyCompleted(index));
        }
        pending.result = Some(result);
        let mut progress = Progress::default();
        while let Some(Pending {
            result: Some(_), ..
        }) = self.state.pending.front()
        {
            let Some(Pending {
                draw,
                result: Some(result),
            }) = self.state.pending.pop_front()
            else {
                unreachable!("front was checked")
            };
            progress.applied.push(self.apply(draw, result));
            progress.drawn.extend(self.refill());
        }
        Ok(progress)
    }

    fn apply(&mut self, draw: Draw, result: Trinomial) -> Step {
        let score = result.wins as f64 - result.losses as f64;
        for (i, def) in self.defs.iter().enumerate() {
            self.state.theta[i] = rule::update(
                def,
                self.state.theta[i],
                draw.c[i],
                draw.r[i],
                draw.flips[i],
                score,
            );
        }
        self.state.applied += 1;
        self.state.games += result.wins + result.draws + result.losses;
        Step {
            iteration: self.state.applied,
            k: draw.k,
            result,
            c: draw.c,
            r: draw.r,
            theta: self.state.theta.clone(),
        }
    }

    /// Draws iterations until `in_flight` are pending or all are drawn.
    fn refill(&mut self) -> Vec<Draw> {
        let mut drawn = Vec::new();
        while self.state.drawn < self.settings.iterations
            && (self.state.pending.len() as u64) < self.settings.in_flight
        {
            let draw = self.draw(self.state.drawn);
            self.state.drawn += 1;
            self.state.pending.push_back(Pending {
                draw: draw.clone(),
                result: None,
            });
            drawn.push(draw);
        }
        drawn
    }

    /// Iteration `index` from the current θ: signs and roundings from the stream (seed, index).
    fn draw(&self, index: u64) -> Draw {
        let mut rng = ChaCha8Rng::seed_from_u64(self.settings.seed);
        rng.set_stream(index);
        let k = self.settings.iteration_at(self.state.games);
        let n = self.defs.len();
        let mut draw = Draw {
            index,
            k,
            plus: Vec::with_capacity(n),
            minus: Vec::with_capacity(n),
            flips: Vec::with_capacity(n),
            c: Vec::with_capacity(n),
            r: Vec::with_capacity(n),
        };
        for (i, def) in self.defs.iter().enumerate() {
            let flip = if rng.random::<bool>() { 1.0 } else { -1.0 };
            let u = rng.random::<f64>();
            let (c_k, r_k) = rule::schedule(def, self.constants[i], &self.settings, k);
            let (plus, minus) = rule::perturb(def, self.state.theta[i], c_k, flip, u);
            draw.plus.push(plus);
            draw.minus.push(minus);
            draw.flips.push(flip);
            draw.c.push(c_k);
            draw.r.push(r_k);
        }
        draw
    }
}
