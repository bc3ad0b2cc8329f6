//! K+Q vs K and K+R vs K played out by the engine on both sides: the king-distance term
//! (`king_distance_factor`) is what lets a shallow search bring its king over and mate when
//! nothing else in the evaluation does, and the default evaluation mates.

use std::sync::atomic::AtomicBool;

use engine::params::Params;
use engine::search::{Limits, Searcher, position_key};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

const STARTS: [&str; 6] = [
    "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1",
    "8/8/2k5/8/8/5K2/8/7Q w - - 0 1",
    "8/1k6/8/8/8/8/6K1/3Q4 b - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    "8/8/2k5/8/8/5K2/8/7R w - - 0 1",
    "8/1k6/8/8/8/8/6K1/3R4 b - - 0 1",
];

/// Plays the game out with one searcher for both sides; returns the number of moves of the
/// stronger side until mate, or `None` when there was no mate within 50 moves.
fn plies_to_mate(params: &Params, fen: &str) -> Option<usize> {
    let mut pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let mut searcher = Searcher::new(params.clone(), 4);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let mut history = Vec::new();
    for ply in 0..101 {
        if pos.is_checkmate() {
            return Some(ply);
        }
        if pos.is_game_over() || pos.halfmoves() >= 100 {
            return None;
        }
        let result = searcher.search(&pos, &history, &limits, &stop, &mut |_| {});
        history.push(position_key(&pos));
        pos.play_unchecked(result.best_move.expect("a legal move"));
    }
    None
}

/// Material plus the K+piece vs K terms, nothing else: what the king-distance term does alone,
/// without piece-square tables that also push the lone king to the edge.
fn material_and_mating_terms() -> Params {
    let defaults = Params::default();
    let mut params = Params::material_only();
    for name in [
        "king_distance_factor",
        "mate_edge_0",
        "mate_edge_1",
        "mate_edge_2",
        "mate_edge_3",
    ] {
        let value = defaults.get_by_name(name).unwrap();
        params.set_assignment(&format!("{name}={value}")).unwrap();
    }
    params
}

#[test]
fn king_distance_term_wins_kqk_and_krk() {
    let with = material_and_mating_terms();
    assert!(with.get_by_name("king_distance_factor").unwrap() > 0);
    let mut without = with.clone();
    without.set_assignment("king_distance_factor=0").unwrap();
    let mut total_with = 0;
    let mut total_without = 0;
    let mut lost_without = 0;
    for fen in STARTS {
        let plies = plies_to_mate(&with, fen);
        let plies_without = plies_to_mate(&without, fen);
        eprintln!("{fen}: mate after {plies:?} plies; factor 0: {plies_without:?}");
        let plies = plies.unwrap_or_else(|| panic!("{fen}: not won within 50 moves"));
        total_with += plies;
        match plies_without {
            Some(p) => total_without += p,
            None => {
                lost_without += 1;
                total_without += 101;
            }
        }
    }
    // Without the term the engine fails to mate in some, or needs clearly longer overall.
    assert!(
        lost_without > 0 || total_without > total_with * 5 / 4,
        "factor 0: {total_without} plies ({lost_without} not won) vs {total_with}"
    );
}

#[test]
fn default_evaluation_mates_kqk_and_krk() {
    for fen in STARTS {
        let plies = plies_to_mate(&Params::default(), fen);
        eprintln!("{fen}: mate after {plies:?} plies");
        assert!(plies.is_some(), "{fen}: not won within 50 moves");
    }
}
