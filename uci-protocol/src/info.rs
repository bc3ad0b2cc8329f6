//! The fields of an `info` line.

use std::fmt;

use shakmaty::uci::UciMove;

use crate::ParseError;
use crate::tokens::{field, leading_moves, moves, number, shown};

/// A score in centipawns or in moves to mate (negative: the side to move is mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreValue {
    Cp(i32),
    Mate(i32),
}

/// Whether a score is exact or a bound from a failed aspiration window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Bound {
    #[default]
    Exact,
    Lower,
    Upper,
}

/// `score cp|mate <n> [lowerbound|upperbound]`, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub value: ScoreValue,
    pub bound: Bound,
}

impl Score {
    /// An exact score.
    pub fn exact(value: ScoreValue) -> Score {
        Score {
            value,
            bound: Bound::Exact,
        }
    }
}

/// The fields of one `info` line, each optional as engines send subsets.
///
/// ```
/// use uci_protocol::{Info, Score, ScoreValue};
/// let line = "depth 12 seldepth 18 multipv 1 score cp 18 wdl 38 925 37 nodes 20 nps 10000 \
///             hashfull 0 tbhits 0 time 2 pv e2e4 e7e5";
/// let info: Info = line.parse().unwrap();
/// assert_eq!(info.score, Some(Score::exact(ScoreValue::Cp(18))));
/// assert_eq!(info.pv.len(), 2);
/// // `wdl` is not UCI: skipped.
/// assert_eq!(
///     info.to_string(),
///     "depth 12 seldepth 18 multipv 1 score cp 18 nodes 20 nps 10000 hashfull 0 tbhits 0 time 2 pv e2e4 e7e5"
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub tbhits: Option<u64>,
    /// Milliseconds since the search started.
    pub time: Option<u64>,
    pub currmove: Option<UciMove>,
    pub currmovenumber: Option<u32>,
    pub pv: Vec<UciMove>,
    /// Free text to the end of the line.
    pub string: Option<String>,
}

impl Info {
    /// Parses the tokens after `info`; unknown tokens and bad values become warnings.
    pub(crate) fn from_tokens(tokens: &[&str], warnings: &mut Vec<ParseError>) -> Info {
        const C: &str = "info";
        let mut info = Info::default();
        let mut i = 0;
        while i < tokens.len() {
            let key = tokens[i];
            let value = tokens.get(i + 1).copied();
            i += 1;
            let mut keep = |result: Result<(), ParseError>| {
                if let Err(e) = result {
                    warnings.push(e);
                }
            };
            let consumed = usize::from(value.is_some());
            match key {
                "depth" => {
                    keep(number(C, "depth", value, 0, u32::MAX).map(|v| info.depth = Some(v)))
                }
                "seldepth" => {
                    keep(number(C, "seldepth", value, 0, u32::MAX).map(|v| info.seldepth = Some(v)))
                }
                "multipv" => {
                    keep(number(C, "multipv", value, 1, u32::MAX).map(|v| info.multipv = Some(v)))
                }
                "nodes" => {
                    keep(number(C, "nodes", value, 0, u64::MAX).map(|v| info.nodes = Some(v)))
                }
                "nps" => keep(number(C, "nps", value, 0, u64::MAX).map(|v| info.nps = Some(v))),
                "hashfull" => {
                    keep(number(C, "hashfull", value, 0, 1000).map(|v| info.hashfull = Some(v)))
                }
                "tbhits" => {
                    keep(number(C, "tbhits", value, 0, u64::MAX).map(|v| info.tbhits = Some(v)))
                }
                "time" => keep(number(C, "time", value, 0, u64::MAX).map(|v| info.time = Some(v))),
                "currmovenumber" => keep(
                    number(C, "currmovenumber", value, 1, u32::MAX)
                        .map(|v| info.currmovenumber = Some(v)),
                ),
                "currmove" => keep(match value.and_then(|v| v.parse().ok()) {
                    Some(m) => {
                        info.currmove = Some(m);
                        Ok(())
                    }
                    None => Err(ParseError::BadValue {
                        command: C,
                        key: "currmove",
                        value: shown(value.unwrap_or("")),
                        accepted: "a UCI move".to_string(),
                    }),
                }),
                "score" => {
                    let (score, used) = parse_score(&tokens[i..]);
                    keep(score.map(|s| info.score = Some(s)));
                    i += used;
                    continue;
                }
                "pv" => {
                    info.pv = leading_moves(&tokens[i..]);
                    i += info.pv.len();
                    continue;
                }
                "string" => {
                    info.string = Some(tokens[i..].join(" "));
                    break;
                }
                other => {
                    keep(Err(ParseError::UnknownToken {
                        command: C,
                        token: shown(other),
                    }));
                    continue;
                }
            }
            i += consumed;
        }
        info
    }
}

/// `cp|mate <n> [lowerbound|upperbound]` after `score`, and how many tokens it used.
fn parse_score(tokens: &[&str]) -> (Result<Score, ParseError>, usize) {
    const C: &str = "info";
    let kind = tokens.first().copied();
    let value = tokens.get(1).copied();
    let value = match kind {
        Some("cp") => number(C, "score cp", value, i32::MIN + 1, i32::MAX).map(ScoreValue::Cp),
        Some("mate") => {
            number(C, "score mate", value, i32::MIN + 1, i32::MAX).map(ScoreValue::Mate)
        }
        other => {
            let error = ParseError::BadValue {
                command: C,
                key: "score",
                value: shown(other.unwrap_or("")),
                accepted: "'cp <n>' or 'mate <n>'".to_string(),
            };
            return (Err(error), usize::from(other.is_some()));
        }
    };
    let mut used = 1 + usize::from(tokens.len() > 1);
    let bound = match tokens.get(2).copied() {
        Some("lowerbound") => Bound::Lower,
        Some("upperbound") => Bound::Upper,
        _ => Bound::Exact,
    };
    if bound != Bound::Exact {
        used += 1;
    }
    (value.map(|value| Score { value, bound }), used)
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            ScoreValue::Cp(cp) => write!(f, "cp {cp}")?,
            ScoreValue::Mate(n) => write!(f, "mate {n}")?,
        }
        match self.bound {
            Bound::Exact => Ok(()),
            Bound::Lower => f.write_str(" lowerbound"),
            Bound::Upper => f.write_str(" upperbound"),
        }
    }
}

/// The fields as after `info ` (`EngineMessage::Info` adds the `info`).
impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = InfoFields(self).to_string();
        f.write_str(text.trim_start())
    }
}

/// `Info`'s fields with a leading space each.
pub(crate) struct InfoFields<'a>(pub(crate) &'a Info);

impl fmt::Display for InfoFields<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let info = self.0;
        field(f, "depth", info.depth)?;
        field(f, "seldepth", info.seldepth)?;
        field(f, "multipv", info.multipv)?;
        field(f, "score", info.score)?;
        field(f, "nodes", info.nodes)?;
        field(f, "nps", info.nps)?;
        field(f, "hashfull", info.hashfull)?;
        field(f, "tbhits", info.tbhits)?;
        field(f, "time", info.time)?;
        field(f, "currmove", info.currmove)?;
        field(f, "currmovenumber", info.currmovenumber)?;
        moves(f, "pv", &info.pv)?;
        field(f, "string", info.string.as_deref())
    }
}

/// Parses the fields as after `info ` (unknown tokens skipped, bad values an error).
impl std::str::FromStr for Info {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Info, ParseError> {
        let tokens: Vec<&str> = s.split_whitespace().collect();
        let mut warnings = Vec::new();
        let info = Info::from_tokens(&tokens, &mut warnings);
        match warnings.into_iter().find(|w| !w.is_unknown_token()) {
            Some(error) => Err(error),
            None => Ok(info),
        }
    }
}
