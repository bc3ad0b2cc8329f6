//! The tuner end to end: the first iterations by hand, exact resume, and convergence on a
//! synthetic objective (no chess).

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;
use crate::stats::Trinomial;

/// The oldest iteration in flight (owned, so the loop body may borrow the tuner mutably).
fn oldest(tuner: &Tuner) -> Option<Draw> {
    tuner.in_flight().next().cloned()
}

fn newest(tuner: &Tuner) -> Option<Draw> {
    tuner.in_flight().last().cloned()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// x: a real in [0, 1] from 0.5 with c_end 0.05; y: an integer in [0, 100] from 50, c_end 4.
fn two_params() -> Vec<ParamDef> {
    vec![
        ParamDef {
            name: "x".into(),
            kind: ValueKind::Float,
            start: 0.5,
            min: 0.0,
            max: 1.0,
            c_end: 0.05,
            r_end: 0.002,
        },
        ParamDef {
            name: "y".into(),
            kind: ValueKind::Int,
            start: 50.0,
            min: 0.0,
            max: 100.0,
            c_end: 4.0,
            r_end: 0.002,
        },
    ]
}

#[test]
fn first_iterations_of_a_fixed_seed_by_hand() {
    // N = 100, 8 pairs per iteration, A = 10, α = 0.602, γ = 0.101.
    let settings = Settings {
        iterations: 100,
        seed: 7,
        ..Settings::default()
    };
    let mut tuner = Tuner::new(two_params(), settings).unwrap();
    let d1 = tuner.in_flight().next().unwrap().clone();
    assert_eq!((d1.index, d1.k), (0, 1.0));
    assert_eq!(d1.pairs(8), 0..8);
    for f in &d1.flips {
        assert!(*f == 1.0 || *f == -1.0);
    }
    let (fx, fy) = (d1.flips[0], d1.flips[1]);

    // Iteration 1, k = 1.
    // x: c_1 = 0.05 · 100^0.101 = 0.05 · 1.592209 = 0.0796104
    //    R_1 = a / (A + 1)^α / c_1², a = 0.002 · 0.05² · 110^0.602 = 0.000005 · 16.940195
    //        = 0.0000847010, so R_1 = 0.0000847010 / 4.235634 / 0.0796104² = 0.0031552
    assert!(close(d1.c[0], 0.0796104, 1e-7) && close(d1.r[0], 0.0031552, 1e-7));
    assert!(close(d1.plus[0], 0.5 + fx * 0.0796104, 1e-7));
    assert!(close(d1.minus[0], 0.5 - fx * 0.0796104, 1e-7));
    // y: c_1 = 4 · 1.592209 = 6.368835 and R_1 = 0.0031552 again (R_k does not depend on
    //    c_end: the c_end² of a cancels the c_end² of c_k²).
    //    Played: 50 ± 6.368835 rounded randomly, so 56 or 57 on the +flip side, 43 or 44 on
    //    the other.
    assert!(close(d1.c[1], 6.368835, 1e-6) && close(d1.r[1], 0.0031552, 1e-7));
    let (hi, lo) = if fy > 0.0 {
        (d1.plus[1], d1.minus[1])
    } else {
        (d1.minus[1], d1.plus[1])
    };
    assert!(
        (hi == 56.0 || hi == 57.0) && (lo == 43.0 || lo == 44.0),
        "{hi} {lo}"
    );

    // Result: plus wins 9, draws 4, loses 3: W − L = 6.
    // x ← 0.5 + R_1 · c_1 · 6 · flip = 0.5 + 0.0031552 · 0.0796104 · 6 · flip
    //   = 0.5 + 0.00150713 · flip
    // y ← 50 + 0.0031552 · 6.368835 · 6 · flip = 50 + 0.120571 · flip
    let progress = tuner.complete(0, Trinomial::new(9, 4, 3)).unwrap();
    assert_eq!(progress.applied.len(), 1);
    let x1 = 0.5 + 0.00150713 * fx;
    let y1 = 50.0 + 0.120571 * fy;
    assert!(close(tuner.theta()[0], x1, 1e-7), "{}", tuner.theta()[0]);
    assert!(close(tuner.theta()[1], y1, 1e-5), "{}", tuner.theta()[1]);
    assert_eq!(tuner.values()[1], 50.0);

    // Iteration 2: 16 games applied, k = 1 + 16 / (2 · 8) = 2.
    // x: c_2 = 0.0796104 / 2^0.101 = 0.0796104 / 1.072517 = 0.0742277
    //    R_2 = 0.0000847010 / 12^0.602 / c_2² = 0.0000847010 / 4.463413 / 0.0742277² = 0.0034442
    // y: c_2 = 6.368835 / 1.072517 = 5.938216, R_2 = 0.0034442
    let d2 = progress.drawn[0].clone();
    assert_eq!((d2.index, d2.k), (1, 2.0));
    assert_eq!(d2.pairs(8), 8..16);
    let (gx, gy) = (d2.flips[0], d2.flips[1]);
    assert!(close(d2.c[0], 0.0742277, 1e-6) && close(d2.r[0], 0.0034442, 1e-7));
    assert!(close(d2.c[1], 5.938216, 1e-5) && close(d2.r[1], 0.0034442, 1e-7));
    assert!(close(d2.plus[0], x1 + gx * 0.0742277, 1e-6));
    // Result: 3 wins, 6 draws, 7 losses: W − L = −4.
    // x ← x1 + 0.0034442 · 0.0742277 · (−4) · flip = x1 − 0.00102262 · flip
    // y ← y1 + 0.0034442 · 5.938216 · (−4) · flip = y1 − 0.0818098 · flip
    let progress = tuner.complete(1, Trinomial::new(3, 6, 7)).unwrap();
    let step = &progress.applied[0];
    assert_eq!((step.iteration, step.k), (2, 2.0));
    assert!(close(tuner.theta()[0], x1 - 0.00102262 * gx, 1e-7));
    assert!(close(tuner.theta()[1], y1 - 0.0818098 * gy, 1e-5));
    assert_eq!(step.theta, tuner.theta());
}

#[test]
fn one_seed_one_trajectory_and_signs_are_balanced() {
    let settings = Settings {
        iterations: 400,
        seed: 3,
        ..Settings::default()
    };
    let run = |settings: &Settings| {
        let mut tuner = Tuner::new(two_params(), settings.clone()).unwrap();
        let mut plus_flips = 0;
        while let Some(draw) = oldest(&tuner) {
            plus_flips += draw.flips.iter().filter(|f| **f > 0.0).count();
            tuner.complete(draw.index, Trinomial::new(5, 4, 7)).unwrap();
        }
        (tuner.theta().to_vec(), plus_flips)
    };
    let (a, flips) = run(&settings);
    assert_eq!(run(&settings).0, a);
    // 800 fair signs: 400 ± 4 standard deviations (±57).
    assert!((343..=457).contains(&flips), "{flips}");
    let other = run(&Settings {
        seed: 4,
        ..settings
    });
    assert_ne!(other.0, a);
}

#[test]
fn completion_order_and_checkpoints_do_not_change_the_trajectory() {
    let settings = Settings {
        iterations: 60,
        in_flight: 4,
        seed: 11,
        ..Settings::default()
    };
    // The result of an iteration depends only on what it plays (as games do on their pairs).
    let result_of = |d: &Draw| {
        let w = (d.plus[1] as u64 * 7 + d.index) % 9;
        let l = (d.minus[1] as u64 * 5 + d.index) % 7;
        Trinomial::new(w, 16 - w - l, l)
    };
    let mut in_order = Tuner::new(two_params(), settings.clone()).unwrap();
    let mut steps_in_order = Vec::new();
    while let Some(d) = oldest(&in_order) {
        steps_in_order.extend(in_order.complete(d.index, result_of(&d)).unwrap().applied);
    }

    // Newest first, with a checkpoint through JSON and a resume every 7 completions.
    let mut tuner = Tuner::new(two_params(), settings.clone()).unwrap();
    let mut steps = Vec::new();
    let mut done = 0;
    while let Some(d) = newest(&tuner) {
        steps.extend(tuner.complete(d.index, result_of(&d)).unwrap().applied);
        done += 1;
        if done % 7 == 0 {
            let json = serde_json::to_string(tuner.state()).unwrap();
            let state: State = serde_json::from_str(&json).unwrap();
            tuner = Tuner::resume(two_params(), settings.clone(), state).unwrap();
        }
    }
    assert!(tuner.is_finished());
    assert_eq!(steps, steps_in_order);
    assert_eq!(tuner.theta(), in_order.theta());
    // Iteration n was drawn after n − 4 + 1 applies: k = 1 + (n − 3) for n ≥ 3.
    assert_eq!(steps[10].k, 8.0);
}

#[test]
fn bad_results_and_checkpoints_are_errors() {
    let settings = Settings {
        iterations: 5,
        in_flight: 2,
        ..Settings::default()
    };
    let mut tuner = Tuner::new(two_params(), settings.clone()).unwrap();
    assert_eq!(
        tuner.complete(9, Trinomial::new(1, 0, 0)),
        Err(SpsaError::NotInFlight(9))
    );
    let e = tuner.complete(0, Trinomial::new(10, 0, 7)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "iteration 0: 17 games, expected at most 16 (2 per pair)"
    );
    tuner.complete(1, Trinomial::new(1, 0, 0)).unwrap();
    assert_eq!(
        tuner.complete(1, Trinomial::new(1, 0, 0)),
        Err(SpsaError::AlreadyCompleted(1))
    );
    let mut state = tuner.state().clone();
    state.theta.pop();
    assert!(matches!(
        Tuner::resume(two_params(), settings.clone(), state),
        Err(SpsaError::BadCheckpoint(_))
    ));
    let mut state = tuner.state().clone();
    state.theta[1] = 101.0;
    let e = Tuner::resume(two_params(), settings.clone(), state).unwrap_err();
    assert!(
        e.to_string().contains("'y' = 101 is outside [0, 100]"),
        "{e}"
    );
    let mut state = tuner.state().clone();
    state.pending.pop_front();
    assert!(matches!(
        Tuner::resume(two_params(), settings.clone(), state),
        Err(SpsaError::BadCheckpoint(_))
    ));
    let mut defs = two_params();
    defs[0].start = 2.0;
    let e = Tuner::new(defs, settings).unwrap_err().to_string();
    assert!(
        e.contains("parameter 'x': start 2 is outside [0, 1]"),
        "{e}"
    );
}

/// A synthetic match: the side at θ has strength −Σ w·((θ − opt)/scale)² Elo; a game is a
/// win, draw or loss with the logistic expected score of the difference and 30 % draws at
/// equality; each iteration's Elo difference also gets Gaussian-ish noise of ±5 Elo.
struct Synthetic {
    optimum: Vec<f64>,
    scale: Vec<f64>,
    weight: f64,
}

impl Synthetic {
    fn elo(&self, values: &[f64]) -> f64 {
        -self.weight
            * values
                .iter()
                .zip(&self.optimum)
                .zip(&self.scale)
                .map(|((v, o), s)| ((v - o) / s).powi(2))
                .sum::<f64>()
    }

    fn play(&self, draw: &Draw, pairs: u64, rng: &mut ChaCha8Rng) -> Trinomial {
        // Sum of three uniforms: mean 0, spread about ±5 Elo.
        let noise = (0..3).map(|_| rng.random::<f64>() - 0.5).sum::<f64>() * 10.0;
        let diff = self.elo(&draw.plus) - self.elo(&draw.minus) + noise;
        let score = 1.0 / (1.0 + 10f64.powf(-diff / 400.0));
        let draw_p = 0.3 * (1.0 - (2.0 * score - 1.0).abs());
        let win_p = score - draw_p / 2.0;
        let mut t = Trinomial::default();
        for _ in 0..2 * pairs {
            let u = rng.random::<f64>();
            if u < win_p {
                t.wins += 1;
            } else if u < win_p + draw_p {
                t.draws += 1;
            } else {
                t.losses += 1;
            }
        }
        t
    }
}

#[test]
fn converges_on_a_synthetic_objective_for_several_seeds() {
    // Three parameters of different scales, each started far from its optimum:
    // a margin-like integer (optimum 350, start 100), a depth-like integer (optimum 10,
    // start 30), a real (optimum 0.3, start −0.5). Being one `scale` off costs 100 Elo.
    // 5000 iterations of 8 pairs (80 000 simulated games) with OpenBench's defaults.
    let defs = vec![
        ParamDef {
            name: "margin".into(),
            kind: ValueKind::Int,
            start: 100.0,
            min: 0.0,
            max: 2000.0,
            c_end: 20.0,
            r_end: 0.002,
        },
        ParamDef {
            name: "depth".into(),
            kind: ValueKind::Int,
            start: 30.0,
            min: 0.0,
            max: 64.0,
            c_end: 2.0,
            r_end: 0.002,
        },
        ParamDef {
            name: "ratio".into(),
            kind: ValueKind::Float,
            start: -0.5,
            min: -1.0,
            max: 1.0,
            c_end: 0.05,
            r_end: 0.002,
        },
    ];
    let objective = Synthetic {
        optimum: vec![350.0, 10.0, 0.3],
        scale: vec![200.0, 20.0, 0.5],
        weight: 100.0,
    };
    let start_loss = -objective.elo(&defs.iter().map(|d| d.start).collect::<Vec<_>>());
    assert!(start_loss > 500.0, "{start_loss}");
    for seed in [1, 2, 3, 4, 5] {
        let settings = Settings {
            iterations: 5000,
            in_flight: 3,
            seed,
            ..Settings::default()
        };
        let pairs = settings.pairs_per_iteration;
        let mut tuner = Tuner::new(defs.clone(), settings).unwrap();
        let mut games = ChaCha8Rng::seed_from_u64(1000 + seed);
        while let Some(d) = oldest(&tuner) {
            let result = objective.play(&d, pairs, &mut games);
            tuner.complete(d.index, result).unwrap();
        }
        let end = tuner.values();
        // Within 0.15 of a scale of each optimum (30 for margin, 3 plies, 0.075 of ratio)
        // and less than 5 Elo below the optimum, from over 500 Elo below at the start.
        for (i, (v, o)) in end.iter().zip(&objective.optimum).enumerate() {
            assert!(
                (v - o).abs() <= 0.15 * objective.scale[i],
                "seed {seed}: {} = {v}, optimum {o}",
                defs[i].name
            );
        }
        assert!(-objective.elo(&end) < 5.0, "seed {seed}: {end:?}");
    }
}
