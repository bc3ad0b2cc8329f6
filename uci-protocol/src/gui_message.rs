//! Messages from the GUI to the engine.

use std::fmt;
use std::str::FromStr;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;

use crate::go::GoFields;
use crate::tokens::shown;
use crate::{Go, ParseError, Parsed};

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    StartPos,
    Fen(Fen),
}

/// The argument of `register`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Registration {
    Later,
    Name { name: String, code: String },
}

/// One line from the GUI.
///
/// ```
/// use uci_protocol::{GuiMessage, StartPosition};
/// let line = "position startpos moves e2e4 e7e5";
/// let msg: GuiMessage = line.parse().unwrap();
/// let GuiMessage::Position { start, moves } = &msg else { unreachable!() };
/// assert_eq!(*start, StartPosition::StartPos);
/// assert_eq!(moves.len(), 2);
/// assert_eq!(msg.to_string(), line);
///
/// let option: GuiMessage = "setoption name Clear Hash".parse().unwrap();
/// assert_eq!(option, GuiMessage::SetOption { name: "Clear Hash".into(), value: None });
/// assert!("position startpos moves e2e9".parse::<GuiMessage>().unwrap_err().to_string().contains("e2e9"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuiMessage {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register(Registration),
    UciNewGame,
    Position {
        start: StartPosition,
        moves: Vec<UciMove>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Quit,
}

impl GuiMessage {
    /// Parses a line, skipping unknown `go` tokens and `go` fields with bad values (each
    /// listed in the warnings). Fails on an empty line, an unknown command or a malformed
    /// command other than `go`.
    pub fn parse_lenient(line: &str) -> Result<Parsed<GuiMessage>, ParseError> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let (&head, rest) = tokens.split_first().ok_or(ParseError::Empty)?;
        let mut warnings = Vec::new();
        let no_arguments = |message: GuiMessage| match rest.first() {
            None => Ok(message),
            Some(token) => Err(ParseError::Unexpected {
                command: command_name(&message),
                token: shown(token),
                expected: "no arguments",
            }),
        };
        let message = match head {
            "uci" => no_arguments(GuiMessage::Uci)?,
            "isready" => no_arguments(GuiMessage::IsReady)?,
            "ucinewgame" => no_arguments(GuiMessage::UciNewGame)?,
            "stop" => no_arguments(GuiMessage::Stop)?,
            "ponderhit" => no_arguments(GuiMessage::PonderHit)?,
            "quit" => no_arguments(GuiMessage::Quit)?,
            "debug" => match rest {
                ["on"] => GuiMessage::Debug(true),
                ["off"] => GuiMessage::Debug(false),
                [] => {
                    return Err(ParseError::Missing {
                        command: "debug",
                        what: "'on' or 'off'",
                    });
                }
                [token, ..] => {
                    return Err(ParseError::Unexpected {
                        command: "debug",
                        token: shown(token),
                        expected: "'on' or 'off'",
                    });
                }
            },
            "setoption" => parse_setoption(rest)?,
            "register" => GuiMessage::Register(parse_register(rest)?),
            "position" => parse_position(rest)?,
            "go" => GuiMessage::Go(Go::from_tokens(rest, &mut warnings)),
            other => return Err(ParseError::UnknownCommand(shown(other))),
        };
        Ok(Parsed { message, warnings })
    }
}

fn command_name(message: &GuiMessage) -> &'static str {
    match message {
        GuiMessage::Uci => "uci",
        GuiMessage::Debug(_) => "debug",
        GuiMessage::IsReady => "isready",
        GuiMessage::SetOption { .. } => "setoption",
        GuiMessage::Register(_) => "register",
        GuiMessage::UciNewGame => "ucinewgame",
        GuiMessage::Position { .. } => "position",
        GuiMessage::Go(_) => "go",
        GuiMessage::Stop => "stop",
        GuiMessage::PonderHit => "ponderhit",
        GuiMessage::Quit => "quit",
    }
}

/// `setoption name <words> [value <words>]`: the name runs up to `value`.
fn parse_setoption(tokens: &[&str]) -> Result<GuiMessage, ParseError> {
    const C: &str = "setoption";
    match tokens.first() {
        Some(&"name") => {}
        Some(token) => {
            return Err(ParseError::Unexpected {
                command: C,
                token: shown(token),
                expected: "'name'",
            });
        }
        None => {
            return Err(ParseError::Missing {
                command: C,
                what: "'name <id> [value <x>]'",
            });
        }
    }
    let value_at = tokens.iter().position(|t| *t == "value");
    let name = tokens[1..value_at.unwrap_or(tokens.len())].join(" ");
    if name.is_empty() {
        return Err(ParseError::Missing {
            command: C,
            what: "option name",
        });
    }
    let value = value_at.map(|i| tokens[i + 1..].join(" "));
    Ok(GuiMessage::SetOption { name, value })
}

/// `register later` or `register name <words> code <words>`.
fn parse_register(tokens: &[&str]) -> Result<Registration, ParseError> {
    const C: &str = "register";
    if tokens == ["later"] {
        return Ok(Registration::Later);
    }
    let code_at = tokens.iter().position(|t| *t == "code");
    match (tokens.first(), code_at) {
        (Some(&"name"), Some(code_at)) if code_at > 1 && code_at + 1 < tokens.len() => {
            Ok(Registration::Name {
                name: tokens[1..code_at].join(" "),
                code: tokens[code_at + 1..].join(" "),
            })
        }
        _ => Err(ParseError::Missing {
            command: C,
            what: "'later' or 'name <name> code <code>'",
        }),
    }
}

/// `position startpos|fen <fen> [moves <m>...]`.
fn parse_position(tokens: &[&str]) -> Result<GuiMessage, ParseError> {
    const C: &str = "position";
    let moves_at = tokens.iter().position(|t| *t == "moves");
    let setup = &tokens[..moves_at.unwrap_or(tokens.len())];
    let start = match setup {
        ["startpos"] => StartPosition::StartPos,
        ["fen"] => {
            return Err(ParseError::Missing {
                command: C,
                what: "FEN after 'fen'",
            });
        }
        ["fen", fen @ ..] => {
            let text = fen.join(" ");
            StartPosition::Fen(text.parse().map_err(|e| ParseError::BadValue {
                command: C,
                key: "fen",
                value: shown(&text),
                accepted: format!("a FEN ({e})"),
            })?)
        }
        [] => {
            return Err(ParseError::Missing {
                command: C,
                what: "'startpos' or 'fen <fen>'",
            });
        }
        [token, ..] => {
            return Err(ParseError::Unexpected {
                command: C,
                token: shown(token),
                expected: "'startpos' or 'fen <fen>'",
            });
        }
    };
    let moves = match moves_at {
        None => Vec::new(),
        Some(at) => tokens[at + 1..]
            .iter()
            .map(|t| {
                t.parse::<UciMove>().map_err(|_| ParseError::BadValue {
                    command: C,
                    key: "moves",
                    value: shown(t),
                    accepted: "UCI moves such as e2e4, e7e8q, e1h1 (Chess960)".to_string(),
                })
            })
            .collect::<Result<_, _>>()?,
    };
    Ok(GuiMessage::Position { start, moves })
}

/// Parses one line strictly: unknown `go` tokens are skipped, any other problem is an error.
impl FromStr for GuiMessage {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<GuiMessage, ParseError> {
        let parsed = GuiMessage::parse_lenient(line)?;
        match parsed.warnings.into_iter().find(|w| !w.is_unknown_token()) {
            Some(error) => Err(error),
            None => Ok(parsed.message),
        }
    }
}

impl fmt::Display for GuiMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuiMessage::Uci => f.write_str("uci"),
            GuiMessage::Debug(on) => f.write_str(if *on { "debug on" } else { "debug off" }),
            GuiMessage::IsReady => f.write_str("isready"),
            GuiMessage::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(value) => write!(f, " value {value}"),
                    None => Ok(()),
                }
            }
            GuiMessage::Register(Registration::Later) => f.write_str("register later"),
            GuiMessage::Register(Registration::Name { name, code }) => {
                write!(f, "register name {name} code {code}")
            }
            GuiMessage::UciNewGame => f.write_str("ucinewgame"),
            GuiMessage::Position { start, moves } => {
                match start {
                    StartPosition::StartPos => f.write_str("position startpos")?,
                    StartPosition::Fen(fen) => write!(f, "position fen {fen}")?,
                }
                crate::tokens::moves(f, "moves", moves)
            }
            GuiMessage::Go(go) => write!(f, "go{}", GoFields(go)),
            GuiMessage::Stop => f.write_str("stop"),
            GuiMessage::PonderHit => f.write_str("ponderhit"),
            GuiMessage::Quit => f.write_str("quit"),
        }
    }
}
