//! EPD books: one position per line, 4 FEN fields (or 6, with the move counters), then
//! optional opcodes such as `bm e4; id "x";`, which are ignored.

use std::io::BufRead;

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

use super::{BookError, OnBadEntry, Opening};

/// Reads every position; returns the openings and the number of bad lines skipped.
pub(super) fn read(
    reader: Box<dyn BufRead>,
    name: &str,
    on_bad: OnBadEntry,
) -> Result<(Vec<Opening>, usize), BookError> {
    let mut openings = Vec::new();
    let mut skipped = 0;
    for item in super::lines(reader, name) {
        let (line_no, line) = item?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line) {
            Ok(pos) => openings.push(Opening {
                start: pos.clone(),
                moves: Vec::new(),
                position: pos,
            }),
            Err(message) => match on_bad {
                OnBadEntry::Fail => {
                    return Err(BookError {
                        file: name.to_string(),
                        line: line_no,
                        message,
                    });
                }
                OnBadEntry::Skip => skipped += 1,
            },
        }
    }
    Ok((openings, skipped))
}

/// Parses one EPD line into a position that still has a game to play.
pub fn parse_line(line: &str) -> Result<Chess, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!(
            "'{line}' is not an EPD position (needs at least 4 FEN fields)"
        ));
    }
    let counters_given = fields.len() >= 6
        && fields[4].parse::<u32>().is_ok()
        && fields[5].trim_end_matches(';').parse::<u32>().is_ok();
    let fen_text = if counters_given {
        format!(
            "{} {}",
            fields[..5].join(" "),
            fields[5].trim_end_matches(';')
        )
    } else {
        format!("{} 0 1", fields[..4].join(" "))
    };
    let fen = Fen::from_ascii(fen_text.as_bytes())
        .map_err(|e| format!("bad FEN '{}': {e}", fields[..4].join(" ")))?;
    let pos: Chess = fen
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("illegal position '{}': {e}", fields[..4].join(" ")))?;
    if pos.is_game_over() {
        return Err(format!(
            "'{}': the game is already over in this position",
            fields[..4].join(" ")
        ));
    }
    Ok(pos)
}
