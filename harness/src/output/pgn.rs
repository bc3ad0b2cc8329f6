//! games.pgn: standard tags, FEN/SetUp for book starts, and cutechess-style move comments
//! `{+0.35/12 0.120s}` (mover's view in pawns, depth, seconds) or `{book}`.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use engine::search::Score;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{EnPassantMode, Position};

use crate::game::{GameRecord, MoveRecord};

/// The tags of a game that do not come from the game itself.
pub struct PgnHeader<'a> {
    pub event: &'a str,
    pub site: &'a str,
    /// `YYYY.MM.DD`.
    pub date: &'a str,
    /// Game index from 0 (written as Round game+1).
    pub game: u64,
    pub white_time_control: String,
    pub black_time_control: String,
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A score as cutechess writes it: `+0.35`, `-1.20`, `+M5`, `-M3`.
pub fn format_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => {
            let sign = if cp < 0 { "-" } else { "+" };
            format!(
                "{sign}{}.{:02}",
                cp.unsigned_abs() / 100,
                cp.unsigned_abs() % 100
            )
        }
        Score::Mate(n) if n > 0 => format!("+M{n}"),
        Score::Mate(n) => format!("-M{}", n.unsigned_abs()),
    }
}

fn comment(m: &MoveRecord) -> String {
    if m.book {
        return "book".to_string();
    }
    let time = format!("{:.3}s", m.time.as_secs_f64());
    match m.score {
        Some(score) => format!("{}/{} {time}", format_score(score), m.depth),
        None => time,
    }
}

/// One game as PGN text, ending with a blank line.
pub fn format_game(header: &PgnHeader<'_>, game: &GameRecord) -> String {
    let mut out = String::with_capacity(4096);
    let mut tag = |k: &str, v: &str| {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    };
    tag("Event", header.event);
    tag("Site", header.site);
    tag("Date", header.date);
    tag("Round", &(header.game + 1).to_string());
    tag("White", &game.white);
    tag("Black", &game.black);
    tag("Result", game.result.as_str());
    if game.start != shakmaty::Chess::default() {
        tag(
            "FEN",
            &Fen::from_position(&game.start, EnPassantMode::Legal).to_string(),
        );
        tag("SetUp", "1");
    }
    tag("PlyCount", &game.moves.len().to_string());
    if header.white_time_control == header.black_time_control {
        tag("TimeControl", &header.white_time_control);
    } else {
        tag("WhiteTimeControl", &header.white_time_control);
        tag("BlackTimeControl", &header.black_time_control);
    }
    tag("Termination", game.termination.pgn_tag());
    out.push('\n');

    let mut tokens: Vec<String> = Vec::with_capacity(game.moves.len() * 2 + 2);
    let mut pos = game.start.clone();
    let mut need_number = true;
    for m in &game.moves {
        let number = pos.fullmoves().get();
        let white = pos.turn().is_white();
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m.mv);
        let prefix = match (white, need_number) {
            (true, _) => format!("{number}. "),
            (false, true) => format!("{number}... "),
            (false, false) => String::new(),
        };
        tokens.push(format!("{prefix}{san} {{{}}}", comment(m)));
        // After a comment, Black's move needs its number again to read well ("1... e5").
        need_number = true;
    }
    tokens.push(format!("{{{}}}", game.reason.replace('}', ")")));
    tokens.push(game.result.as_str().to_string());

    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += token.len();
        out.push_str(&token);
    }
    out.push_str("\n\n");
    out
}

/// An open games.pgn that games are appended to.
pub struct GamesPgn {
    path: PathBuf,
    file: File,
}

impl GamesPgn {
    /// Creates `path`, or when `resume`, keeps only the complete games whose index is in
    /// `keep` (games.csv is the record of what finished), each once, and appends after them.
    pub fn open(path: &Path, resume: bool, keep: &HashSet<u64>) -> anyhow::Result<GamesPgn> {
        if resume && path.exists() {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let mut seen = HashSet::new();
            let mut kept = String::with_capacity(text.len());
            for game in split_games(&text) {
                let Some(round) = round_of(game) else {
                    continue;
                };
                let complete =
                    game.trim_end().ends_with(['0', '1', '2', '*']) && game.ends_with("\n\n");
                if complete && round >= 1 && keep.contains(&(round - 1)) && seen.insert(round) {
                    kept.push_str(game);
                }
            }
            let tmp = path.with_extension("pgn.tmp");
            std::fs::write(&tmp, kept)
                .with_context(|| format!("cannot write {}", tmp.display()))?;
            std::fs::rename(&tmp, path)?;
        }
        let file = OpenOptions::new()
            .create(true)
            .write(true)
            .append(resume)
            .truncate(!resume)
            .open(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(GamesPgn {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Appends one game's text and flushes it.
    pub fn append(&mut self, text: &str) -> anyhow::Result<()> {
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .with_context(|| format!("cannot write {}", self.path.display()))
    }
}

/// Splits PGN text at each `[Event ` tag that starts a line.
fn split_games(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = text
        .match_indices("[Event ")
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n')
        .collect();
    starts.push(text.len());
    starts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

fn round_of(game: &str) -> Option<u64> {
    let line = game.lines().find(|l| l.starts_with("[Round \""))?;
    line.strip_prefix("[Round \"")?
        .strip_suffix("\"]")?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_format_like_cutechess() {
        assert_eq!(format_score(Score::Cp(35)), "+0.35");
        assert_eq!(format_score(Score::Cp(-120)), "-1.20");
        assert_eq!(format_score(Score::Cp(-5)), "-0.05");
        assert_eq!(format_score(Score::Cp(0)), "+0.00");
        assert_eq!(format_score(Score::Mate(5)), "+M5");
        assert_eq!(format_score(Score::Mate(-3)), "-M3");
    }

    #[test]
    fn resume_keeps_complete_listed_games_once() {
        let game = |round: u64, complete: bool| {
            let mut g = format!("[Event \"x\"]\n[Round \"{round}\"]\n\n1. e4 {{book}}");
            if complete {
                g.push_str(" 1-0\n\n");
            }
            g
        };
        let dir = std::env::temp_dir().join(format!("harness-pgn-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.pgn");
        let text = [
            game(1, true),
            game(2, true),
            game(2, true),
            game(3, true),
            game(4, false),
        ]
        .concat();
        std::fs::write(&path, text).unwrap();
        let keep: HashSet<u64> = [0, 1, 3].into_iter().collect();
        let mut pgn = GamesPgn::open(&path, true, &keep).unwrap();
        pgn.append(&game(5, true)).unwrap();
        let back = std::fs::read_to_string(&path).unwrap();
        assert_eq!(back, [game(1, true), game(2, true), game(5, true)].concat());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
