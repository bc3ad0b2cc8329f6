//! Finished games read back from PGN with their engines' move comments: what this harness
//! writes to games.pgn (`{+0.35/12 0.120s}`, `{book}`), and cutechess-cli and fastchess
//! files alike (their comments start the same way; the rest is ignored).

use std::io::BufRead;
use std::path::Path;
use std::time::Duration;

use anyhow::Context as _;
use engine::search::Score;
use shakmaty::{Chess, Position};

use super::RawGame;
use crate::game::{GameResult, MoveRecord};

/// A finished game with what its comments say of each move.
#[derive(Clone, Debug)]
pub struct ScoredGame {
    /// The line of the file the game starts on.
    pub first_line: usize,
    pub start: Chess,
    /// Each move with its comment's score (mover's view), depth and time; `book` for a
    /// `{book}` comment. Nodes and search time are not in the comments: 0.
    pub moves: Vec<MoveRecord>,
    pub result: GameResult,
    /// The `Termination` tag names a player's failure, so the result says nothing of the
    /// positions: `time forfeit`, `abandoned`, `stalled connection`, `illegal move` (the tags
    /// [`crate::game::Termination::pgn_tag`] writes, as cutechess-cli does).
    pub faulty: bool,
}

/// What a pass over a file met besides its finished games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Games read and handed on.
    pub games: u64,
    /// Games without a result (`*`, or none): left out.
    pub unfinished: u64,
}

/// Reads the games of `path` (plain or `.xz`) in order and hands each finished one to
/// `on_game`. A finished game that does not parse or play is an error naming the file and
/// line; an unfinished one is only counted, so that a file a match is still writing (or one
/// cut off mid-game) reads.
pub fn read_file(
    path: &Path,
    mut on_game: impl FnMut(ScoredGame) -> anyhow::Result<()>,
) -> anyhow::Result<ReadStats> {
    let reader = crate::book::open_maybe_xz(path)?;
    let mut stats = ReadStats::default();
    let lines = reader.lines().enumerate().map(|(i, line)| {
        line.map(|l| (i + 1, l))
            .with_context(|| format!("{}:{}: cannot read", path.display(), i + 1))
    });
    super::scan(lines, |raw| {
        let Some(game) = build(&raw).map_err(|(line, message)| {
            crate::UsageError(format!("{}:{line}: {message}", path.display()))
        })?
        else {
            stats.unfinished += 1;
            return Ok(());
        };
        stats.games += 1;
        on_game(game)
    })?;
    Ok(stats)
}

/// The game `raw` describes, or `None` if it has no result.
fn build(raw: &RawGame) -> Result<Option<ScoredGame>, (usize, String)> {
    let result_text = raw
        .result
        .as_deref()
        .or_else(|| raw.tag("Result").map(|(_, value)| value));
    let Some(result) = result_text.and_then(GameResult::from_name) else {
        return Ok(None);
    };
    let start = raw.start()?;
    let mut position = start.clone();
    let mut moves = Vec::with_capacity(raw.moves.len());
    for played in &raw.moves {
        let mv = raw.legal_move(played, &position)?;
        position.play_unchecked(mv);
        let comment = played.comment.as_deref().map(parse_comment);
        let comment = comment.unwrap_or_default();
        moves.push(MoveRecord {
            mv,
            book: comment.book,
            score: comment.score,
            depth: comment.depth,
            nodes: 0,
            time: comment.time,
            search_time: Duration::ZERO,
        });
    }
    let faulty = raw.tag("Termination").is_some_and(|(_, value)| {
        matches!(
            value,
            "time forfeit" | "abandoned" | "stalled connection" | "illegal move"
        )
    });
    Ok(Some(ScoredGame {
        first_line: raw.first_line,
        start,
        moves,
        result,
        faulty,
    }))
}

/// What a move's comment says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveComment {
    pub book: bool,
    /// Mover's view.
    pub score: Option<Score>,
    pub depth: u32,
    pub time: Duration,
}

/// Reads `+0.35/12 0.120s` (score in pawns or `+M5`/`-M3`, depth, seconds), `0.120s` (a
/// move without a score), `book`, or any comment starting with one of those; anything else
/// says nothing.
pub fn parse_comment(text: &str) -> MoveComment {
    let mut words = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .peekable();
    let mut comment = MoveComment::default();
    if words.peek() == Some(&"book") {
        comment.book = true;
        return comment;
    }
    if let Some((score, depth)) = words.peek().and_then(|w| w.split_once('/')) {
        let (Some(score), Ok(depth)) = (parse_score(score), depth.parse::<u32>()) else {
            return comment;
        };
        comment.score = Some(score);
        comment.depth = depth;
        words.next();
    }
    if let Some(seconds) = words
        .next()
        .and_then(|w| w.strip_suffix('s'))
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && (0.0..1e9).contains(s))
    {
        comment.time = Duration::from_secs_f64(seconds);
    }
    comment
}

/// `+0.35` → 35 cp, `-1.2` → −120 cp, `+M5` → mate in 5, `-M3` → mated in 3.
fn parse_score(text: &str) -> Option<Score> {
    let (negative, rest) = match text.as_bytes().first()? {
        b'+' => (false, &text[1..]),
        b'-' => (true, &text[1..]),
        _ => (false, text),
    };
    if let Some(moves) = rest.strip_prefix('M') {
        let n: i32 = moves.parse().ok()?;
        return Some(Score::Mate(if negative { -n } else { n }));
    }
    if !rest.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let pawns: f64 = rest.parse().ok()?;
    let cp = (pawns * 100.0).round();
    if !(0.0..=100_000.0).contains(&cp) {
        return None;
    }
    let cp = cp as i32;
    Some(Score::Cp(if negative { -cp } else { cp }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Termination;
    use crate::output::pgn::{PgnHeader, format_game};
    use shakmaty::Move;

    #[test]
    fn comments_read_as_written() {
        assert_eq!(
            parse_comment("+0.35/12 0.120s"),
            MoveComment {
                book: false,
                score: Some(Score::Cp(35)),
                depth: 12,
                time: Duration::from_millis(120),
            }
        );
        assert_eq!(
            parse_comment("-1.20/7 1.5s, 3.2s tl").score,
            Some(Score::Cp(-120))
        );
        assert_eq!(parse_comment("+M5/30 0.010s").score, Some(Score::Mate(5)));
        assert_eq!(parse_comment("-M3/9").score, Some(Score::Mate(-3)));
        assert_eq!(parse_comment("-0.05/1 0.000s").score, Some(Score::Cp(-5)));
        assert!(parse_comment("book").book);
        assert_eq!(
            parse_comment("0.120s"),
            MoveComment {
                time: Duration::from_millis(120),
                ..MoveComment::default()
            }
        );
        for nothing in ["", "White mates", "+x/3", "+0.35/deep", "+1e9/3", "-1s"] {
            assert_eq!(parse_comment(nothing), MoveComment::default(), "{nothing}");
        }
    }

    fn record_line(moves: &[&str], scores: &[Option<Score>]) -> crate::game::GameRecord {
        let start = Chess::default();
        let mut pos = start.clone();
        let mut records = Vec::new();
        for (i, (uci, score)) in moves.iter().zip(scores).enumerate() {
            let mv: Move = uci
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&pos)
                .unwrap();
            pos.play_unchecked(mv);
            records.push(MoveRecord {
                mv,
                book: i == 0,
                score: *score,
                depth: 7 + i as u32,
                nodes: 1000,
                time: Duration::from_millis(25),
                search_time: Duration::from_millis(24),
            });
        }
        crate::game::GameRecord {
            white: "a".into(),
            black: "b".into(),
            start,
            moves: records,
            result: GameResult::BlackWins,
            termination: Termination::TimeForfeit,
            reason: "White loses on time".into(),
            final_position: pos,
            wall_time: Duration::from_secs(1),
        }
    }

    #[test]
    fn games_the_harness_writes_read_back() {
        let game = record_line(
            &["e2e4", "e7e5", "g1f3", "b8c6"],
            &[None, Some(Score::Cp(-17)), Some(Score::Mate(-4)), None],
        );
        let header = PgnHeader {
            event: "e",
            site: "s",
            date: "2026.12.07",
            game: 0,
            white_time_control: "-".into(),
            black_time_control: "-".into(),
        };
        let one = format_game(&header, &game);
        let text = one.clone() + &one;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pgn");
        std::fs::write(&path, &text).unwrap();
        let mut games = Vec::new();
        let stats = read_file(&path, |g| {
            games.push(g);
            Ok(())
        })
        .unwrap();
        assert_eq!((stats.games, stats.unfinished), (2, 0));
        let read = &games[1];
        // The second game starts on the line after the first one's text.
        assert_eq!(read.first_line, one.lines().count() + 1);
        assert_eq!(read.result, GameResult::BlackWins);
        assert!(read.faulty);
        for (read, written) in read.moves.iter().zip(&game.moves) {
            assert_eq!(
                (read.mv, read.book, read.score, read.depth, read.time),
                (
                    written.mv,
                    written.book,
                    written.score,
                    // The writer gives a depth only with a score.
                    if written.score.is_some() {
                        written.depth
                    } else {
                        0
                    },
                    if written.book {
                        Duration::ZERO
                    } else {
                        written.time
                    },
                )
            );
        }
        assert_eq!(read.moves.len(), 4);
    }

    #[test]
    fn an_illegal_move_names_the_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.pgn");
        std::fs::write(&path, "[Event \"x\"]\n\n1. e4 e5\n2. Ke3 1-0\n").unwrap();
        let error = read_file(&path, |_| Ok(())).unwrap_err().to_string();
        assert!(
            error.contains("bad.pgn:4: 'Ke3' is not a legal move"),
            "{error}"
        );
    }

    #[test]
    fn unfinished_games_are_counted_and_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.pgn");
        std::fs::write(
            &path,
            "[Event \"x\"]\n\n1. e4 *\n\n[Event \"y\"]\n1. d4 1/2-1/2\n",
        )
        .unwrap();
        let mut results = Vec::new();
        let stats = read_file(&path, |g| {
            results.push((g.first_line, g.result, g.faulty));
            Ok(())
        })
        .unwrap();
        assert_eq!((stats.games, stats.unfinished), (1, 1));
        assert_eq!(results, [(5, GameResult::Draw, false)]);
    }
}
