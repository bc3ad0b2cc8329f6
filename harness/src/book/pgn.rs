//! PGN books: each game's moves (from its FEN tag, or the standard start) up to `plies`.
//! Comments, variations, NAGs and move numbers are skipped ([`crate::pgn::scan`]).

use std::io::BufRead;

use shakmaty::Position;

use super::{BookError, OnBadEntry, Opening};
use crate::pgn::RawGame;

/// Reads every game; returns the openings and the number of bad games skipped.
pub(super) fn read(
    reader: Box<dyn BufRead>,
    name: &str,
    plies: Option<usize>,
    on_bad: OnBadEntry,
) -> Result<(Vec<Opening>, usize), BookError> {
    let mut openings = Vec::new();
    let mut skipped = 0;
    let mut finish = |game: RawGame| -> Result<(), BookError> {
        match build(&game, plies) {
            Ok(opening) => openings.push(opening),
            Err((line, message)) => match on_bad {
                OnBadEntry::Fail => {
                    return Err(BookError {
                        file: name.to_string(),
                        line,
                        message,
                    });
                }
                OnBadEntry::Skip => skipped += 1,
            },
        }
        Ok(())
    };

    crate::pgn::scan(super::lines(reader, name), &mut finish)?;
    Ok((openings, skipped))
}

/// Plays the game's first `plies` moves; an error names the line of the offending text.
fn build(game: &RawGame, plies: Option<usize>) -> Result<Opening, (usize, String)> {
    let start = game.start()?;
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let limit = plies.unwrap_or(usize::MAX);
    for played in game.moves.iter().take(limit) {
        let m = game.legal_move(played, &pos)?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    if pos.is_game_over() {
        return Err((
            game.first_line,
            "the game is already over after the book moves".to_string(),
        ));
    }
    Ok(Opening {
        start,
        moves,
        position: pos,
    })
}
