//! One match's statistics as users see them: the fastchess report lines and the JSON object
//! of `harness elo --json` / `summary.json`.

use serde::{Deserialize, Serialize};

use super::counts::{Pentanomial, Trinomial};
use super::elo::{EloEstimate, estimate};
use super::sprt::{EloModel, LlrError, SprtConfig, SprtState};

/// The statistics of one set of results. Serialises to exactly the keys of
/// `harness elo --json`; a quantity that cannot be computed is `None` (JSON `null`), and
/// [`Summary::notes`] says why. Fractions (`los`, `draw_ratio`) are in [0, 1].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Number of games (twice the pairs for pentanomial input).
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
    /// `None` when no SPRT was asked for.
    pub state: Option<SprtState>,
    /// `None` when no SPRT was asked for.
    pub model: Option<EloModel>,
    /// The game counts summarised (for pentanomial-only input: see
    /// [`Pentanomial::trinomial_if_middle_drawn`]).
    #[serde(skip)]
    pub trinomial: Trinomial,
    /// The pair counts, when the statistics were computed per pair.
    #[serde(skip)]
    pub pentanomial: Option<Pentanomial>,
    /// The SPRT asked for.
    #[serde(skip)]
    pub sprt: Option<SprtConfig>,
    /// Ends of the 95 % Elo interval.
    #[serde(skip)]
    pub elo_ci95: Option<(f64, f64)>,
    /// (WD + WW)/(LL + LD) for pentanomial input, when the denominator is not 0.
    #[serde(skip)]
    pub pairs_ratio: Option<f64>,
    /// Why values are missing, for people (e.g. "no games").
    #[serde(skip)]
    pub notes: Vec<String>,
}

/// Summarises results from the first engine's view. With `ptnml`, Elo, LOS, nElo and the
/// LLR are computed per pair (as fishtest and fastchess do); otherwise per game. `tri`
/// always gives the game counts (and the draw Elo of the BayesElo model).
pub fn summarize(
    tri: &Trinomial,
    ptnml: Option<&Pentanomial>,
    sprt: Option<&SprtConfig>,
) -> Summary {
    let counts: Vec<u64> = match ptnml {
        Some(p) => p.counts.to_vec(),
        None => tri.low_to_high().to_vec(),
    };
    let units: u64 = counts.iter().fold(0u64, |a, &c| a.saturating_add(c));
    let unit_name = if ptnml.is_some() { "pairs" } else { "games" };
    let mut notes = Vec::new();
    let mut out = Summary {
        games: tri.games(),
        elo: None,
        elo_err95: None,
        los: None,
        draw_ratio: None,
        nelo: None,
        nelo_err95: None,
        llr: None,
        llr_lower: None,
        llr_upper: None,
        state: None,
        model: None,
        trinomial: *tri,
        pentanomial: ptnml.copied(),
        sprt: sprt.copied(),
        elo_ci95: None,
        pairs_ratio: None,
        notes: Vec::new(),
    };

    if units == 0 {
        notes.push(format!(
            "no {unit_name}: Elo, LOS, nElo and draw ratio cannot be computed"
        ));
    } else {
        let est: EloEstimate = estimate(&counts);
        let middle = counts.len() / 2;
        out.draw_ratio = finite(counts[middle] as f64 / units as f64);
        out.los = finite(est.los);
        let top = counts.len() - 1;
        let all_lost = counts[0] == units;
        let all_won = counts[top] == units;
        if all_lost || all_won {
            // The score is 0 or 1: the Elo difference has no finite estimate.
            let what = if all_won { "won" } else { "lost" };
            notes.push(format!(
                "all {unit_name} {what}: the Elo difference is unbounded, Elo and nElo cannot be computed"
            ));
        } else {
            out.elo = finite(est.elo);
            out.elo_err95 = finite(est.elo_err95);
            out.elo_ci95 = Some(est.elo_ci95).filter(|(a, b)| a.is_finite() && b.is_finite());
            out.nelo = finite(est.nelo);
            out.nelo_err95 = finite(est.nelo_err95);
        }
    }
    if let Some(p) = ptnml {
        let [ll, ld, _, wd, ww] = p.counts;
        if ll > 0 || ld > 0 {
            out.pairs_ratio = finite((wd as f64 + ww as f64) / (ll as f64 + ld as f64));
        }
    }

    if let Some(cfg) = sprt {
        let (lower, upper) = cfg.bounds();
        out.llr_lower = finite(lower);
        out.llr_upper = finite(upper);
        out.model = Some(cfg.model);
        out.llr = if units == 0 {
            // No evidence either way.
            Some(0.0)
        } else {
            match cfg.llr(tri, ptnml) {
                Ok(llr) => finite(llr),
                Err(err @ LlrError::NoSolution(_)) => {
                    notes.push(format!("LLR cannot be computed: {err}"));
                    None
                }
            }
        };
        out.state = Some(out.llr.map_or(SprtState::Continue, |llr| cfg.decide(llr)));
    }
    out.notes = notes;
    out
}

/// `Some(x)` for finite x (with −0 as 0), `None` otherwise.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x + 0.0)
}

impl Summary {
    /// The SPRT state ([`SprtState::Continue`] when no SPRT was asked for).
    pub fn state(&self) -> SprtState {
        self.state.unwrap_or(SprtState::Continue)
    }

    /// The JSON object (one line).
    pub fn to_json(&self) -> String {
        // Only plain numbers, strings and nulls: serialisation cannot fail.
        serde_json::to_string(self).unwrap_or_else(|_| "{}".to_owned())
    }

    /// The report in fastchess's format, one line each (newline-terminated):
    /// `Elo: 12.01 +/- 7.87, nElo: 17.57 +/- 11.52`, `LOS: 99.86 %, DrawRatio: 53.20 %`,
    /// `Games: .., Wins: .., Losses: .., Draws: .., Points: .. (.. %)`, `Ptnml(0-2): [..]`,
    /// `LLR: 2.95 (100.1%) (-2.94, 2.94) [0.00, 5.00]` and the SPRT decision. Values that
    /// cannot be computed read `n/a`, followed by `Note:` lines saying why.
    pub fn fastchess_text(&self) -> String {
        let mut s = String::new();
        s += &format!(
            "Elo: {}, nElo: {}\n",
            plus_minus(self.elo, self.elo_err95),
            plus_minus(self.nelo, self.nelo_err95)
        );
        s += &format!(
            "LOS: {}, DrawRatio: {}",
            percent(self.los),
            percent(self.draw_ratio)
        );
        if self.pentanomial.is_some() {
            match self.pairs_ratio {
                Some(r) => s += &format!(", PairsRatio: {r:.2}"),
                None => s += ", PairsRatio: n/a",
            }
        }
        s += "\n";
        let t = &self.trinomial;
        let games = t.games();
        let points_share = if games > 0 {
            format!("{:.2} %", 100.0 * t.points() / games as f64)
        } else {
            "n/a".to_owned()
        };
        s += &format!(
            "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({points_share})\n",
            t.wins,
            t.losses,
            t.draws,
            t.points()
        );
        if let Some(p) = &self.pentanomial {
            let [a, b, c, d, e] = p.counts;
            s += &format!("Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}]\n");
        }
        if let (Some(cfg), Some(lower), Some(upper)) = (&self.sprt, self.llr_lower, self.llr_upper)
        {
            let elo_range = format!("[{:.2}, {:.2}]", cfg.elo0, cfg.elo1);
            match self.llr {
                Some(llr) => {
                    // fastchess: the share of the bound on the LLR's side (negative below 0).
                    let fraction = if llr >= 0.0 {
                        llr / upper
                    } else {
                        -llr / lower
                    };
                    s += &format!(
                        "LLR: {} ({}%) ({lower:.2}, {upper:.2}) {elo_range}\n",
                        fixed2(llr),
                        fixed(100.0 * fraction, 1)
                    );
                }
                None => s += &format!("LLR: n/a ({lower:.2}, {upper:.2}) {elo_range}\n"),
            }
            s += &match self.state() {
                SprtState::AcceptH1 => format!("SPRT ({elo_range}) completed - H1 was accepted\n"),
                SprtState::AcceptH0 => format!("SPRT ({elo_range}) completed - H0 was accepted\n"),
                SprtState::Continue => format!("SPRT ({elo_range}) continues - no decision yet\n"),
            };
        }
        for note in &self.notes {
            s += &format!("Note: {note}\n");
        }
        s
    }
}

fn plus_minus(value: Option<f64>, err: Option<f64>) -> String {
    match (value, err) {
        (Some(v), Some(e)) => format!("{} +/- {}", fixed2(v), fixed2(e)),
        (Some(v), None) => format!("{} +/- n/a", fixed2(v)),
        _ => "n/a".to_owned(),
    }
}

fn percent(fraction: Option<f64>) -> String {
    fraction.map_or_else(|| "n/a".to_owned(), |f| format!("{} %", fixed2(100.0 * f)))
}

/// Two decimals, without the "-0.00" that float noise around 0 would print.
fn fixed2(x: f64) -> String {
    fixed(x, 2)
}

/// `decimals` decimals, never "-0.0…".
fn fixed(x: f64, decimals: usize) -> String {
    let s = format!("{x:.decimals$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_owned(),
        _ => s,
    }
}
