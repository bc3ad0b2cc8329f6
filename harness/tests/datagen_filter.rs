//! Which positions of a game the data generator keeps.

use std::time::Duration;

use engine::params::Params;
use engine::search::{Score, Searcher};
use harness::datagen::filter::record_positions;
use harness::game::{GameRecord, GameResult, MoveRecord, Termination};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

/// A game from the start position: `(uci move, book?, score)` per ply.
fn record(
    moves: &[(&str, bool, Option<Score>)],
    result: GameResult,
    termination: Termination,
) -> GameRecord {
    let start = Chess::default();
    let mut position = start.clone();
    let mut records = Vec::new();
    for &(text, book, score) in moves {
        let mv = text.parse::<UciMove>().unwrap().to_move(&position).unwrap();
        position.play_unchecked(mv);
        records.push(MoveRecord {
            mv,
            book,
            score,
            depth: 1,
            nodes: 1,
            time: Duration::ZERO,
            search_time: Duration::ZERO,
        });
    }
    GameRecord {
        white: "w".into(),
        black: "b".into(),
        start,
        moves: records,
        result,
        termination,
        reason: String::new(),
        final_position: position,
        wall_time: Duration::ZERO,
    }
}

fn cp(v: i32) -> Option<Score> {
    Some(Score::Cp(v))
}

#[test]
fn skips_book_check_and_everything_after_a_mate_score() {
    // 1. e4 f5 (book) 2. Qh5+ g6 3. Qxg6+?? hxg6 4. Bd3 Nf6 5. exf5, with a mate score on
    // Black's fourth move (the line is only a carrier for the scores).
    let game = record(
        &[
            ("e2e4", true, None),
            ("f7f5", true, None),
            ("d1h5", false, cp(50)),  // kept
            ("g7g6", false, cp(-40)), // in check: skipped
            ("h5g6", false, cp(30)),  // kept (the search's mistake is its business)
            ("h7g6", false, cp(800)), // in check: skipped
            ("f1d3", false, cp(-800)),
            ("g8f6", false, Some(Score::Mate(9))), // mate score: skipped, and all after
            ("e4f5", false, Some(Score::Mate(1))),
        ],
        GameResult::BlackWins,
        Termination::AdjudicationResign,
    );
    let mut resolver = Searcher::new(Params::default(), 1);
    let (kept, stats) = record_positions(&game, &mut resolver);
    assert_eq!(stats.book, 2);
    assert_eq!(stats.searched, 7);
    assert_eq!(stats.in_check, 2);
    assert_eq!(stats.after_mate, 2);
    assert_eq!(stats.kept, 3);
    assert_eq!(kept.len(), 3);
    for c in &kept {
        assert!(!c.position.is_check());
    }
    // Scores are turned to White's view: 50 by White, 30 by White, -800 by White.
    let scores: Vec<i32> = kept.iter().map(|c| c.score_white).collect();
    assert_eq!(scores, vec![50, 30, -800]);
}

#[test]
fn resolves_to_the_quiet_leaf() {
    // After 1. e4 e5 2. Nf3 Qh4??, White to move wins the queen: a noisy position. Its leaf
    // is after 3. Nxh4, with no capture left that the quiescence search wants.
    let game = record(
        &[
            ("e2e4", true, None),
            ("e7e5", true, None),
            ("g1f3", true, None),
            ("d8h4", true, None),
            ("f3h4", false, cp(900)),
        ],
        GameResult::Draw,
        Termination::AdjudicationDraw,
    );
    let mut resolver = Searcher::new(Params::default(), 1);
    let (kept, _) = record_positions(&game, &mut resolver);
    assert_eq!(kept.len(), 1);
    let mut noisy = Chess::default();
    for m in ["e2e4", "e7e5", "g1f3", "d8h4"] {
        let mv = m.parse::<UciMove>().unwrap().to_move(&noisy).unwrap();
        noisy.play_unchecked(mv);
    }
    let leaf = &kept[0].position;
    assert_ne!(*leaf, noisy, "the noisy position itself was kept");
    assert_eq!(leaf.board().occupied().count(), 31, "Nxh4 takes the queen");
    assert!(leaf.board().queens().count() == 1 && leaf.turn() == shakmaty::Color::Black);
    // The score stays the game search's score of the position it came from.
    assert_eq!(kept[0].score_white, 900);
}

#[test]
fn games_lost_by_a_player_fault_give_nothing() {
    let game = record(
        &[("e2e4", false, cp(20)), ("e7e5", false, cp(-20))],
        GameResult::WhiteWins,
        Termination::IllegalMove,
    );
    let mut resolver = Searcher::new(Params::default(), 1);
    let (kept, stats) = record_positions(&game, &mut resolver);
    assert!(kept.is_empty());
    assert_eq!(stats.faulty_game, 2);
}
