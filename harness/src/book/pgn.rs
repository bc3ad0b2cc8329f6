//! PGN books: each game's moves (from its FEN tag, or the standard start) up to `plies`.
//! Comments, variations, NAGs and move numbers are skipped.

use std::io::BufRead;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Position};

use super::{BookError, OnBadEntry, Opening};

/// A game as read from the file, before its moves are checked.
#[derive(Default)]
struct RawGame {
    started: bool,
    first_line: usize,
    fen: Option<(usize, String)>,
    /// SAN tokens and the line each is on.
    moves: Vec<(usize, String)>,
    /// The first syntax error in the game, if any.
    error: Option<(usize, String)>,
}

/// Splits movetext lines into tokens, remembering comments and variations across lines.
#[derive(Default)]
struct Lexer {
    in_comment: bool,
    variation_depth: usize,
}

enum Token {
    Move(String),
    Result,
}

impl Lexer {
    fn tokens(&mut self, line: &str, out: &mut Vec<Token>) {
        let mut word = String::new();
        for c in line.chars() {
            if self.in_comment {
                self.in_comment = c != '}';
                continue;
            }
            let separator = matches!(c, '{' | ';' | '(' | ')') || c.is_whitespace();
            if separator {
                Self::push_word(&mut word, out);
            }
            match c {
                '{' => self.in_comment = true,
                ';' => return,
                '(' => self.variation_depth += 1,
                ')' => self.variation_depth = self.variation_depth.saturating_sub(1),
                c if c.is_whitespace() => {}
                c if self.variation_depth == 0 => word.push(c),
                _ => {}
            }
        }
        Self::push_word(&mut word, out);
    }

    fn push_word(word: &mut String, out: &mut Vec<Token>) {
        if word.is_empty() {
            return;
        }
        let w = std::mem::take(word);
        if matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            out.push(Token::Result);
            return;
        }
        // Move numbers may be glued to the move ("12.Nf3", "3...Bc5"); NAGs start with '$'.
        let san = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if !san.is_empty() && !san.starts_with('$') {
            out.push(Token::Move(san.to_string()));
        }
    }

    fn in_free_text(&self) -> bool {
        self.in_comment || self.variation_depth > 0
    }
}

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
        if !game.started {
            return Ok(());
        }
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

    let mut game = RawGame::default();
    let mut in_movetext = false;
    let mut lexer = Lexer::default();
    let mut tokens = Vec::new();
    for item in super::lines(reader, name) {
        let (line_no, line) = item?;
        let trimmed = line.trim();
        if trimmed.is_empty() || (!lexer.in_free_text() && trimmed.starts_with('%')) {
            continue;
        }
        if !game.started {
            game.started = true;
            game.first_line = line_no;
        }
        if !lexer.in_free_text() && trimmed.starts_with('[') {
            if in_movetext {
                // A new tag section without a result token: the previous game ended.
                finish(std::mem::take(&mut game))?;
                game.started = true;
                game.first_line = line_no;
                in_movetext = false;
            }
            match parse_tag(trimmed) {
                Some((key, value)) if key.eq_ignore_ascii_case("FEN") => {
                    game.fen = Some((line_no, value));
                }
                Some(_) => {}
                None => {
                    game.error
                        .get_or_insert((line_no, format!("malformed tag '{trimmed}'")));
                }
            }
            continue;
        }
        in_movetext = true;
        tokens.clear();
        lexer.tokens(&line, &mut tokens);
        for token in tokens.drain(..) {
            match token {
                Token::Move(san) => game.moves.push((line_no, san)),
                Token::Result => {
                    finish(std::mem::take(&mut game))?;
                    in_movetext = false;
                }
            }
        }
    }
    finish(game)?;
    Ok((openings, skipped))
}

/// `[Key "Value"]` → (Key, Value), with `\"` and `\\` unescaped.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.trim_end().strip_suffix(']')?.trim();
    let (key, rest) = inner.split_once(char::is_whitespace)?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((
        key.to_string(),
        value.replace("\\\"", "\"").replace("\\\\", "\\"),
    ))
}

/// Plays the game's first `plies` moves; an error names the line of the offending text.
fn build(game: &RawGame, plies: Option<usize>) -> Result<Opening, (usize, String)> {
    if let Some(error) = &game.error {
        return Err(error.clone());
    }
    let start: Chess = match &game.fen {
        None => Chess::default(),
        Some((line, fen)) => Fen::from_ascii(fen.as_bytes())
            .map_err(|e| (*line, format!("bad FEN '{fen}': {e}")))?
            .into_position(CastlingMode::Standard)
            .map_err(|e| (*line, format!("illegal position '{fen}': {e}")))?,
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let limit = plies.unwrap_or(usize::MAX);
    for (line, text) in game.moves.iter().take(limit) {
        let san = SanPlus::from_ascii(text.as_bytes())
            .map_err(|e| (*line, format!("'{text}' is not a move in SAN: {e}")))?;
        let m = san.san.to_move(&pos).map_err(|e| {
            (
                *line,
                format!(
                    "'{text}' is not a legal move in game from line {}: {e}",
                    game.first_line
                ),
            )
        })?;
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
