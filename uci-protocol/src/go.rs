//! The parameters of `go`.

use std::fmt;

use shakmaty::uci::UciMove;

use crate::ParseError;
use crate::tokens::{field, leading_moves, moves, number, shown};

/// Every parameter of `go`; times in milliseconds, as on the wire.
///
/// Clock times may be negative: GUIs send them when a clock has run out.
///
/// ```
/// use uci_protocol::Go;
/// let go: Go = "nodes 5000 searchmoves e2e4 d2d4 ponder".parse().unwrap();
/// assert_eq!(go.nodes, Some(5000));
/// assert_eq!(go.searchmoves.len(), 2);
/// assert!(go.ponder);
/// assert_eq!(go.to_string(), "searchmoves e2e4 d2d4 ponder nodes 5000");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Restrict the root to these moves (empty: all moves).
    pub searchmoves: Vec<UciMove>,
    pub ponder: bool,
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    /// Stockfish's extension: count the leaf nodes to this depth instead of searching.
    pub perft: Option<u32>,
}

impl Go {
    /// Parses the tokens after `go`. Unknown tokens and bad values become warnings and are
    /// otherwise skipped.
    pub(crate) fn from_tokens(tokens: &[&str], warnings: &mut Vec<ParseError>) -> Go {
        const C: &str = "go";
        let mut go = Go::default();
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
            match key {
                "ponder" => go.ponder = true,
                "infinite" => go.infinite = true,
                "searchmoves" => {
                    go.searchmoves = leading_moves(&tokens[i..]);
                    if go.searchmoves.is_empty() {
                        keep(Err(ParseError::MissingValue {
                            command: C,
                            key: "searchmoves",
                        }));
                    }
                    i += go.searchmoves.len();
                }
                "wtime" | "btime" | "winc" | "binc" => {
                    let key = match key {
                        "wtime" => "wtime",
                        "btime" => "btime",
                        "winc" => "winc",
                        _ => "binc",
                    };
                    let parsed = number(C, key, value, i64::MIN / 2, i64::MAX / 2);
                    let slot = match key {
                        "wtime" => &mut go.wtime,
                        "btime" => &mut go.btime,
                        "winc" => &mut go.winc,
                        _ => &mut go.binc,
                    };
                    keep(parsed.map(|v| *slot = Some(v)));
                    i += usize::from(value.is_some());
                }
                "movetime" => {
                    keep(
                        number(C, "movetime", value, 0, u64::MAX / 2)
                            .map(|v| go.movetime = Some(v)),
                    );
                    i += usize::from(value.is_some());
                }
                "nodes" => {
                    keep(number(C, "nodes", value, 1, u64::MAX).map(|v| go.nodes = Some(v)));
                    i += usize::from(value.is_some());
                }
                "movestogo" | "depth" | "mate" | "perft" => {
                    let key = match key {
                        "movestogo" => "movestogo",
                        "depth" => "depth",
                        "mate" => "mate",
                        _ => "perft",
                    };
                    let parsed = number(C, key, value, 1, u32::MAX);
                    let slot = match key {
                        "movestogo" => &mut go.movestogo,
                        "depth" => &mut go.depth,
                        "mate" => &mut go.mate,
                        _ => &mut go.perft,
                    };
                    keep(parsed.map(|v| *slot = Some(v)));
                    i += usize::from(value.is_some());
                }
                other => keep(Err(ParseError::UnknownToken {
                    command: C,
                    token: shown(other),
                })),
            }
        }
        go
    }

    /// The parameters alone, without the leading `go` (empty for a bare `go`).
    fn write_fields(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        moves(f, "searchmoves", &self.searchmoves)?;
        if self.ponder {
            f.write_str(" ponder")?;
        }
        field(f, "wtime", self.wtime)?;
        field(f, "btime", self.btime)?;
        field(f, "winc", self.winc)?;
        field(f, "binc", self.binc)?;
        field(f, "movestogo", self.movestogo)?;
        field(f, "depth", self.depth)?;
        field(f, "nodes", self.nodes)?;
        field(f, "mate", self.mate)?;
        field(f, "movetime", self.movetime)?;
        if self.infinite {
            f.write_str(" infinite")?;
        }
        field(f, "perft", self.perft)
    }
}

/// The parameters as after `go ` (`GuiMessage::Go` adds the `go`).
impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = GoFields(self).to_string();
        f.write_str(text.trim_start())
    }
}

/// `Go`'s fields with a leading space each, for `GuiMessage`'s Display.
pub(crate) struct GoFields<'a>(pub(crate) &'a Go);

impl fmt::Display for GoFields<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_fields(f)
    }
}

/// Parses the parameters as after `go ` (unknown tokens skipped, bad values an error).
impl std::str::FromStr for Go {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Go, ParseError> {
        let tokens: Vec<&str> = s.split_whitespace().collect();
        let mut warnings = Vec::new();
        let go = Go::from_tokens(&tokens, &mut warnings);
        match warnings.into_iter().find(|w| !w.is_unknown_token()) {
            Some(error) => Err(error),
            None => Ok(go),
        }
    }
}
