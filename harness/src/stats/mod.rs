//! Match statistics: Elo, pentanomial counts and the SPRT. Knows nothing of chess.
//!
//! TEMPORARY SHIM with the brief's API so the report branch compiles until branch `stats`
//! lands; reverted before merging it. Numbers are rough approximations.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trinomial {
    pub losses: u64,
    pub draws: u64,
    pub wins: u64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

impl Pentanomial {
    pub fn add_pair(&mut self, pair_points_x2: u8) {
        self.counts[pair_points_x2 as usize] += 1;
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EloModel {
    #[default]
    Normalized,
    Logistic,
    BayesElo,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SprtConfig {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    AcceptH1,
    AcceptH0,
    Continue,
}

#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub games: u64,
    pub elo: Option<f64>,
    pub elo_err95: Option<f64>,
    pub los: Option<f64>,
    pub draw_ratio: Option<f64>,
    pub nelo: Option<f64>,
    pub nelo_err95: Option<f64>,
    pub llr: Option<f64>,
    pub llr_lower: Option<f64>,
    pub llr_upper: Option<f64>,
    pub state: String,
    pub model: String,
}

impl Summary {
    pub fn state(&self) -> SprtState {
        match self.state.as_str() {
            "accepted" => SprtState::AcceptH1,
            "rejected" => SprtState::AcceptH0,
            _ => SprtState::Continue,
        }
    }
    pub fn fastchess_text(&self) -> String {
        format!(
            "Elo: {:?} +/- {:?}\nLLR: {:?}\n",
            self.elo, self.elo_err95, self.llr
        )
    }
}

fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

pub fn summarize(
    tri: &Trinomial,
    ptnml: Option<&Pentanomial>,
    sprt: Option<&SprtConfig>,
) -> Summary {
    let games = tri.wins + tri.draws + tri.losses;
    let (mut elo, mut err, mut llr) = (None, None, None);
    if games > 0 {
        let n = games as f64;
        let score = ((tri.wins as f64 + 0.5 * tri.draws as f64) / n).clamp(0.001, 0.999);
        let var = (tri.wins as f64 * (1.0 - score).powi(2)
            + tri.draws as f64 * (0.5 - score).powi(2)
            + tri.losses as f64 * score.powi(2))
            / n;
        let var = var.max(1e-6);
        let se = (var / n).sqrt();
        elo = Some(elo_of(score));
        err = Some(
            (elo_of((score + 1.96 * se).min(0.999)) - elo_of((score - 1.96 * se).max(0.001))) / 2.0,
        );
        if let Some(c) = sprt {
            let s = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
            let (s0, s1) = (s(c.elo0), s(c.elo1));
            llr = Some(n * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * var));
        }
    }
    let _ = ptnml;
    let (lower, upper) = sprt.map_or((None, None), |c| {
        (
            Some((c.beta / (1.0 - c.alpha)).ln()),
            Some(((1.0 - c.beta) / c.alpha).ln()),
        )
    });
    let state = match (llr, lower, upper) {
        (Some(l), _, Some(u)) if l >= u => "accepted",
        (Some(l), Some(lo), _) if l <= lo => "rejected",
        _ => "continue",
    };
    Summary {
        games,
        elo,
        elo_err95: err,
        los: elo.map(|e| if e > 0.0 { 0.9 } else { 0.1 }),
        draw_ratio: (games > 0).then(|| tri.draws as f64 / games as f64),
        nelo: elo,
        nelo_err95: err,
        llr,
        llr_lower: lower,
        llr_upper: upper,
        state: state.into(),
        model: "normalized".into(),
    }
}
