//! Helpers shared by the parsers: typed values after keywords.

use std::fmt::Display;
use std::str::FromStr;

use shakmaty::uci::UciMove;

use crate::ParseError;

/// Tokens longer than this are cut in error messages (a line may be garbage).
const SHOWN_CHARS: usize = 40;

pub(crate) fn shown(token: &str) -> String {
    let mut text: String = token.chars().take(SHOWN_CHARS).collect();
    if token.chars().count() > SHOWN_CHARS {
        text.push_str("...");
    }
    text
}

/// Parses `value` as a number in `min..=max`; the error names the key, value and range.
pub(crate) fn number<T>(
    command: &'static str,
    key: &'static str,
    value: Option<&str>,
    min: T,
    max: T,
) -> Result<T, ParseError>
where
    T: FromStr + PartialOrd + Display + Copy,
{
    let value = value.ok_or(ParseError::MissingValue { command, key })?;
    value
        .parse::<T>()
        .ok()
        .filter(|v| *v >= min && *v <= max)
        .ok_or_else(|| ParseError::BadValue {
            command,
            key,
            value: shown(value),
            accepted: format!("an integer in {min}..={max}"),
        })
}

/// A UCI move; Stockfish's `(none)` (no legal move) reads as the null move `0000`.
pub(crate) fn uci_move(token: &str) -> Option<UciMove> {
    if token == "(none)" {
        return Some(UciMove::Null);
    }
    token.parse().ok()
}

/// The moves at the start of `tokens` (a move list ends at the first word that is not one).
pub(crate) fn leading_moves(tokens: &[&str]) -> Vec<UciMove> {
    tokens
        .iter()
        .map_while(|t| t.parse::<UciMove>().ok())
        .collect()
}

/// Writes ` key value` when the value is present.
pub(crate) fn field(
    f: &mut std::fmt::Formatter<'_>,
    key: &str,
    value: Option<impl Display>,
) -> std::fmt::Result {
    match value {
        Some(v) => write!(f, " {key} {v}"),
        None => Ok(()),
    }
}

/// Writes ` key m1 m2 ...` when the list is not empty.
pub(crate) fn moves(
    f: &mut std::fmt::Formatter<'_>,
    key: &str,
    list: &[UciMove],
) -> std::fmt::Result {
    if list.is_empty() {
        return Ok(());
    }
    f.write_str(" ")?;
    f.write_str(key)?;
    for m in list {
        write!(f, " {m}")?;
    }
    Ok(())
}
