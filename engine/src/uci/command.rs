//! Parsing UCI input lines into commands, independent of any engine state.

use std::time::Duration;

use crate::search::{Clock, Limits};

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    Startpos,
    /// The FEN text (not yet validated).
    Fen(String),
}

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    Position {
        start: StartPosition,
        moves: Vec<String>,
    },
    /// `go`; `warnings` lists the parts that were not understood (and were ignored).
    Go {
        limits: Limits,
        warnings: Vec<String>,
    },
    Stop,
    PonderHit,
    Quit,
    /// `debug`, `register`: accepted and ignored.
    Ignored,
}

/// Parses one line. `Ok(None)` for a blank line; `Err` names what is wrong.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let mut tokens = line.split_whitespace();
    let Some(head) = tokens.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = tokens.collect();
    let command = match head {
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "ucinewgame" => Command::UciNewGame,
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "debug" | "register" => Command::Ignored,
        "setoption" => parse_setoption(&rest)?,
        "position" => parse_position(&rest)?,
        "go" => parse_go(&rest),
        other => return Err(format!("unknown command '{}'", truncate(other))),
    };
    Ok(Some(command))
}

fn truncate(text: &str) -> String {
    text.chars().take(40).collect()
}

fn parse_setoption(tokens: &[&str]) -> Result<Command, String> {
    if tokens.first() != Some(&"name") {
        return Err("setoption: expected 'setoption name <id> [value <x>]'".to_string());
    }
    let value_at = tokens.iter().position(|t| *t == "value");
    let name_tokens = &tokens[1..value_at.unwrap_or(tokens.len())];
    if name_tokens.is_empty() {
        return Err("setoption: missing option name".to_string());
    }
    let value = value_at.map(|i| tokens[i + 1..].join(" "));
    Ok(Command::SetOption {
        name: name_tokens.join(" "),
        value,
    })
}

fn parse_position(tokens: &[&str]) -> Result<Command, String> {
    let moves_at = tokens.iter().position(|t| *t == "moves");
    let setup = &tokens[..moves_at.unwrap_or(tokens.len())];
    let moves = moves_at.map_or_else(Vec::new, |i| {
        tokens[i + 1..].iter().map(|s| s.to_string()).collect()
    });
    let start = match setup {
        ["startpos"] => StartPosition::Startpos,
        ["fen", fen @ ..] if !fen.is_empty() => StartPosition::Fen(fen.join(" ")),
        ["fen"] => return Err("position fen: missing FEN".to_string()),
        _ => {
            return Err(format!(
                "position: expected 'startpos' or 'fen <fen>', got '{}'",
                truncate(&setup.join(" "))
            ));
        }
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(tokens: &[&str]) -> Command {
    let mut limits = Limits::default();
    let mut clock = Clock::default();
    let mut has_clock = false;
    let mut warnings = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let key = tokens[i];
        let takes_value = matches!(
            key,
            "depth" | "nodes" | "movetime" | "wtime" | "btime" | "winc" | "binc" | "movestogo"
        );
        if !takes_value {
            match key {
                "infinite" => limits.infinite = true,
                // Pondering is not offered; `go ponder` searches like `go infinite`.
                "ponder" => limits.infinite = true,
                other => warnings.push(format!("go: ignored '{}'", truncate(other))),
            }
            i += 1;
            continue;
        }
        let Some(text) = tokens.get(i + 1) else {
            warnings.push(format!("go: '{key}' needs a value"));
            break;
        };
        i += 2;
        // GUIs may send negative times when a clock ran out: count those as zero.
        let Ok(value) = text.parse::<i64>() else {
            warnings.push(format!("go: '{key} {}' is not an integer", truncate(text)));
            continue;
        };
        let non_negative = value.max(0) as u64;
        let ms = Duration::from_millis(non_negative);
        match key {
            "depth" => limits.depth = Some(non_negative.clamp(1, 1000) as u32),
            "nodes" => limits.nodes = Some(non_negative),
            "movetime" => limits.movetime = Some(ms),
            "wtime" => (clock.white_time, has_clock) = (ms, true),
            "btime" => (clock.black_time, has_clock) = (ms, true),
            "winc" => clock.white_increment = ms,
            "binc" => clock.black_increment = ms,
            "movestogo" => clock.moves_to_go = Some(non_negative.clamp(1, 1000) as u32),
            _ => unreachable!("checked by takes_value"),
        }
    }
    if has_clock {
        limits.clock = Some(clock);
    }
    Command::Go { limits, warnings }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_go_with_every_limit() {
        let Ok(Some(Command::Go { limits, warnings })) = parse(
            "go wtime 1000 btime -5 winc 10 binc 20 movestogo 7 depth 5 nodes 999 movetime 300",
        ) else {
            panic!()
        };
        assert!(warnings.is_empty());
        assert_eq!(limits.depth, Some(5));
        assert_eq!(limits.nodes, Some(999));
        assert_eq!(limits.movetime, Some(Duration::from_millis(300)));
        let clock = limits.clock.unwrap();
        assert_eq!(clock.white_time, Duration::from_millis(1000));
        assert_eq!(clock.black_time, Duration::ZERO);
        assert_eq!(clock.black_increment, Duration::from_millis(20));
        assert_eq!(clock.moves_to_go, Some(7));
        let Ok(Some(Command::Go { limits, warnings })) =
            parse("go infinite depth x searchmoves e2e4")
        else {
            panic!()
        };
        assert!(limits.infinite);
        assert_eq!(warnings.len(), 3, "{warnings:?}");
    }

    #[test]
    fn parses_position_and_setoption() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5").unwrap(),
            Some(Command::Position {
                start: StartPosition::Startpos,
                moves: vec!["e2e4".into(), "e7e5".into()],
            })
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1").unwrap(),
            Some(Command::Position {
                start: StartPosition::Fen("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()),
                moves: vec![],
            })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert_eq!(
            parse("setoption name Clear Hash").unwrap(),
            Some(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            parse("setoption name delta_margin value 150").unwrap(),
            Some(Command::SetOption {
                name: "delta_margin".into(),
                value: Some("150".into())
            })
        );
        assert!(parse("setoption value 3").is_err());
        assert!(parse("xyzzy").is_err());
        assert_eq!(parse("   ").unwrap(), None);
    }
}
