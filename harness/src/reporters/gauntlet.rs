//! The table of a gauntlet: one engine against a series of opponents (say Stockfish at
//! `UCI_Elo` 1800 … 2600), a row per opponent with its games, score and Elo.

use std::fmt::Write;
use std::path::PathBuf;

use crate::stats::Summary;

/// One finished (or stopped) match of a gauntlet.
#[derive(Clone, Debug)]
pub struct GauntletRow {
    /// The opponent as the table names it, e.g. `sf-2400`.
    pub opponent: String,
    /// The value of the varied key for this opponent, e.g. `2400`.
    pub value: String,
    pub summary: Summary,
    pub dir: PathBuf,
}

/// A Markdown table of the rows, from the first engine's view. When the varied key is a
/// rating (its name ends in `Elo`, as `UCI_Elo` does) and the value is a number, a column
/// gives the performance: the opponent's rating plus the measured Elo difference.
pub fn markdown_table(engine: &str, vary_key: &str, rows: &[GauntletRow]) -> String {
    let rating = vary_key.to_ascii_lowercase().ends_with("elo");
    let mut out = String::new();
    let _ = write!(
        out,
        "| {engine} against | games | W | D | L | score | Elo (95 %) | nElo (95 %) |"
    );
    out.push_str(if rating { " performance |\n" } else { "\n" });
    out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|");
    out.push_str(if rating { "---:|\n" } else { "\n" });
    for row in rows {
        let s = &row.summary;
        let t = &s.trinomial;
        let score = if s.games == 0 {
            "—".to_string()
        } else {
            format!(
                "{:.1} %",
                100.0 * (t.wins as f64 + 0.5 * t.draws as f64) / s.games as f64
            )
        };
        let _ = write!(
            out,
            "| {} ({vary_key}={}) | {} | {} | {} | {} | {score} | {} | {} |",
            row.opponent,
            row.value,
            s.games,
            t.wins,
            t.draws,
            t.losses,
            with_error(s.elo, s.elo_err95),
            with_error(s.nelo, s.nelo_err95),
        );
        if rating {
            let performance = match (row.value.parse::<f64>(), s.elo) {
                (Ok(v), Some(elo)) if elo.is_finite() => format!("{:.0}", v + elo),
                _ => "—".to_string(),
            };
            let _ = write!(out, " {performance} |");
        }
        out.push('\n');
    }
    out
}

fn with_error(value: Option<f64>, err: Option<f64>) -> String {
    match (value, err) {
        (Some(v), Some(e)) if v.is_finite() && e.is_finite() => format!("{v:+.1} ± {e:.1}"),
        (Some(v), _) if v.is_finite() => format!("{v:+.1}"),
        (Some(v), _) if v > 0.0 => "+∞ (no loss)".to_string(),
        (Some(_), _) => "−∞ (no win)".to_string(),
        _ => "—".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Trinomial, summarize};

    fn row(value: &str, wins: u64, draws: u64, losses: u64) -> GauntletRow {
        let tri = Trinomial {
            wins,
            draws,
            losses,
        };
        GauntletRow {
            opponent: format!("sf-{value}"),
            value: value.to_string(),
            summary: summarize(&tri, None, None),
            dir: PathBuf::from(format!("g/{value}")),
        }
    }

    #[test]
    fn a_rating_key_gets_a_performance_column() {
        let table = markdown_table(
            "ours",
            "option.UCI_Elo",
            &[row("1800", 15, 2, 3), row("2400", 3, 4, 13)],
        );
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        assert!(lines[0].ends_with("performance |"), "{table}");
        // 15 + 1 of 20: 80 %, Elo +240.8; performance 1800 + 241.
        assert!(lines[2].contains("| 80.0 % |"), "{table}");
        assert!(lines[2].ends_with("| 2041 |"), "{table}");
        // 3 + 2 of 20: 25 %, Elo −190.8; performance 2209.
        assert!(lines[3].contains("| 25.0 % |"), "{table}");
        assert!(lines[3].ends_with("| 2209 |"), "{table}");
    }

    #[test]
    fn other_keys_have_no_performance_and_empty_matches_show_dashes() {
        let table = markdown_table("ours", "nodes", &[row("1000", 0, 0, 0)]);
        assert!(!table.contains("performance"), "{table}");
        assert!(table.contains("| 0 | 0 | 0 | 0 | — | — | — |"), "{table}");
    }
}
