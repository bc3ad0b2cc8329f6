//! Which positions of a self-play game become training data, and in what form.
//!
//! Kept: positions the engine searched (not book or random plies), not in check, before any
//! mate score was seen, each replaced by the quiet position at the end of its quiescence
//! principal variation (so that the static evaluation the tuner fits is meaningful there).
//! Duplicates across the run are removed by [`Deduplicator`].

use std::collections::HashSet;

use engine::search::{Score, Searcher, position_key};
use shakmaty::{Chess, Color, Position};

use crate::game::{GameRecord, MoveRecord};

/// A position kept for the data set.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The quiet position written out (the leaf of the searched position's quiescence PV).
    pub position: Chess,
    /// [`position_key`] of `position`: board, side to move, castling and en passant.
    pub key: u64,
    /// The game search's score of the position it was played from, White's view, centipawns.
    pub score_white: i32,
}

/// Why positions were left out, counted per game and summed over a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FilterStats {
    /// Positions the engines searched.
    pub searched: u64,
    /// Book and random plies.
    pub book: u64,
    /// Side to move in check.
    pub in_check: u64,
    /// At or after the first mate score of the game.
    pub after_mate: u64,
    /// The search reported no score.
    pub no_score: u64,
    /// The quiet leaf was in check or had no legal move.
    pub bad_leaf: u64,
    /// Games whose result is not a chess result (a player failed): all positions dropped.
    pub faulty_game: u64,
    /// Positions kept (before duplicate removal).
    pub kept: u64,
}

impl FilterStats {
    pub fn add(&mut self, other: &FilterStats) {
        self.searched += other.searched;
        self.book += other.book;
        self.in_check += other.in_check;
        self.after_mate += other.after_mate;
        self.no_score += other.no_score;
        self.bad_leaf += other.bad_leaf;
        self.faulty_game += other.faulty_game;
        self.kept += other.kept;
    }

    /// One line for a run's report: what was searched, kept and left out, and why.
    pub fn describe(&self, duplicates: u64) -> String {
        format!(
            "Positions searched {}, kept {}; left out: {} in check, {} at or after a mate \
             score, {} with a noisy leaf, {} without a score, {} from failed games, {} \
             duplicates ({} book and random plies not counted as searched)",
            self.searched,
            self.kept,
            self.in_check,
            self.after_mate,
            self.bad_leaf,
            self.no_score,
            self.faulty_game,
            duplicates,
            self.book
        )
    }
}

/// [`game_positions`] of a game just played: none if it ended by a player's failure.
pub fn record_positions(
    record: &GameRecord,
    resolver: &mut Searcher,
) -> (Vec<Candidate>, FilterStats) {
    let faulty = record.termination.fault().is_some();
    game_positions(&record.start, &record.moves, faulty, resolver)
}

/// The positions of the game played from `start` by `moves` worth keeping, resolved to quiet
/// leaves with `resolver`. A `faulty` game, ended by a player's failure (a time forfeit, a
/// crash), keeps none: its result says nothing of them.
pub fn game_positions(
    start: &Chess,
    moves: &[MoveRecord],
    faulty: bool,
    resolver: &mut Searcher,
) -> (Vec<Candidate>, FilterStats) {
    let mut stats = FilterStats::default();
    let mut kept = Vec::new();
    if faulty {
        stats.faulty_game = moves.iter().filter(|m| !m.book).count() as u64;
        return (kept, stats);
    }
    let mut position = start.clone();
    let mut mate_seen = false;
    for played in moves {
        let before = position.clone();
        position.play_unchecked(played.mv);
        if played.book {
            stats.book += 1;
            continue;
        }
        stats.searched += 1;
        let cp = match played.score {
            Some(Score::Mate(_)) => {
                mate_seen = true;
                None
            }
            Some(Score::Cp(cp)) => Some(cp),
            None => None,
        };
        if mate_seen {
            stats.after_mate += 1;
            continue;
        }
        let Some(cp) = cp else {
            stats.no_score += 1;
            continue;
        };
        if before.is_check() {
            stats.in_check += 1;
            continue;
        }
        let (_, leaf) = resolver.quiet_leaf(&before);
        if leaf.is_check() || leaf.legal_moves().is_empty() {
            stats.bad_leaf += 1;
            continue;
        }
        let score_white = match before.turn() {
            Color::White => cp,
            Color::Black => -cp,
        };
        stats.kept += 1;
        kept.push(Candidate {
            key: position_key(&leaf),
            position: leaf,
            score_white,
        });
    }
    (kept, stats)
}

/// Remembers the keys of positions already written.
#[derive(Debug, Default)]
pub struct Deduplicator {
    seen: HashSet<u64>,
}

impl Deduplicator {
    pub fn new() -> Self {
        Self::default()
    }

    /// True the first time `key` is offered.
    pub fn insert(&mut self, key: u64) -> bool {
        self.seen.insert(key)
    }

    pub fn len(&self) -> usize {
        self.seen.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}
