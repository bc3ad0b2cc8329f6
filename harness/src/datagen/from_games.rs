//! Labelled positions from games already played: the games.pgn of matches, SPRTs and tunes
//! (or cutechess-cli and fastchess PGN files), whose move comments carry each search's score.
//!
//! The positions kept are those [`super::filter`] keeps from self-play: searched (not book),
//! not in check, before any mate score, resolved to the quiet leaf of their quiescence PV and
//! deduplicated across all the files. Each is labelled with its game's result and the score
//! of the search that played from it. Every SPRT's games are then data for the network at the
//! nodes the match gave each move, at no cost in play.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use engine::params::Params;
use engine::search::Searcher;

use super::filter::{self, Deduplicator, FilterStats};
use super::writer::{OutputFormat, PositionWriter};
use crate::game::GameResult;
use crate::pgn::games;

/// Which games, and where their positions go.
#[derive(Clone, Debug)]
pub struct FromGamesOptions {
    /// PGN files, read in this order.
    pub pgn: Vec<PathBuf>,
    /// Output file (overwritten).
    pub out: PathBuf,
    pub format: OutputFormat,
    /// The engine parameters of the quiescence search that finds each quiet leaf.
    pub params: Params,
}

/// What was read and written.
#[derive(Clone, Debug, Default)]
pub struct FromGamesReport {
    /// Files read whole.
    pub files: usize,
    /// Finished games read.
    pub games: u64,
    /// Games without a result, left out.
    pub unfinished: u64,
    pub white_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    /// Positions written.
    pub positions: u64,
    /// Kept positions dropped as duplicates of earlier ones.
    pub duplicates: u64,
    pub filtered: FilterStats,
    pub elapsed: Duration,
    /// Stopped by `stop` before the last file ended.
    pub interrupted: bool,
}

/// Reads the games of `options.pgn` and writes their positions to `options.out`, one game's
/// lines at a time, so that a stopped run leaves a file of whole games. `on_progress` hears
/// after every game.
pub fn extract(
    options: &FromGamesOptions,
    stop: &AtomicBool,
    mut on_progress: impl FnMut(&FromGamesReport),
) -> anyhow::Result<FromGamesReport> {
    let started = Instant::now();
    let mut writer = PositionWriter::create(&options.out, options.format)?;
    let mut seen = Deduplicator::new();
    // The quiescence search keeps no table, so a tiny hash is enough.
    let mut resolver = Searcher::new(options.params.clone(), 1);
    let mut report = FromGamesReport::default();
    for path in &options.pgn {
        let read = games::read_file(path, |game| {
            if stop.load(Ordering::Relaxed) {
                return Err(Interrupted.into());
            }
            resolver.new_game();
            let (positions, stats) =
                filter::game_positions(&game.start, &game.moves, game.faulty, &mut resolver);
            let fresh: Vec<_> = positions
                .into_iter()
                .filter(|c| seen.insert(c.key))
                .collect();
            report.duplicates += stats.kept - fresh.len() as u64;
            report.filtered.add(&stats);
            writer.write_game(&fresh, game.result)?;
            report.positions += fresh.len() as u64;
            report.games += 1;
            match game.result {
                GameResult::WhiteWins => report.white_wins += 1,
                GameResult::Draw => report.draws += 1,
                GameResult::BlackWins => report.black_wins += 1,
            }
            report.elapsed = started.elapsed();
            on_progress(&report);
            Ok(())
        });
        match read {
            Ok(stats) => {
                report.unfinished += stats.unfinished;
                report.files += 1;
            }
            Err(e) if e.is::<Interrupted>() => {
                report.interrupted = true;
                break;
            }
            Err(e) => return Err(e),
        }
    }
    report.elapsed = started.elapsed();
    Ok(report)
}

/// The stop flag was set: ends the read of a file early.
#[derive(Debug, thiserror::Error)]
#[error("interrupted")]
struct Interrupted;

#[cfg(test)]
mod tests {
    use super::*;

    /// A game of this harness's games.pgn: White's searched moves scored, Black's not, one
    /// book move, a check, a mate score; and the same game again (all duplicates).
    const GAME: &str = "[Event \"t\"]\n[Result \"1-0\"]\n[Termination \"normal\"]\n\n\
        1. e4 {book} 1... e5 {-0.20/9 0.020s} 2. Nf3 {+0.31/10 0.021s} 2... Nc6 {0.020s}\n\
        3. Bb5 {+0.25/9 0.020s} 3... a6 {-0.30/8 0.020s} 4. Bxc6 {+0.40/9 0.020s}\n\
        4... dxc6 {-0.35/9 0.020s} 5. Qe2 {+0.30/9 0.020s} 5... Bb4 {-0.28/9 0.020s}\n\
        6. c3 {+M9/20 0.020s} 6... Bxc3 {-0.10/9 0.020s} {White mates} 1-0\n\n";

    fn run(text: &str) -> (FromGamesReport, String) {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("games.pgn");
        std::fs::write(&pgn, text).unwrap();
        let out = dir.path().join("out.txt");
        let options = FromGamesOptions {
            pgn: vec![pgn.clone(), pgn],
            out: out.clone(),
            format: OutputFormat::Score,
            params: Params::default(),
        };
        let report = extract(&options, &AtomicBool::new(false), |_| {}).unwrap();
        (report, std::fs::read_to_string(out).unwrap())
    }

    #[test]
    fn scored_searched_quiet_positions_are_kept_once_with_the_result() {
        let (report, text) = run(GAME);
        assert_eq!((report.files, report.games), (2, 2));
        // Each copy of the game: of its 11 moves, 1 is from the book, 2...Nc6 has no score,
        // 6. c3 has the mate score and 6...Bxc3 comes after it; the other 8 are kept, and
        // all 8 of the second copy are duplicates.
        assert_eq!(report.filtered.book, 2);
        assert_eq!(report.filtered.no_score, 2);
        assert_eq!(report.filtered.after_mate, 4);
        assert_eq!(report.filtered.kept, 16);
        assert_eq!((report.positions, report.duplicates), (8, 8));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 8);
        // 1...e5 was searched by Black at −0.20: +20 from White's view, from the position
        // after 1. e4 (already quiet), labelled with White's win.
        assert_eq!(
            lines[0],
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1; 20; 1.0"
        );
        assert!(lines.iter().all(|l| l.ends_with("; 1.0")));
    }

    #[test]
    fn a_faulty_game_gives_no_position() {
        let (report, text) = run(&GAME.replace("\"normal\"", "\"time forfeit\""));
        assert_eq!(report.games, 2);
        assert_eq!(report.positions, 0);
        assert_eq!(report.filtered.faulty_game, 22);
        assert!(text.is_empty());
    }
}
