//! K+Q vs K and K+R vs K played out by the engine on both sides: the king-distance term
//! (`king_distance_factor`) is what lets a shallow search bring its king over and mate when
//! nothing else in the evaluation does, and the default evaluation mates. K+B+N vs K from
//! random starts: the corner term (`bn_mate_corner`) drives the lone king to a corner of the
//! bishop's colour, and the engine mates at a small node budget.

mod eval_support;

use std::sync::atomic::AtomicBool;

use engine::params::Params;
use engine::search::{Limits, Searcher, position_key};
use eval_support::Rng;
use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, FromSetup, Piece, Position, Role, Setup, Square,
    attacks,
};

const STARTS: [&str; 6] = [
    "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1",
    "8/8/2k5/8/8/5K2/8/7Q w - - 0 1",
    "8/1k6/8/8/8/8/6K1/3Q4 b - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
    "8/8/2k5/8/8/5K2/8/7R w - - 0 1",
    "8/1k6/8/8/8/8/6K1/3R4 b - - 0 1",
];

/// Plays the game out with one searcher for both sides at depth 4; returns the number of
/// plies until mate, or `None` when there was no mate within 50 moves.
fn plies_to_mate(params: &Params, fen: &str) -> Option<usize> {
    let pos: Chess = fen
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    play_out(params, pos, &limits)
}

/// Plays `pos` out with one searcher for both sides at `limits` a move; returns the number of
/// plies until mate, or `None` when the game ended otherwise or there was no mate within 50
/// moves (the fifty-move rule: no capture or pawn move is possible here).
fn play_out(params: &Params, mut pos: Chess, limits: &Limits) -> Option<usize> {
    let mut searcher = Searcher::new(params.clone(), 4);
    let stop = AtomicBool::new(false);
    let mut history = Vec::new();
    for ply in 0..101 {
        if pos.is_checkmate() {
            return Some(ply);
        }
        if pos.is_game_over() || pos.halfmoves() >= 100 {
            return None;
        }
        let result = searcher.search(&pos, &history, limits, &stop, &mut |_| {});
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
        "mate_box",
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

/// Random legal K+B+N vs K positions from a fixed seed: either colour has the pieces, either
/// side to move, and the lone king touches neither piece (so none can be won at once).
fn random_kbnk_starts(seed: u64, count: usize) -> Vec<Chess> {
    let mut rng = Rng::new(seed);
    let mut starts = Vec::new();
    while starts.len() < count {
        let winner = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let squares: Vec<Square> = (0..4).map(|_| Square::new(rng.below(64) as u32)).collect();
        let [strong_king, bishop, knight, lone_king] = squares[..] else {
            unreachable!()
        };
        let occupied: Bitboard = squares.iter().copied().collect();
        if occupied.count() < 4 || (attacks::king_attacks(lone_king) & occupied).count() > 0 {
            continue;
        }
        let mut board = Board::empty();
        for (square, role, color) in [
            (strong_king, Role::King, winner),
            (bishop, Role::Bishop, winner),
            (knight, Role::Knight, winner),
            (lone_king, Role::King, !winner),
        ] {
            board.set_piece_at(square, Piece { color, role });
        }
        let setup = Setup {
            board,
            turn: if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            },
            ..Setup::empty()
        };
        if let Ok(pos) = Chess::from_setup(setup, CastlingMode::Standard)
            && !pos.is_game_over()
        {
            starts.push(pos);
        }
    }
    starts
}

#[test]
fn default_evaluation_mates_kbnk_from_random_starts() {
    let limits = Limits {
        nodes: Some(KBNK_NODES),
        ..Limits::default()
    };
    let mut without_corner = Params::default();
    without_corner.set_assignment("bn_mate_corner=0").unwrap();
    let mut failures = Vec::new();
    let mut mated_without_corner = 0;
    let starts = random_kbnk_starts(0x6b62_6e6b, 30);
    for (index, pos) in starts.iter().enumerate() {
        let fen = Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string();
        let plies = play_out(&Params::default(), pos.clone(), &limits);
        eprintln!("{fen}: mate after {plies:?} plies");
        if plies.is_none() {
            failures.push(fen);
        }
        if index < WITHOUT_CORNER_STARTS {
            let plies_without = play_out(&without_corner, pos.clone(), &limits);
            eprintln!("    bn_mate_corner=0: {plies_without:?}");
            mated_without_corner += usize::from(plies_without.is_some());
        }
    }
    assert!(
        failures.is_empty(),
        "not mated within 50 moves: {failures:?}"
    );
    // The corner term is what does it: edge and king distance alone miss many (those games
    // mostly run the full 50 moves, so only the first starts are tried without it).
    assert!(
        mated_without_corner < WITHOUT_CORNER_STARTS * 3 / 4,
        "bn_mate_corner=0 mated {mated_without_corner} of {WITHOUT_CORNER_STARTS}"
    );
}

/// Starts also played with `bn_mate_corner=0`, to show that the term matters.
const WITHOUT_CORNER_STARTS: usize = 12;

/// Nodes a move in the K+B+N vs K games: a small budget, a few milliseconds of search. (5,000
/// until the pruning of rows 3–9 of docs/strength.md, where one start in 30 missed; with the
/// quiescence table of row 20 one missed at 20,000, none since row 25's bound fix; with row
/// 51's extra reduction of non-improving nodes one missed at 20,000 again, none at 25,000,
/// where the slowest of the 30 mates in 77 plies. Row 70's reduction of quiet checks, which
/// the mating net is made of, missed two at 25,000, one at 30,000, none at 40,000 (slowest
/// 91 plies) or 50,000 (slowest 82).)
const KBNK_NODES: u64 = 50_000;
