//! Messages from the engine to the GUI.

use std::fmt;
use std::str::FromStr;

use shakmaty::uci::UciMove;

use crate::info::InfoFields;
use crate::tokens::{shown, uci_move};
use crate::{Info, OptionDecl, ParseError, Parsed};

/// The state in `copyprotection` and `registration` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Checking,
    Ok,
    Error,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Checking => "checking",
            Status::Ok => "ok",
            Status::Error => "error",
        }
    }
}

/// One line from the engine.
///
/// ```
/// use uci_protocol::{EngineMessage, UciMove};
/// let msg: EngineMessage = "bestmove e2e4 ponder e7e5".parse().unwrap();
/// let EngineMessage::BestMove { best, ponder } = &msg else { unreachable!() };
/// assert_eq!(best.to_string(), "e2e4");
/// assert_eq!(ponder.as_ref().map(UciMove::to_string).as_deref(), Some("e7e5"));
/// assert_eq!(msg.to_string(), "bestmove e2e4 ponder e7e5");
/// // Extra fields of other engines are skipped.
/// let info: EngineMessage = "info depth 3 bmc 0.25 score cp 7 pv g1f3".parse().unwrap();
/// assert_eq!(info.to_string(), "info depth 3 score cp 7 pv g1f3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineMessage {
    IdName(String),
    IdAuthor(String),
    UciOk,
    ReadyOk,
    /// `bestmove 0000` (or Stockfish's `(none)`) when there is no legal move.
    BestMove {
        best: UciMove,
        ponder: Option<UciMove>,
    },
    CopyProtection(Status),
    Registration(Status),
    Info(Info),
    Option(OptionDecl),
}

impl EngineMessage {
    /// Parses a line, skipping unknown `info` tokens and `info` fields with bad values (each
    /// listed in the warnings). Fails on an empty line, an unknown message or another
    /// malformed message.
    pub fn parse_lenient(line: &str) -> Result<Parsed<EngineMessage>, ParseError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let (&head, rest) = tokens.split_first().ok_or(ParseError::Empty)?;
        let mut warnings = Vec::new();
        let message = match head {
            "id" => match rest {
                ["name", name @ ..] => EngineMessage::IdName(name.join(" ")),
                ["author", author @ ..] => EngineMessage::IdAuthor(author.join(" ")),
                _ => {
                    return Err(ParseError::Missing {
                        command: "id",
                        what: "'name <x>' or 'author <x>'",
                    });
                }
            },
            "uciok" => EngineMessage::UciOk,
            "readyok" => EngineMessage::ReadyOk,
            "bestmove" => parse_bestmove(rest)?,
            "copyprotection" => {
                EngineMessage::CopyProtection(parse_status("copyprotection", rest)?)
            }
            "registration" => EngineMessage::Registration(parse_status("registration", rest)?),
            "info" => EngineMessage::Info(Info::from_tokens(rest, &mut warnings)),
            "option" => EngineMessage::Option(OptionDecl::from_tokens(rest)?),
            other => return Err(ParseError::UnknownCommand(shown(other))),
        };
        Ok(Parsed { message, warnings })
    }
}

fn parse_bestmove(tokens: &[&str]) -> Result<EngineMessage, ParseError> {
    const C: &str = "bestmove";
    let bad_move = |key: &'static str, token: &str| ParseError::BadValue {
        command: C,
        key,
        value: shown(token),
        accepted: "a UCI move or 0000".to_string(),
    };
    let best = match tokens.first() {
        None => {
            return Err(ParseError::Missing {
                command: C,
                what: "the move",
            });
        }
        Some(token) => uci_move(token).ok_or_else(|| bad_move("bestmove", token))?,
    };
    let ponder = match &tokens[1..] {
        [] => None,
        ["ponder", token] => Some(uci_move(token).ok_or_else(|| bad_move("ponder", token))?),
        // Some engines write `ponder (none)` or nothing after `ponder`.
        ["ponder"] => None,
        [token, ..] => {
            return Err(ParseError::Unexpected {
                command: C,
                token: shown(token),
                expected: "'ponder <move>' or the end of the line",
            });
        }
    };
    Ok(EngineMessage::BestMove { best, ponder })
}

fn parse_status(command: &'static str, tokens: &[&str]) -> Result<Status, ParseError> {
    match tokens {
        ["checking"] => Ok(Status::Checking),
        ["ok"] => Ok(Status::Ok),
        ["error"] => Ok(Status::Error),
        _ => Err(ParseError::Missing {
            command,
            what: "'checking', 'ok' or 'error'",
        }),
    }
}

/// Parses one line: unknown `info` tokens are skipped, any other problem is an error.
impl FromStr for EngineMessage {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<EngineMessage, ParseError> {
        let parsed = EngineMessage::parse_lenient(line)?;
        match parsed.warnings.into_iter().find(|w| !w.is_unknown_token()) {
            Some(error) => Err(error),
            None => Ok(parsed.message),
        }
    }
}

impl fmt::Display for EngineMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineMessage::IdName(name) => write!(f, "id name {name}"),
            EngineMessage::IdAuthor(author) => write!(f, "id author {author}"),
            EngineMessage::UciOk => f.write_str("uciok"),
            EngineMessage::ReadyOk => f.write_str("readyok"),
            EngineMessage::BestMove { best, ponder } => {
                write!(f, "bestmove {best}")?;
                crate::tokens::field(f, "ponder", ponder.as_ref())
            }
            EngineMessage::CopyProtection(s) => write!(f, "copyprotection {}", s.as_str()),
            EngineMessage::Registration(s) => write!(f, "registration {}", s.as_str()),
            EngineMessage::Info(info) => write!(f, "info{}", InfoFields(info)),
            EngineMessage::Option(option) => write!(f, "option {option}"),
        }
    }
}
