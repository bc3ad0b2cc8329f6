//! The UCI text protocol as the GUI side sees it: parsing the engine's lines (`id`, `option`,
//! `info`, `bestmove`) and writing the GUI's commands (`position`, `go`, `setoption`).
//! Pure functions on strings; no processes here.

use std::fmt::Write as _;
use std::time::Duration;

use engine::search::{Limits, Score};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move};

/// FEN of the standard starting position, sent as `position startpos`.
const STANDARD_START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The kind of a UCI option, with what each kind allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check {
        default: Option<bool>,
    },
    Spin {
        default: Option<i64>,
        min: Option<i64>,
        max: Option<i64>,
    },
    Combo {
        default: Option<String>,
        vars: Vec<String>,
    },
    Button,
    String {
        default: Option<String>,
    },
}

/// One `option name ... type ...` line of the engine's `uci` answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciOptionSpec {
    pub name: String,
    pub kind: OptionKind,
}

impl UciOptionSpec {
    /// Checks `value` against the option's type and range; the error says what is allowed.
    pub fn check_value(&self, value: &str) -> Result<(), String> {
        match &self.kind {
            OptionKind::Check { .. } => match value.to_ascii_lowercase().as_str() {
                "true" | "false" => Ok(()),
                _ => Err(format!(
                    "option '{}' is a check: use true or false, not '{value}'",
                    self.name
                )),
            },
            OptionKind::Spin { min, max, .. } => {
                let v: i64 = value.trim().parse().map_err(|_| {
                    format!(
                        "option '{}' is a spin: '{value}' is not an integer",
                        self.name
                    )
                })?;
                let below = min.is_some_and(|m| v < m);
                let above = max.is_some_and(|m| v > m);
                if below || above {
                    let show = |b: Option<i64>| b.map_or("?".to_string(), |b| b.to_string());
                    return Err(format!(
                        "option '{}' = {v} is outside its range {}..={}",
                        self.name,
                        show(*min),
                        show(*max)
                    ));
                }
                Ok(())
            }
            OptionKind::Combo { vars, .. } => {
                if vars.iter().any(|v| v.eq_ignore_ascii_case(value)) {
                    Ok(())
                } else {
                    Err(format!(
                        "option '{}' is a combo: '{value}' is not one of {}",
                        self.name,
                        vars.join(", ")
                    ))
                }
            }
            OptionKind::Button | OptionKind::String { .. } => Ok(()),
        }
    }
}

/// Whether an `info` score is exact or a bound from an aspiration window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    Exact,
    Lower,
    Upper,
}

/// The fields of one `info` line that a match needs (each optional, as engines send subsets).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoLine {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub multipv: Option<u32>,
    /// Score from the side to move's view.
    pub score: Option<Score>,
    pub bound: Option<ScoreBound>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub hashfull: Option<u32>,
    pub time: Option<Duration>,
    /// The principal variation as the engine wrote it (UCI move text).
    pub pv: Vec<String>,
}

/// A line from the engine, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineLine {
    IdName(String),
    IdAuthor(String),
    Option(UciOptionSpec),
    UciOk,
    ReadyOk,
    Info(InfoLine),
    /// `info string ...` and other text the GUI only shows.
    InfoString(String),
    BestMove {
        best: String,
        ponder: Option<String>,
    },
    /// Anything else (banners, debug output): ignored by the protocol.
    Other(String),
}

/// Classifies one line of engine output.
pub fn parse_line(line: &str) -> EngineLine {
    let trimmed = line.trim();
    let mut words = trimmed.split_whitespace();
    match words.next() {
        Some("id") => match words.next() {
            Some("name") => EngineLine::IdName(rest_after(trimmed, 2)),
            Some("author") => EngineLine::IdAuthor(rest_after(trimmed, 2)),
            _ => EngineLine::Other(trimmed.to_string()),
        },
        Some("option") => match parse_option(trimmed) {
            Some(spec) => EngineLine::Option(spec),
            None => EngineLine::Other(trimmed.to_string()),
        },
        Some("uciok") => EngineLine::UciOk,
        Some("readyok") => EngineLine::ReadyOk,
        Some("info") => {
            if words.next() == Some("string") {
                EngineLine::InfoString(rest_after(trimmed, 2))
            } else {
                EngineLine::Info(parse_info(trimmed))
            }
        }
        Some("bestmove") => match words.next() {
            Some(best) => {
                let ponder = match (words.next(), words.next()) {
                    (Some("ponder"), Some(p)) => Some(p.to_string()),
                    _ => None,
                };
                EngineLine::BestMove {
                    best: best.to_string(),
                    ponder,
                }
            }
            None => EngineLine::BestMove {
                best: String::new(),
                ponder: None,
            },
        },
        _ => EngineLine::Other(trimmed.to_string()),
    }
}

/// The text after the first `n` words, with inner spacing kept.
fn rest_after(line: &str, n: usize) -> String {
    let mut rest = line;
    for _ in 0..n {
        rest = rest.trim_start();
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        rest = &rest[end..];
    }
    rest.trim().to_string()
}

/// Parses `option name <words> type <t> [default <v>] [min <n>] [max <n>] [var <v>]*`.
/// Names, defaults and vars may contain spaces, so values run up to the next keyword.
fn parse_option(line: &str) -> Option<UciOptionSpec> {
    const KEYWORDS: [&str; 6] = ["name", "type", "default", "min", "max", "var"];
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    let mut fields: Vec<(&str, String)> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        if !KEYWORDS.contains(&key) {
            return None;
        }
        let start = i + 1;
        let mut end = start;
        // The name may itself contain a keyword-looking word only before `type`.
        while end < words.len()
            && !(KEYWORDS.contains(&words[end]) && (key != "name" || words[end] == "type"))
        {
            end += 1;
        }
        fields.push((key, words[start..end].join(" ")));
        i = end;
    }
    let get = |k: &str| {
        fields
            .iter()
            .find(|(key, _)| *key == k)
            .map(|(_, v)| v.clone())
    };
    let name = get("name").filter(|n| !n.is_empty())?;
    let default = get("default").filter(|d| d != "<empty>");
    let int = |k: &str| get(k).and_then(|v| v.parse::<i64>().ok());
    let kind = match get("type")?.as_str() {
        "check" => OptionKind::Check {
            default: default.map(|d| d.eq_ignore_ascii_case("true")),
        },
        "spin" => OptionKind::Spin {
            default: default.and_then(|d| d.parse().ok()),
            min: int("min"),
            max: int("max"),
        },
        "combo" => OptionKind::Combo {
            default,
            vars: fields
                .iter()
                .filter(|(k, _)| *k == "var")
                .map(|(_, v)| v.clone())
                .collect(),
        },
        "button" => OptionKind::Button,
        "string" => OptionKind::String { default },
        _ => return None,
    };
    Some(UciOptionSpec { name, kind })
}

/// Parses the fields of an `info` line; unknown tokens are skipped.
fn parse_info(line: &str) -> InfoLine {
    let words: Vec<&str> = line.split_whitespace().skip(1).collect();
    let mut info = InfoLine::default();
    let mut i = 0;
    let next_num = |i: usize| words.get(i + 1).and_then(|w| w.parse::<i64>().ok());
    while i < words.len() {
        match words[i] {
            "depth" => info.depth = next_num(i).and_then(|v| u32::try_from(v).ok()),
            "seldepth" => info.seldepth = next_num(i).and_then(|v| u32::try_from(v).ok()),
            "multipv" => info.multipv = next_num(i).and_then(|v| u32::try_from(v).ok()),
            "nodes" => info.nodes = next_num(i).and_then(|v| u64::try_from(v).ok()),
            "nps" => info.nps = next_num(i).and_then(|v| u64::try_from(v).ok()),
            "hashfull" => info.hashfull = next_num(i).and_then(|v| u32::try_from(v).ok()),
            "time" => {
                info.time = next_num(i)
                    .and_then(|v| u64::try_from(v).ok())
                    .map(Duration::from_millis)
            }
            "score" => {
                let value = words.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                info.score = match (words.get(i + 1).copied(), value) {
                    (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                    _ => None,
                };
                info.bound = info.score.map(|_| ScoreBound::Exact);
                i += 3;
                continue;
            }
            "lowerbound" => info.bound = Some(ScoreBound::Lower),
            "upperbound" => info.bound = Some(ScoreBound::Upper),
            "pv" => {
                let rest = &words[i + 1..];
                let len = rest
                    .iter()
                    .position(|w| !looks_like_move(w))
                    .unwrap_or(rest.len());
                info.pv = rest[..len].iter().map(|w| w.to_string()).collect();
                i += 1 + len;
                continue;
            }
            // The rest of the line is free text.
            "string" => break,
            _ => {}
        }
        i += 1;
    }
    info
}

/// True for UCI move text (`e2e4`, `e7e8q`, `0000`), so a `pv` ends at the next keyword.
fn looks_like_move(word: &str) -> bool {
    word == "0000" || word.parse::<UciMove>().is_ok()
}

/// The `position` command for `moves` played from `start` (`startpos` when standard).
pub fn position_command(start: &Chess, moves: &[Move]) -> String {
    let fen = Fen::from_position(start, EnPassantMode::Legal).to_string();
    let mut command = if fen == STANDARD_START_FEN {
        String::from("position startpos")
    } else {
        format!("position fen {fen}")
    };
    if !moves.is_empty() {
        command.push_str(" moves");
        for m in moves {
            command.push(' ');
            UciMove::from_move(*m, CastlingMode::Standard).append_to_string(&mut command);
        }
    }
    command
}

/// The `go` command for these limits (`go infinite` is never sent by the harness).
pub fn go_command(limits: &Limits) -> String {
    let mut command = String::from("go");
    if let Some(clock) = &limits.clock {
        let _ = write!(
            command,
            " wtime {} btime {} winc {} binc {}",
            clock.white_time.as_millis(),
            clock.black_time.as_millis(),
            clock.white_increment.as_millis(),
            clock.black_increment.as_millis()
        );
        if let Some(mtg) = clock.moves_to_go {
            let _ = write!(command, " movestogo {mtg}");
        }
    }
    if let Some(depth) = limits.depth {
        let _ = write!(command, " depth {depth}");
    }
    if let Some(nodes) = limits.nodes {
        let _ = write!(command, " nodes {nodes}");
    }
    if let Some(movetime) = limits.movetime {
        let _ = write!(command, " movetime {}", movetime.as_millis());
    }
    if limits.infinite {
        command.push_str(" infinite");
    }
    command
}

/// The `setoption` command (a button when `value` is `None`).
pub fn setoption_command(name: &str, value: Option<&str>) -> String {
    match value {
        Some(v) => format!("setoption name {name} value {v}"),
        None => format!("setoption name {name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::search::Clock;

    #[test]
    fn parses_id_and_handshake_lines() {
        assert_eq!(
            parse_line("id name Stockfish 15.1"),
            EngineLine::IdName("Stockfish 15.1".into())
        );
        assert_eq!(
            parse_line("id author  the  authors "),
            EngineLine::IdAuthor("the  authors".into())
        );
        assert_eq!(parse_line("uciok\r"), EngineLine::UciOk);
        assert_eq!(parse_line("  readyok"), EngineLine::ReadyOk);
        assert!(matches!(
            parse_line("Stockfish 15.1 by the Stockfish developers"),
            EngineLine::Other(_)
        ));
    }

    #[test]
    fn parses_options_of_every_type() {
        let spin =
            parse_option("option name UCI_Elo type spin default 1350 min 1350 max 2850").unwrap();
        assert_eq!(spin.name, "UCI_Elo");
        assert_eq!(
            spin.kind,
            OptionKind::Spin {
                default: Some(1350),
                min: Some(1350),
                max: Some(2850)
            }
        );
        let button = parse_option("option name Clear Hash type button").unwrap();
        assert_eq!(
            button,
            UciOptionSpec {
                name: "Clear Hash".into(),
                kind: OptionKind::Button
            }
        );
        let string =
            parse_option("option name Debug Log File type string default <empty>").unwrap();
        assert_eq!(string.kind, OptionKind::String { default: None });
        let check = parse_option("option name Ponder type check default false").unwrap();
        assert_eq!(
            check.kind,
            OptionKind::Check {
                default: Some(false)
            }
        );
        let combo = parse_option(
            "option name Style type combo default Normal var Solid var Normal var Risky Play",
        )
        .unwrap();
        assert_eq!(
            combo.kind,
            OptionKind::Combo {
                default: Some("Normal".into()),
                vars: vec!["Solid".into(), "Normal".into(), "Risky Play".into()]
            }
        );
        // A name containing a keyword-like word.
        let odd =
            parse_option("option name Max Threads min type spin default 1 min 1 max 8").unwrap();
        assert_eq!(odd.name, "Max Threads min");
        assert!(parse_option("option name X").is_none());
        assert!(parse_option("option name X type weird").is_none());
    }

    #[test]
    fn checks_option_values() {
        let spin =
            parse_option("option name Hash type spin default 16 min 1 max 33554432").unwrap();
        assert!(spin.check_value("64").is_ok());
        assert!(
            spin.check_value("0")
                .unwrap_err()
                .contains("outside its range 1..=33554432")
        );
        assert!(
            spin.check_value("lots")
                .unwrap_err()
                .contains("not an integer")
        );
        let check = parse_option("option name UCI_LimitStrength type check default false").unwrap();
        assert!(check.check_value("true").is_ok());
        assert!(check.check_value("yes").is_err());
        let combo = parse_option("option name Style type combo default A var A var B").unwrap();
        assert!(combo.check_value("b").is_ok());
        assert!(combo.check_value("C").unwrap_err().contains("A, B"));
    }

    #[test]
    fn parses_info_lines() {
        let EngineLine::Info(info) = parse_line(
            "info depth 12 seldepth 18 multipv 1 score cp -35 upperbound nodes 123456 nps 999 hashfull 12 tbhits 0 time 120 pv e2e4 e7e5 g1f3",
        ) else {
            panic!("not info")
        };
        assert_eq!(info.depth, Some(12));
        assert_eq!(info.seldepth, Some(18));
        assert_eq!(info.multipv, Some(1));
        assert_eq!(info.score, Some(Score::Cp(-35)));
        assert_eq!(info.bound, Some(ScoreBound::Upper));
        assert_eq!(info.nodes, Some(123456));
        assert_eq!(info.nps, Some(999));
        assert_eq!(info.hashfull, Some(12));
        assert_eq!(info.time, Some(Duration::from_millis(120)));
        assert_eq!(info.pv, ["e2e4", "e7e5", "g1f3"]);

        let EngineLine::Info(mate) = parse_line("info depth 5 score mate -3 pv e7e8q bmc 0.5")
        else {
            panic!("not info")
        };
        assert_eq!(mate.score, Some(Score::Mate(-3)));
        assert_eq!(mate.bound, Some(ScoreBound::Exact));
        assert_eq!(mate.pv, ["e7e8q"], "the pv ends at the next non-move word");

        let EngineLine::Info(garbled) = parse_line("info depth x score cp nodes") else {
            panic!()
        };
        assert_eq!(garbled, InfoLine::default());
        assert_eq!(
            parse_line("info string hello world"),
            EngineLine::InfoString("hello world".into())
        );
    }

    #[test]
    fn parses_bestmove() {
        assert_eq!(
            parse_line("bestmove e2e4 ponder e7e5"),
            EngineLine::BestMove {
                best: "e2e4".into(),
                ponder: Some("e7e5".into())
            }
        );
        assert_eq!(
            parse_line("bestmove a7a8q"),
            EngineLine::BestMove {
                best: "a7a8q".into(),
                ponder: None
            }
        );
        assert_eq!(
            parse_line("bestmove"),
            EngineLine::BestMove {
                best: String::new(),
                ponder: None
            }
        );
    }

    #[test]
    fn writes_position_commands() {
        let start = Chess::default();
        assert_eq!(position_command(&start, &[]), "position startpos");
        let e4 = "e2e4".parse::<UciMove>().unwrap().to_move(&start).unwrap();
        assert_eq!(
            position_command(&start, &[e4]),
            "position startpos moves e2e4"
        );

        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let castle = "e1g1".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        assert_eq!(
            position_command(&pos, &[castle]),
            format!("position fen {fen} moves e1g1")
        );
    }

    #[test]
    fn writes_go_commands() {
        let clock = Clock {
            white_time: Duration::from_millis(2000),
            black_time: Duration::from_millis(1500),
            white_increment: Duration::from_millis(20),
            black_increment: Duration::from_millis(20),
            moves_to_go: Some(7),
        };
        let limits = Limits {
            clock: Some(clock),
            ..Limits::default()
        };
        assert_eq!(
            go_command(&limits),
            "go wtime 2000 btime 1500 winc 20 binc 20 movestogo 7"
        );
        let fixed = Limits {
            nodes: Some(5000),
            depth: Some(9),
            movetime: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        assert_eq!(go_command(&fixed), "go depth 9 nodes 5000 movetime 100");
        assert_eq!(
            setoption_command("Clear Hash", None),
            "setoption name Clear Hash"
        );
        assert_eq!(
            setoption_command("UCI_Elo", Some("1350")),
            "setoption name UCI_Elo value 1350"
        );
    }
}
