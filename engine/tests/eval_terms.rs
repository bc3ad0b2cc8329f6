//! Behaviour of the evaluation terms: colour symmetry, phase, K+piece vs K, dead draws and
//! the coefficients of single features on hand-made positions.

mod eval_support;

use engine::eval::{EvalTrace, Evaluator, PHASE_MAX, phase, trace};
use engine::params::{Params, feature};
use eval_support::{from_fen, mirrored, random_eval_params, random_playouts};
use shakmaty::Chess;

fn coefs(pos: &Chess) -> EvalTrace {
    let mut tr = EvalTrace::default();
    trace(pos, &mut tr);
    tr
}

fn coef(pos: &Chess, f: usize) -> i32 {
    coefs(pos)
        .terms
        .iter()
        .find(|t| usize::from(t.feature) == f)
        .map_or(0, |t| i32::from(t.coef))
}

#[test]
fn mirrored_positions_evaluate_to_negatives() {
    let mut positions = random_playouts(0xc0105, 20, 160);
    positions.extend(eval_support::scaled_endings());
    for params in [
        Params::default(),
        random_eval_params(11, 300),
        eval_support::with_scales(random_eval_params(12, 300)),
        eval_support::without_scales(random_eval_params(13, 300)),
    ] {
        let evaluator = Evaluator::new(&params);
        for pos in &positions {
            let flipped = mirrored(pos);
            assert_eq!(
                evaluator.evaluate_white(&flipped),
                -evaluator.evaluate_white(pos),
                "{}",
                shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
            );
            assert_eq!(evaluator.evaluate(&flipped), evaluator.evaluate(pos));
            let (a, b) = (coefs(pos), coefs(&flipped));
            assert_eq!(a.phase, b.phase);
            assert_eq!(a.scale, [b.scale[1], b.scale[0]]);
            assert_eq!(a.terms.len(), b.terms.len());
            for (x, y) in a.terms.iter().zip(&b.terms) {
                assert_eq!((x.feature, x.coef), (y.feature, -y.coef));
            }
        }
    }
}

#[test]
fn phase_is_bounded_and_counts_pieces() {
    assert_eq!(phase(&Chess::default()), PHASE_MAX);
    assert_eq!(phase(&from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")), 0);
    assert_eq!(
        phase(&from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")),
        0
    );
    assert_eq!(phase(&from_fen("3qk3/8/8/8/8/8/8/R3KB2 w - - 0 1")), 7);
    // Promoted queens would push the raw count past the maximum.
    assert_eq!(
        phase(&from_fen("qqqqk3/8/8/8/8/8/8/QQQQK3 w - - 0 1")),
        PHASE_MAX
    );
    for pos in random_playouts(3, 10, 200) {
        let ph = phase(&pos);
        assert!((0..=PHASE_MAX).contains(&ph));
        assert_eq!(coefs(&pos).phase, ph);
    }
}

#[test]
fn lone_king_coefficients() {
    // KQK: kings e1 / e8 are 7 apart; the black king is on the edge.
    let pos = from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    assert_eq!(coef(&pos, feature::KING_DISTANCE), 0);
    assert_eq!(coef(&pos, feature::MATE_EDGE), 1);
    // KRK, kings d3 / e5: distance 2; the black king on e5 is 3 from the edge.
    let pos = from_fen("8/8/8/4k3/8/3K4/8/7R b - - 0 1");
    assert_eq!(coef(&pos, feature::KING_DISTANCE), 5);
    assert_eq!(coef(&pos, feature::MATE_EDGE + 3), 1);
    // Black wins: negative coefficients; g2 is 1 from the edge, kings 2 apart.
    let pos = from_fen("8/8/8/8/8/8/6K1/4k1r1 w - - 0 1");
    assert_eq!(coef(&pos, feature::KING_DISTANCE), -5);
    assert_eq!(coef(&pos, feature::MATE_EDGE + 1), -1);
    // A lone-king ending reports material and the mating terms only: no tables, no mobility,
    // no side-to-move bonus, which would pull the kings elsewhere.
    for fen in [
        "8/8/8/4k3/8/3K4/8/7R b - - 0 1",
        "8/8/8/3k4/8/8/8/2BNK3 w - - 0 1",
    ] {
        let pos = from_fen(fen);
        for t in coefs(&pos).terms {
            let f = usize::from(t.feature);
            assert!(
                f < feature::PST || f == feature::KING_DISTANCE || f >= feature::MATE_EDGE,
                "{fen}: feature {}",
                feature::name(f)
            );
        }
    }
    // With pawns the whole evaluation counts again.
    let pos = from_fen("8/8/8/3k4/8/8/3P4/3QK3 w - - 0 1");
    assert_ne!(coef(&pos, feature::TEMPO), 0);
    // KBNK counts, KQKR (not a lone king) and positions with pawns do not.
    let pos = from_fen("8/8/8/3k4/8/8/8/2BNK3 w - - 0 1");
    assert_eq!(coef(&pos, feature::KING_DISTANCE), 7 - 4);
    // The c1 bishop is dark: the black king on d5 is 3 + 4 = 7 steps from a1 and h8.
    assert_eq!(coef(&pos, feature::BN_MATE_CORNER), 14 - 7);
    // Light bishop (f1): a8 and h1. A black king on a8 is in the corner; on h8 (dark) it is
    // 7 steps from either light corner; Black winning gives negative coefficients.
    for (fen, expected) in [
        ("k7/8/8/8/8/8/8/4KBN1 w - - 0 1", 14),
        ("7k/8/8/8/8/8/8/4KBN1 w - - 0 1", 7),
        ("k7/8/8/8/8/8/8/4KB1N w - - 0 1", 14),
        ("8/8/8/8/4K3/8/8/bnk5 w - - 0 1", -(14 - 7)),
        ("8/8/8/8/8/8/8/KBN1k3 b - - 0 1", 14 - 3),
    ] {
        assert_eq!(
            coef(&from_fen(fen), feature::BN_MATE_CORNER),
            expected,
            "{fen}"
        );
    }
    // Other K+X vs K endings leave the corner term out.
    for fen in [
        "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1",
        "8/8/8/3k4/8/8/8/2BBK3 w - - 0 1",
        "8/8/8/3k4/8/8/8/1NBNK3 w - - 0 1",
        "8/8/8/3k4/8/8/8/2BNKR2 w - - 0 1",
    ] {
        assert_eq!(coef(&from_fen(fen), feature::BN_MATE_CORNER), 0, "{fen}");
    }
    for fen in [
        "8/8/8/3k4/8/8/3r4/3QK3 w - - 0 1",
        "8/8/8/3k4/8/8/3P4/3QK3 w - - 0 1",
        "8/8/8/3k4/8/8/8/3NNK2 w - - 0 1",
    ] {
        let pos = from_fen(fen);
        assert_eq!(coef(&pos, feature::KING_DISTANCE), 0, "{fen}");
        for d in 0..4 {
            assert_eq!(coef(&pos, feature::MATE_EDGE + d), 0, "{fen}");
        }
    }
}

#[test]
fn winner_prefers_close_kings_and_lone_king_on_the_edge() {
    let evaluator = Evaluator::new(&Params::default());
    // Same material, White to move in each pair: the black king on a5 (edge) vs d5 (centre),
    // both 4 steps from the white king on e1; then the white king near (d3) vs far (a1).
    let pairs = [
        // (better for White, worse for White)
        (
            "8/8/8/k7/8/8/7Q/4K3 w - - 0 1",
            "8/8/8/3k4/8/8/7Q/4K3 w - - 0 1",
        ),
        (
            "8/8/8/k7/8/8/8/4K2R w - - 0 1",
            "8/8/8/3k4/8/8/8/4K2R w - - 0 1",
        ),
        (
            "8/8/8/3k4/8/3K4/7Q/8 w - - 0 1",
            "8/8/8/3k4/8/8/7Q/K7 w - - 0 1",
        ),
        (
            "8/8/8/3k4/8/3K4/8/7R w - - 0 1",
            "8/8/8/3k4/8/8/8/K6R w - - 0 1",
        ),
    ];
    for (better, worse) in pairs {
        let (b, w) = (from_fen(better), from_fen(worse));
        assert!(
            evaluator.evaluate_white(&b) > evaluator.evaluate_white(&w),
            "{better} should beat {worse}"
        );
        // And the same for Black as the winner, on the mirrored boards.
        assert!(evaluator.evaluate_white(&mirrored(&b)) < evaluator.evaluate_white(&mirrored(&w)));
    }
    // With the terms off, only material and tables remain: king distance no longer matters.
    let mut off = Params::default();
    off.set_assignment("king_distance_factor=0").unwrap();
    let p = Params::default();
    let near = from_fen("8/8/8/3k4/8/3K4/8/7R w - - 0 1");
    let delta_default = Evaluator::new(&p).evaluate_white(&near);
    let delta_off = Evaluator::new(&off).evaluate_white(&near);
    assert_eq!(
        delta_default - delta_off,
        5 * p.get_by_name("king_distance_factor").unwrap()
    );
}

#[test]
fn dead_draws_evaluate_to_zero() {
    let evaluator = Evaluator::new(&Params::default());
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KB2 b - - 0 1",
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/4KB2 w - - 0 1",
    ] {
        let pos = from_fen(fen);
        assert_eq!(evaluator.evaluate(&pos), 0, "{fen}");
        assert!(coefs(&pos).terms.is_empty(), "{fen}");
    }
    // A rook is enough to play for a win.
    let pos = from_fen("4k3/8/8/8/8/8/8/4KR2 w - - 0 1");
    assert!(evaluator.evaluate(&pos) > 300);
}

#[test]
fn pawn_structure_coefficients() {
    // White: a2 a3 (doubled, isolated; a3 passed on rank 3, a2 behind it not), e5 passed on
    // rank 5 and isolated. Black: h7, isolated and passed on Black's second rank.
    let pos = from_fen("4k3/7p/8/4P3/8/P7/P7/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::DOUBLED_PAWN), 1);
    assert_eq!(coef(&pos, feature::ISOLATED_PAWN), 3 - 1);
    assert_eq!(coef(&pos, feature::PASSED_PAWN + 1), 1); // a3
    assert_eq!(coef(&pos, feature::PASSED_PAWN + 3), 1); // e5
    assert_eq!(coef(&pos, feature::PASSED_PAWN), -1); // h7 = Black's second rank
    // A black pawn on d6 stops e5 being passed.
    let pos = from_fen("4k3/8/3p4/4P3/8/8/8/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::PASSED_PAWN + 3), 0);
    assert_eq!(coef(&pos, feature::PASSED_PAWN + 2), 0);
}

#[test]
fn piece_and_king_coefficients() {
    // Knight b1: a3, c3, d2; the black pawn on d4 guards c3 -> mobility 2.
    let pos = from_fen("4k3/8/8/8/3p4/8/8/1N2K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::MOBILITY_KNIGHT + 2), 1);
    assert_eq!(coef(&pos, feature::TEMPO), 1);
    let pos = from_fen("4k3/8/8/8/3p4/8/8/1N2K3 b - - 0 1");
    assert_eq!(coef(&pos, feature::TEMPO), -1);
    // Rooks: a-file open, b-file semi-open (only a black pawn), h-file closed.
    let pos = from_fen("4k3/1p5p/8/8/8/8/7P/RR2K2R w - - 0 1");
    assert_eq!(coef(&pos, feature::ROOK_OPEN_FILE), 1);
    assert_eq!(coef(&pos, feature::ROOK_SEMI_OPEN_FILE), 1);
    // Bishop pair for Black only.
    let pos = from_fen("2b1kb2/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::BISHOP_PAIR), -1);
    // King g1 behind f2 g2 h3: shelter 3, no open file. Black king e8 without pawns: three
    // open files. The knight on f6 attacks e8 and d7, both in the black king's zone.
    let pos = from_fen("4k3/8/5N2/8/8/7P/5PP1/6K1 b - - 0 1");
    assert_eq!(coef(&pos, feature::KING_SHELTER), 3);
    assert_eq!(coef(&pos, feature::KING_OPEN_FILE), -3);
    assert_eq!(coef(&pos, feature::KING_ATTACK), 2);
}

#[test]
fn threat_coefficients() {
    // The e4 pawn attacks the d5 knight, which nothing defends.
    let pos = from_fen("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::THREAT_BY_PAWN), 1);
    assert_eq!(coef(&pos, feature::THREAT_BY_MINOR), 0);
    assert_eq!(coef(&pos, feature::HANGING), 1);
    // The c3 knight attacks the d5 rook: hanging, then defended by the e6 pawn.
    let pos = from_fen("4k3/8/8/3r4/8/2N5/8/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::THREAT_BY_MINOR), 1);
    assert_eq!(coef(&pos, feature::HANGING), 1);
    let pos = from_fen("4k3/8/4p3/3r4/8/2N5/8/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::THREAT_BY_MINOR), 1);
    assert_eq!(coef(&pos, feature::HANGING), 0);
    // Attacked pawns are not threats. Black's b4 bishop attacks the undefended c3 knight and
    // d6 pawn: one hanging piece; with the white king on d2 the knight is defended.
    let pos = from_fen("7k/8/3P4/8/1b6/2N5/8/5K2 w - - 0 1");
    assert_eq!(coef(&pos, feature::HANGING), -1);
    assert_eq!(coef(&pos, feature::THREAT_BY_PAWN), 0);
    let pos = from_fen("7k/8/3P4/8/1b6/2N5/3K4/8 w - - 0 1");
    assert_eq!(coef(&pos, feature::HANGING), 0);
}

#[test]
fn passer_coefficients() {
    // White e6 passer (advance 3), front square e7. White king e1: 6 away; black king a8: 4.
    // Path e7 e8 empty, e8 attacked by nothing black (king a8 reaches b7 b8 a7): free.
    let pos = from_fen("k7/8/4P3/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::PASSER_OWN_KING), 3 * 6);
    assert_eq!(coef(&pos, feature::PASSER_ENEMY_KING), 3 * 4);
    assert_eq!(coef(&pos, feature::FREE_PASSER), 3);
    // Promotion e8 is 4 from a8, the pawn 2 moves away: unstoppable for either side to move.
    assert_eq!(coef(&pos, feature::UNSTOPPABLE_PASSER), 1);
    let pos = from_fen("k7/8/4P3/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(coef(&pos, feature::UNSTOPPABLE_PASSER), 1);
    // King c8: 2 from e8; Black to move catches it, White to move still does (2 > 2 fails).
    for turn in ["w", "b"] {
        let pos = from_fen(&format!("2k5/8/4P3/8/8/8/8/4K3 {turn} - - 0 1"));
        assert_eq!(coef(&pos, feature::UNSTOPPABLE_PASSER), 0, "{turn}");
    }
    // King b8, 3 from e8: unstoppable only with White to move.
    let pos = from_fen("1k6/8/4P3/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::UNSTOPPABLE_PASSER), 1);
    let pos = from_fen("1k6/8/4P3/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(coef(&pos, feature::UNSTOPPABLE_PASSER), 0);
    // A black knight: no rule of the square; it also attacks e7, so the path is not free.
    let pos = from_fen("k7/8/4P1n1/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::UNSTOPPABLE_PASSER), 0);
    assert_eq!(coef(&pos, feature::FREE_PASSER), 0);
    // e6 supported by d5, the e1 rook behind it (the king on d1).
    let pos = from_fen("7k/8/4P3/3P4/8/8/8/3KR3 w - - 0 1");
    assert_eq!(coef(&pos, feature::SUPPORTED_PASSER), 1);
    assert_eq!(coef(&pos, feature::ROOK_BEHIND_PASSER), 1);
    // A piece between rook and pawn blocks it.
    let pos = from_fen("7k/8/4P3/3P4/8/8/4N3/3KR3 w - - 0 1");
    assert_eq!(coef(&pos, feature::ROOK_BEHIND_PASSER), 0);
}

#[test]
fn king_activity_coefficients() {
    // Kings e4 (centrality 6) and a8 (0). White's king: 2 to its f2 pawn, 3 to the black h7
    // pawn. Black's king: 7 to its h7 pawn, 6 to f2.
    let pos = from_fen("k7/7p/8/8/4K3/8/5P2/8 w - - 0 1");
    assert_eq!(coef(&pos, feature::KING_CENTER), 6);
    assert_eq!(coef(&pos, feature::KING_OWN_PAWN_DISTANCE), 2 - 7);
    assert_eq!(coef(&pos, feature::KING_ENEMY_PAWN_DISTANCE), 3 - 6);
    // Bare kings: a dead draw, no features.
    let pos = from_fen("8/6k1/8/8/8/2K5/8/8 w - - 0 1");
    assert_eq!(coef(&pos, feature::KING_CENTER), 0);
    // Kings c3 (6 - 1 - 1 = 4) and g7 (6 - 2 - 2 = 2), each next to its own pawn.
    let pos = from_fen("8/6k1/6p1/8/8/2K5/2P5/8 w - - 0 1");
    assert_eq!(coef(&pos, feature::KING_CENTER), 4 - 2);
    assert_eq!(coef(&pos, feature::KING_OWN_PAWN_DISTANCE), 1 - 1);
    // c3 to g6: files 4, ranks 3 -> 4; g7 to c2: files 4, ranks 5 -> 5.
    assert_eq!(coef(&pos, feature::KING_ENEMY_PAWN_DISTANCE), 4 - 5);
}

#[test]
fn outpost_and_seventh_rank_coefficients() {
    // (The h- and a-file pawns keep these out of the K+piece vs K rules.)
    // White knight d5 backed by the e4 pawn, no black pawn on the c or e files ahead of it:
    // an outpost. A black pawn on c7 could drive it away.
    let pos = from_fen("4k3/8/7p/3N4/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::KNIGHT_OUTPOST), 1);
    let pos = from_fen("4k3/2p5/7p/3N4/4P3/8/8/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::KNIGHT_OUTPOST), 0);
    // Without the supporting pawn, or on the third rank: no outpost.
    let pos = from_fen("4k3/8/7p/3N4/8/8/7P/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::KNIGHT_OUTPOST), 0);
    let pos = from_fen("4k3/8/7p/8/8/3N4/4P3/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::KNIGHT_OUTPOST), 0);
    // A black bishop on e4 backed by the d5 pawn, no white pawn on the d or f files below;
    // then an f2 pawn that can reach f3.
    let pos = from_fen("4k3/8/8/3p4/4b3/8/P7/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::BISHOP_OUTPOST), -1);
    let pos = from_fen("4k3/8/8/3p4/4b3/8/P4P2/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::BISHOP_OUTPOST), 0);
    // White rook on the seventh with the black king on the eighth; then with the king on the
    // sixth but a black pawn on the seventh; then neither.
    let pos = from_fen("4k3/R7/8/7p/8/8/8/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::ROOK_ON_SEVENTH), 1);
    let pos = from_fen("8/R6p/4k3/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::ROOK_ON_SEVENTH), 1);
    let pos = from_fen("8/R7/4k3/7p/8/8/8/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::ROOK_ON_SEVENTH), 0);
    // A black queen on White's second rank with the white king on the first.
    let pos = from_fen("4k3/8/8/8/7P/8/q7/4K3 w - - 0 1");
    assert_eq!(coef(&pos, feature::QUEEN_ON_SEVENTH), -1);
}

#[test]
fn endgame_scaling_shrinks_drawish_endings_only() {
    // The default factors: 50 % with opposite bishops, 0 % for a lone minor, 25 % for a
    // pawnless small lead, against the same weights unscaled.
    let plain = Evaluator::new(&eval_support::without_scales(Params::default()));
    let scaled = Evaluator::new(&Params::default());
    let eval = |e: &Evaluator, fen: &str| e.evaluate_white(&from_fen(fen));
    // Opposite-coloured bishops, White a pawn up: the endgame half (22 of 24 at phase 2)
    // halved.
    let ocb = "8/5k2/5b2/1p3p2/5P2/1P1B1P2/5K2/8 w - - 0 1";
    let (before, after) = (eval(&plain, ocb), eval(&scaled, ocb));
    assert!(
        before > 40 && after >= before / 2 - 1 && after < before * 6 / 10,
        "{before} -> {after}"
    );
    // K+R vs K+B: a quarter.
    let krkb = "8/8/3k4/8/3b4/8/3RK3/8 w - - 0 1";
    let (before, after) = (eval(&plain, krkb), eval(&scaled, krkb));
    assert!(before > 100 && after < before / 3, "{before} -> {after}");
    // K+N vs K+P with the knight's side ahead: nothing is left of the endgame sum, only the
    // middlegame share of phase 1 in 24.
    let knkp = "8/8/3k4/3p4/8/8/3NK3/8 w - - 0 1";
    let (before, after) = (eval(&plain, knkp), eval(&scaled, knkp));
    assert!(
        before > 100 && after.abs() < before / 5,
        "{before} -> {after}"
    );
    // K+Q vs K+R and a normal middlegame position are untouched.
    for fen in [
        "8/8/3k4/3r4/8/8/3QK3/8 w - - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    ] {
        assert_eq!(eval(&plain, fen), eval(&scaled, fen), "{fen}");
    }
}
