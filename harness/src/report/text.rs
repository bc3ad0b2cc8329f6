//! Numbers and sentences shared by the Markdown and HTML reports, so both say the same thing.

use crate::stats::{SprtConfig, SprtState};

use super::RunReport;
use super::analysis::Wdl;

/// `12.34 ± 5.67`, or `n/a` when it cannot be computed.
pub fn with_error(value: Option<f64>, err: Option<f64>) -> String {
    match (value, err) {
        (Some(v), Some(e)) => format!("{v:.2} ± {e:.2}"),
        (Some(v), None) => format!("{v:.2}"),
        _ => "n/a".into(),
    }
}

/// The 95% interval `[lo, hi]`, or `n/a`.
pub fn interval(value: Option<f64>, err: Option<f64>) -> String {
    match (value, err) {
        (Some(v), Some(e)) => format!("[{:.2}, {:.2}]", v - e, v + e),
        _ => "n/a".into(),
    }
}

/// A fraction in [0, 1] as a percentage, or `n/a`.
pub fn percent(fraction: Option<f64>) -> String {
    fraction.map_or("n/a".into(), |f| format!("{:.2} %", 100.0 * f))
}

/// A plain number with `decimals`, or `n/a`.
pub fn number(value: Option<f64>, decimals: usize) -> String {
    value.map_or("n/a".into(), |v| format!("{v:.decimals$}"))
}

/// A whole number with thin groups: 1234567 → "1,234,567".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `W-D-L (score %)` of a results line.
pub fn wdl_line(wdl: &Wdl) -> String {
    format!(
        "+{} ={} -{} ({})",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        wdl.score_percent()
            .map_or("n/a".into(), |s| format!("{s:.1} %"))
    )
}

/// `[0.00, 5.00] α=0.05 β=0.05 (normalized)`.
pub fn sprt_settings(sprt: &SprtConfig) -> String {
    format!(
        "[{:.2}, {:.2}], α = {}, β = {} ({} Elo)",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        sprt.model.name()
    )
}

/// "built-in engine, default parameters" or "..., N parameters changed from the defaults".
pub fn builtin_description(params: &engine::params::Params) -> String {
    match params.diff(&engine::params::Params::default()).len() {
        0 => "built-in engine, default parameters".into(),
        1 => "built-in engine, 1 parameter changed from the defaults".into(),
        n => format!("built-in engine, {n} parameters changed from the defaults"),
    }
}

/// How a report's verdict is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Good,
    Bad,
    Neutral,
}

/// The one-line verdict a reader looks for first, and its tone.
pub fn verdict(report: &RunReport) -> (String, Tone) {
    let a = &report.analysis;
    let s = &a.summary;
    match &a.sprt {
        Some(sprt) => match decision(report) {
            SprtState::AcceptH1 => (
                format!(
                    "H1 accepted: {} is stronger than {} (Elo ≥ {:.1} rather than ≤ {:.1}).",
                    a.first, a.second, sprt.elo1, sprt.elo0
                ),
                Tone::Good,
            ),
            SprtState::AcceptH0 => (
                format!(
                    "H0 accepted: {} is not {:.1} Elo stronger than {} (Elo ≤ {:.1} more likely).",
                    a.first, sprt.elo1, a.second, sprt.elo0
                ),
                Tone::Bad,
            ),
            SprtState::Continue => (
                format!(
                    "No decision yet: LLR {} is between the bounds {} and {}.",
                    number(s.llr, 2),
                    number(s.llr_lower, 2),
                    number(s.llr_upper, 2)
                ),
                Tone::Neutral,
            ),
        },
        None => {
            let tone = match (s.elo, s.elo_err95) {
                (Some(e), Some(err)) if e - err > 0.0 => Tone::Good,
                (Some(e), Some(err)) if e + err < 0.0 => Tone::Bad,
                _ => Tone::Neutral,
            };
            (
                format!(
                    "Fixed-length match, no SPRT: {} scored Elo {} against {} (LOS {}).",
                    a.first,
                    with_error(s.elo, s.elo_err95),
                    a.second,
                    percent(s.los)
                ),
                tone,
            )
        }
    }
}

/// The SPRT decision of the run: the one the match runner recorded in summary.json when
/// there is one (it stops with fishtest's overshoot-corrected bounds), else the final counts'.
pub fn decision(report: &RunReport) -> SprtState {
    let recorded = report.run.summary.as_ref().and_then(|s| s.state.as_deref());
    match recorded {
        Some("accepted") => SprtState::AcceptH1,
        Some("rejected") => SprtState::AcceptH0,
        Some("continue") => SprtState::Continue,
        _ => report.analysis.summary.state(),
    }
}

/// The SPRT state in words.
pub fn state_word(state: SprtState) -> &'static str {
    match state {
        SprtState::AcceptH1 => "H1 accepted",
        SprtState::AcceptH0 => "H0 accepted",
        SprtState::Continue => "continue",
    }
}

/// How the lopsided-openings table is read; `first` is the engine whose points are counted
/// (already escaped for HTML where needed).
pub fn lopsided_explanation(first: &str) -> String {
    format!(
        "Openings whose game pairs were furthest from an even result: net = {first}'s points minus the number of pairs (+1 for a pair {first} won twice, −1 for one it lost twice)."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(grouped(12), "12");
        assert_eq!(with_error(Some(1.0), Some(2.5)), "1.00 ± 2.50");
        assert_eq!(interval(Some(1.0), Some(2.5)), "[-1.50, 3.50]");
        assert_eq!(percent(None), "n/a");
        let wdl = Wdl {
            wins: 3,
            draws: 2,
            losses: 1,
        };
        assert_eq!(wdl_line(&wdl), "+3 =2 -1 (66.7 %)");
    }
}
