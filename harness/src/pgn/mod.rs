//! Reading PGN text: each game's tags, its main-line SAN moves with the comment that follows
//! each, and its result, every item with the line it is on. Move numbers, NAGs, variations
//! and `%` escape lines are skipped. What the moves mean is for the readers:
//!
//! - [`crate::book`]'s PGN books play the first plies of each game;
//! - [`games`] reads finished games with their engines' score comments (`{+0.35/12 0.120s}`).

pub mod games;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Move};

/// A game as scanned, before its moves are checked.
#[derive(Debug, Default)]
pub struct RawGame {
    /// The line the game starts on.
    pub first_line: usize,
    /// `(line, key, value)` of each tag, with `\"` and `\\` unescaped.
    pub tags: Vec<(usize, String, String)>,
    /// The main line's moves in order.
    pub moves: Vec<RawMove>,
    /// The result token ending the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), if there was one.
    pub result: Option<String>,
    /// The first syntax error in the game, if any: line and message.
    pub error: Option<(usize, String)>,
    started: bool,
}

impl RawGame {
    /// The value of the first tag named `key` (case-insensitive), with its line.
    pub fn tag(&self, key: &str) -> Option<(usize, &str)> {
        self.tags
            .iter()
            .find(|(_, k, _)| k.eq_ignore_ascii_case(key))
            .map(|(line, _, value)| (*line, value.as_str()))
    }

    /// The position the game starts from: its `FEN` tag's, else the standard one. An error
    /// (the game's first syntax error, or a bad FEN) is the line and a message.
    pub fn start(&self) -> Result<Chess, (usize, String)> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        match self.tag("FEN") {
            None => Ok(Chess::default()),
            Some((line, fen)) => Fen::from_ascii(fen.as_bytes())
                .map_err(|e| (line, format!("bad FEN '{fen}': {e}")))?
                .into_position(CastlingMode::Standard)
                .map_err(|e| (line, format!("illegal position '{fen}': {e}"))),
        }
    }

    /// `played`, one of this game's moves, as a legal move in `position`; an error names its
    /// line.
    pub fn legal_move(&self, played: &RawMove, position: &Chess) -> Result<Move, (usize, String)> {
        let text = &played.san;
        let san = SanPlus::from_ascii(text.as_bytes())
            .map_err(|e| (played.line, format!("'{text}' is not a move in SAN: {e}")))?;
        san.san.to_move(position).map_err(|e| {
            (
                played.line,
                format!(
                    "'{text}' is not a legal move in the game from line {}: {e}",
                    self.first_line
                ),
            )
        })
    }
}

/// One main-line move as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawMove {
    pub line: usize,
    /// The SAN text (move number stripped).
    pub san: String,
    /// The text of the first comment after the move, before the next move, trimmed.
    pub comment: Option<String>,
}

/// Splits movetext lines into tokens, remembering comments and variations across lines.
#[derive(Default)]
struct Lexer {
    /// The text of the comment being read, while inside `{ }`.
    comment: Option<String>,
    variation_depth: usize,
}

enum Token {
    Move(String),
    Comment(String),
    Result(String),
}

impl Lexer {
    fn tokens(&mut self, line: &str, out: &mut Vec<Token>) {
        let mut word = String::new();
        for c in line.chars() {
            if let Some(text) = &mut self.comment {
                if c == '}' {
                    let text = std::mem::take(text);
                    self.comment = None;
                    if self.variation_depth == 0 {
                        out.push(Token::Comment(text.trim().to_string()));
                    }
                } else {
                    text.push(c);
                }
                continue;
            }
            let separator = matches!(c, '{' | ';' | '(' | ')') || c.is_whitespace();
            if separator {
                Self::push_word(&mut word, out);
            }
            match c {
                '{' => self.comment = Some(String::new()),
                ';' => return,
                '(' => self.variation_depth += 1,
                ')' => self.variation_depth = self.variation_depth.saturating_sub(1),
                c if c.is_whitespace() => {}
                c if self.variation_depth == 0 => word.push(c),
                _ => {}
            }
        }
        Self::push_word(&mut word, out);
        // A comment spanning lines reads as one with a space for each line break.
        if let Some(text) = &mut self.comment {
            text.push(' ');
        }
    }

    fn push_word(word: &mut String, out: &mut Vec<Token>) {
        if word.is_empty() {
            return;
        }
        let w = std::mem::take(word);
        if matches!(w.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            out.push(Token::Result(w));
            return;
        }
        // Move numbers may be glued to the move ("12.Nf3", "3...Bc5"); NAGs start with '$'.
        let san = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if !san.is_empty() && !san.starts_with('$') {
            out.push(Token::Move(san.to_string()));
        }
    }

    fn in_free_text(&self) -> bool {
        self.comment.is_some() || self.variation_depth > 0
    }
}

/// Scans numbered `lines` of PGN text and hands each game to `on_game`, in order. A game
/// ends at its result token, or at the next tag section if it has none.
pub fn scan<E>(
    lines: impl Iterator<Item = Result<(usize, String), E>>,
    mut on_game: impl FnMut(RawGame) -> Result<(), E>,
) -> Result<(), E> {
    let mut finish =
        |game: RawGame| -> Result<(), E> { if game.started { on_game(game) } else { Ok(()) } };
    let mut game = RawGame::default();
    let mut in_movetext = false;
    let mut lexer = Lexer::default();
    let mut tokens = Vec::new();
    for item in lines {
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
                Some((key, value)) => game.tags.push((line_no, key, value)),
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
                Token::Move(san) => game.moves.push(RawMove {
                    line: line_no,
                    san,
                    comment: None,
                }),
                Token::Comment(text) => {
                    if let Some(last) = game.moves.last_mut() {
                        last.comment.get_or_insert(text);
                    }
                }
                Token::Result(result) => {
                    game.result = Some(result);
                    finish(std::mem::take(&mut game))?;
                    in_movetext = false;
                }
            }
        }
    }
    finish(game)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn scan_text(text: &str) -> Vec<RawGame> {
        let mut games = Vec::new();
        let lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| Ok::<_, ()>((i + 1, l.to_string())));
        scan(lines, |g| {
            games.push(g);
            Ok(())
        })
        .unwrap();
        games
    }

    #[test]
    fn moves_keep_the_comment_after_them_and_skip_variations() {
        let text = "[Event \"a\"]\n[White \"x \\\"y\\\"\"]\n\n\
            1. e4 {+0.30/10 0.100s} e5 $1 (1... c5 {side line}) 2. Nf3 {book\n\
            spanning lines} {second} Nc6 *\n";
        let games = scan_text(text);
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.tag("white"), Some((2, "x \"y\"")));
        assert_eq!(g.result.as_deref(), Some("*"));
        let moves: Vec<(&str, Option<&str>)> = g
            .moves
            .iter()
            .map(|m| (m.san.as_str(), m.comment.as_deref()))
            .collect();
        assert_eq!(
            moves,
            [
                ("e4", Some("+0.30/10 0.100s")),
                ("e5", None),
                ("Nf3", Some("book spanning lines")),
                ("Nc6", None),
            ]
        );
        assert_eq!(g.moves[3].line, 5);
    }

    #[test]
    fn a_tag_section_ends_a_game_without_a_result() {
        let games = scan_text("[Event \"a\"]\n1. d4\n[Event \"b\"]\n1. c4 1-0\n[Bad tag\n");
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].result, None);
        assert_eq!(games[1].moves[0].san, "c4");
        assert_eq!(games[1].result.as_deref(), Some("1-0"));
        assert_eq!(games[2].error, Some((5, "malformed tag '[Bad tag'".into())));
    }
}
