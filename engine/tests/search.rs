//! Search behaviour on hand-picked positions: mates, draws, the design notes' tactical
//! positions, determinism and limits.

use std::sync::atomic::AtomicBool;

use engine::params::Params;
use engine::search::{Limits, Score, SearchResult, Searcher, position_key};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

fn search_with(params: Params, fen: &str, limits: Limits, history: &[u64]) -> SearchResult {
    let mut searcher = Searcher::new(params, 16);
    let stop = AtomicBool::new(false);
    searcher.search(&pos(fen), history, &limits, &stop, &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn uci(r: &SearchResult) -> String {
    r.best_move
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .unwrap_or_default()
}

#[test]
fn finds_mates_with_exact_distance() {
    for (fen, mate, best) in [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, Some("d1d8")),
        ("k7/8/2K5/8/8/8/8/7R w - - 0 1", 2, None),
        ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, Some("f6a6")),
        (
            "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
            3,
            Some("f8c5"),
        ),
        // The side to move gets mated: after 1...Kb8 2.Rh8#.
        ("k7/8/1K6/8/8/8/8/7R b - - 0 1", -1, Some("a8b8")),
    ] {
        let r = search_with(Params::default(), fen, depth(8), &[]);
        assert_eq!(r.score, Score::Mate(mate), "{fen}: {r:?}");
        if let Some(best) = best {
            assert_eq!(uci(&r), best, "{fen}");
        }
    }
}

#[test]
fn stalemate_and_checkmate_at_the_root() {
    let r = search_with(
        Params::default(),
        "k7/P7/K7/8/8/8/8/8 b - - 0 1",
        depth(5),
        &[],
    );
    assert_eq!((r.best_move, r.score), (None, Score::Cp(0)));
    let r = search_with(
        Params::default(),
        "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
        depth(5),
        &[],
    );
    assert_eq!((r.best_move, r.score), (None, Score::Mate(0)));
}

#[test]
fn avoids_stalemating_when_winning() {
    // 1.Qb6?? and 1.Qc7?? stalemate; anything sensible wins.
    let r = search_with(
        Params::default(),
        "k7/8/8/1Q6/8/8/8/1K6 w - - 0 1",
        depth(6),
        &[],
    );
    let best = uci(&r);
    assert!(!["b5b6", "b5c7"].contains(&best.as_str()), "{best}");
    assert!(
        matches!(r.score, Score::Cp(cp) if cp > 500) || matches!(r.score, Score::Mate(n) if n > 0)
    );
}

/// Black is a rook down; after 1...Kg8 the position would occur for the third time, so the
/// losing side can claim the draw by repetition: the FEN and the game's history of keys.
fn repetition_claim() -> (&'static str, [u64; 4]) {
    let fen = "7k/8/8/8/8/8/5PPP/R5K1 b - - 10 40";
    let root = pos(fen);
    let kg8 = "h8g8".parse::<UciMove>().unwrap().to_move(&root).unwrap();
    let mut after = root.clone();
    after.play_unchecked(kg8);
    let repeated = position_key(&after);
    (fen, [1, repeated, 2, repeated])
}

#[test]
fn threefold_repetition_with_game_history_is_a_draw() {
    let (fen, history) = repetition_claim();
    let r = search_with(Params::default(), fen, depth(6), &history);
    assert_eq!((uci(&r).as_str(), r.score), ("h8g8", Score::Cp(0)), "{r:?}");
    // Without the history the same search sees a lost position.
    let r = search_with(Params::default(), fen, depth(6), &[]);
    assert!(matches!(r.score, Score::Cp(cp) if cp < -300), "{r:?}");
}

#[test]
fn draw_jitter_scores_a_repetition_one_off_zero() {
    // The claim of a draw by repetition, with `draw_jitter`: still the drawing move, but the
    // draw is worth −1 or +1 (by the node count at the repeating node), never exactly 0.
    let (fen, history) = repetition_claim();
    let mut p = Params::default();
    p.set_assignment("draw_jitter=1").unwrap();
    let r = search_with(p, fen, depth(6), &history);
    assert_eq!(uci(&r), "h8g8", "{r:?}");
    assert!(matches!(r.score, Score::Cp(-1 | 1)), "{r:?}");
}

#[test]
fn fifty_move_rule_is_a_draw() {
    // A rook up, but the 99th half-move: any move (none captures) ends the game in a draw.
    let r = search_with(
        Params::default(),
        "7k/8/8/8/8/8/8/R5K1 w - - 99 120",
        depth(4),
        &[],
    );
    assert_eq!(r.score, Score::Cp(0), "{r:?}");
    // Unless it mates.
    let r = search_with(
        Params::default(),
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 99 120",
        depth(4),
        &[],
    );
    assert_eq!(r.score, Score::Mate(1), "{r:?}");
}

#[test]
fn node_and_depth_limits_are_exact_and_deterministic() {
    let fen = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14";
    let limits = Limits {
        nodes: Some(12_345),
        ..Limits::default()
    };
    let a = search_with(Params::default(), fen, limits, &[]);
    let b = search_with(Params::default(), fen, limits, &[]);
    assert_eq!(a.nodes, 12_345);
    assert_eq!(
        (a.best_move, a.nodes, a.pv.clone()),
        (b.best_move, b.nodes, b.pv.clone())
    );
    let a = search_with(Params::default(), fen, depth(6), &[]);
    let b = search_with(Params::default(), fen, depth(6), &[]);
    assert_eq!(a.depth, 6);
    assert_eq!(
        (a.best_move, a.nodes, a.score),
        (b.best_move, b.nodes, b.score)
    );
}

#[test]
fn every_search_feature_can_be_switched_off() {
    let middlegame = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14";
    let mate = "r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1";
    let qe8 = "rk4r1/ppp2qBQ/3p1R2/8/2P5/2PP2P1/P2K4/3R4 b - - 0 1";
    for (name, fen) in [
        ("see_pruning", middlegame),
        ("null_move", middlegame),
        ("lmr", middlegame),
        ("reverse_futility", middlegame),
        ("aspiration_window", middlegame),
        ("lmp", middlegame),
        ("qsearch_check_plies", qe8),
        ("mate_distance_pruning", mate),
    ] {
        let base = search_with(Params::default(), fen, depth(7), &[]).nodes;
        let mut p = Params::default();
        p.set_assignment(&format!("{name}=0")).unwrap();
        let r = search_with(p, fen, depth(7), &[]);
        assert!(r.best_move.is_some());
        assert_ne!(r.nodes, base, "{name}=0 changed nothing");
    }
    // Since the history is split by threats (row 144), switching it off leaves the depth-7
    // middlegame search above at the same node count: two positions, deeper.
    assert!(
        changes_the_search("check_extension=0"),
        "check_extension=0 changed nothing"
    );
    // Acts in fewer nodes: searched deeper, in two positions.
    assert!(
        changes_the_search("lmr_not_improving=0"),
        "lmr_not_improving=0 changed nothing"
    );
    assert!(
        changes_the_search("correction_history=0"),
        "correction_history=0 changed nothing"
    );
    assert!(
        changes_the_search("lmr_killers=0"),
        "lmr_killers=0 changed nothing"
    );
    assert!(
        changes_the_search("lmr_tt_pv=0"),
        "lmr_tt_pv=0 changed nothing"
    );
    assert!(
        changes_the_search("capture_futility_margin=0"),
        "capture_futility_margin=0 changed nothing"
    );
    assert!(
        changes_the_search("qsearch_evasion_limit=0"),
        "qsearch_evasion_limit=0 changed nothing"
    );
    assert!(
        changes_the_search("countermove_bonus=0"),
        "countermove_bonus=0 changed nothing"
    );
    for assignments in [
        "eval_history_divisor=0",
        "fail_low_prior_bonus=0",
        "singular_extension=0",
        "qsearch_tt_eval=0",
        "aspiration_fail_high_reduction=0",
        "futility_lmr_depth=0",
        "check_extension_see=0",
        "pawn_history=0",
        "history_threats=0",
        "lmr_escape=0",
        "lmr_threat_move=0",
        "rfp_threat_plies=0",
    ] {
        assert!(
            changes_the_search(assignments),
            "{assignments} changed nothing"
        );
    }
}

#[test]
fn the_null_moves_depth_divisor_sets_its_reduction() {
    // One ply more per 3 plies of depth instead of per 6: deeper nodes are reduced more.
    assert!(
        changes_the_search("null_move_depth_divisor=3"),
        "null_move_depth_divisor=3 changed nothing"
    );
}

/// Whether the parameter assignments (space-separated `name=value`) change the node count of
/// a depth-8 search in at least one of two positions; each search must find a move.
fn changes_the_search(assignments: &str) -> bool {
    changes_the_search_from("", assignments)
}

/// Parameters with the space-separated `name=value` assignments of `base` applied.
fn params_with(base: &str) -> Params {
    let mut p = Params::default();
    for assignment in base.split(' ').filter(|a| !a.is_empty()) {
        p.set_assignment(assignment).unwrap();
    }
    p
}

/// [`changes_the_search`] from the parameters of `base` instead of the defaults.
fn changes_the_search_from(base: &str, assignments: &str) -> bool {
    let middlegame = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14";
    let tactical = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10";
    let mut changed = false;
    for fen in [middlegame, tactical] {
        let before = search_with(params_with(base), fen, depth(8), &[]);
        let r = search_with(
            params_with(&format!("{base} {assignments}")),
            fen,
            depth(8),
            &[],
        );
        assert!(
            r.best_move.is_some(),
            "{assignments} found no move in {fen}"
        );
        changed |= r.nodes != before.nodes;
    }
    changed
}

#[test]
fn reverse_futility_sparing_table_pv_nodes_changes_the_search() {
    // At the default margin no table-PV node of these short searches is pruned (since row
    // 95's evasion limit): a smaller margin prunes enough of them to show the switch acting.
    let base = "reverse_futility_margin=10";
    assert!(
        changes_the_search_from(base, "rfp_tt_pv=1"),
        "rfp_tt_pv=1 changed nothing from {base}"
    );
}

#[test]
fn the_singular_extensions_refinements_change_its_search() {
    // Both act only where the singular search runs, from depth 6: lowered to act at depth 8.
    let base = "singular_extension=1 singular_depth=4";
    for assignments in ["singular_negative=1", "singular_double_margin=10"] {
        assert!(
            changes_the_search_from(base, assignments),
            "{assignments} changed nothing from {base}"
        );
    }
    // With no double extension allowed on a path, the double margin does nothing.
    assert!(!changes_the_search_from(
        &format!("{base} singular_double_limit=0"),
        "singular_double_margin=10"
    ));
    // Without the singular extension they do nothing.
    assert!(!changes_the_search_from(
        "singular_extension=0",
        "singular_negative=1 singular_double_margin=10"
    ));
}

#[test]
fn the_correction_knobs_act_only_with_the_correction_history() {
    assert!(
        changes_the_search("correction_nonpawn=0"),
        "correction_nonpawn=0 changed nothing"
    );
    assert!(!changes_the_search_from(
        "correction_history=0",
        "correction_nonpawn=0"
    ));
    assert!(
        changes_the_search("correction_continuation=0"),
        "correction_continuation=0 changed nothing"
    );
    assert!(!changes_the_search_from(
        "correction_history=0",
        "correction_continuation=0"
    ));
    assert!(
        changes_the_search("correction_rate=200"),
        "correction_rate=200 changed nothing"
    );
    assert!(!changes_the_search_from(
        "correction_history=0",
        "correction_rate=200"
    ));
    assert!(
        changes_the_search("correction_minor=0"),
        "correction_minor=0 changed nothing"
    );
    assert!(!changes_the_search_from(
        "correction_history=0",
        "correction_minor=0"
    ));
    assert!(
        changes_the_search("correction_major=0"),
        "correction_major=0 changed nothing"
    );
    assert!(!changes_the_search_from(
        "correction_history=0",
        "correction_major=0"
    ));
    assert!(!changes_the_search_from(
        "correction_history=0",
        "correction_material=100"
    ));
    assert!(!changes_the_search_from(
        "correction_history=0",
        "correction_continuation_4=100"
    ));
    assert!(
        changes_the_search("lmr_correction=20"),
        "lmr_correction=20 changed nothing"
    );
    assert!(!changes_the_search_from(
        "correction_history=0",
        "lmr_correction=20"
    ));
    // Residual learning differs from learning the whole error only with several tables.
    assert!(
        changes_the_search("correction_residual=0"),
        "correction_residual=0 changed nothing"
    );
    assert!(!changes_the_search_from(
        "correction_history=0",
        "correction_residual=0"
    ));
}

#[test]
fn every_search_feature_off_by_default_can_be_switched_on() {
    // Each switch with the knobs it needs to act at depth 8 (the default history margin
    // prunes next to nothing in a search this short, and since row 113's knobs the default
    // divisor's extra reduction leaves both searches' node counts as they were).
    for assignments in [
        "razoring=1",
        "iir=1",
        "history_pruning=1 history_prune_margin=250",
        "lmr_bad_captures=1",
        "null_move_eval=1 null_move_eval_divisor=50",
        "probcut=1",
        "tt_cutoff_history=1",
        "lmr_research_adjust=1",
        "lmr_cutoff_count=1",
        "cont_history_4=1",
        "quiet_check_bonus=4000",
        "hindsight_depth=1",
        "qsearch_fail_high_percent=75",
        "fail_high_damping=1",
        "fifty_move_scale=200",
        "futility_history_divisor=8000",
        "lmr_cont_update=1",
        "lmr_parent_late=7",
        "qsearch_capture_history=1",
        "null_move_threat_depth=5",
        "capture_history_threats=1",
        "history_overshoot_margin=150",
        "history_malus_percent=150",
        "tt_probcut_margin=300",
        "correction_material=100",
        "correction_continuation_4=100",
        "low_ply_history=16",
        "rfp_worsening_percent=33",
        "nnue=0",
        "nnue_residual_limit=50",
        "nnue_residual_percent=50",
    ] {
        assert!(
            changes_the_search(assignments),
            "{assignments} changed nothing"
        );
    }
}

/// Searches a design-notes position with `qsearch_check_plies` = `checks`.
fn design_position(fen: &str, checks: i32, d: u32) -> SearchResult {
    let mut p = Params::default();
    p.set_assignment(&format!("qsearch_check_plies={checks}"))
        .unwrap();
    let limits = Limits {
        depth: Some(d),
        nodes: Some(BUDGET),
        ..Limits::default()
    };
    let r = search_with(p, fen, limits, &[]);
    assert!(r.nodes < BUDGET, "{fen}: node budget exhausted");
    r
}

/// The "modest node budget": every design-notes search below must finish within it.
const BUDGET: u64 = 300_000;

// The four positions quoted in ../shared/README.md (the project's design notes).

#[test]
fn design_notes_qe8_needs_checks_in_quiescence() {
    let fen = "rk4r1/ppp2qBQ/3p1R2/8/2P5/2PP2P1/P2K4/3R4 b - - 0 1";
    // Needs the tactical quiescence search: at depth 3 the quiet mate 3.Rf8# after
    // 1...Qxg7 2.Qxg7 Rxg7 lies in quiescence, where only a check-generating search sees it.
    assert_eq!(uci(&design_position(fen, 1, 3)), "f7e8");
    // Captures-only quiescence falls for 1...Qxg7?? at the same depth.
    assert_eq!(uci(&design_position(fen, 0, 3)), "f7g7");
}

#[test]
fn design_notes_qa4_check_wins_the_bishop() {
    // Plain search suffices (the bishop falls to a check and a capture).
    let fen = "rnbqk2r/ppp2ppp/3ppn2/3P4/1bP5/2N5/PP2PPPP/R1BQKBNR w KQkq - 0 1";
    for checks in [0, 1] {
        assert_eq!(uci(&design_position(fen, checks, 4)), "d1a4");
    }
}

#[test]
fn design_notes_qxd8_mates_and_checks_find_it_sooner() {
    let fen = "3r2k1/1p3p2/p1n3p1/5bQp/8/P1B5/1P3qPP/4R2K w - - 0 1";
    // 1.Qxd8+ Nxd8 2.Re8+ Kh7 3.Rh8#: 1.Qxd8+ sacrifices the queen, so by SEE its check is
    // not extended (`check_extension_see`). With checks in quiescence depth 3 proves the mate
    // (2.Re8+ is a quiet check below the horizon)...
    let r = design_position(fen, 1, 3);
    assert_eq!((uci(&r).as_str(), r.score), ("g5d8", Score::Mate(3)));
    // ...captures-only quiescence needs one more ply.
    assert_ne!(uci(&design_position(fen, 0, 3)), "g5d8");
    let r = design_position(fen, 0, 4);
    assert_eq!((uci(&r).as_str(), r.score), ("g5d8", Score::Mate(3)));
}

#[test]
fn design_notes_red1_needs_the_tactical_quiescence() {
    let fen = "r1r3k1/2PR1ppp/4pppp/p3P3/8/P7/5PPP/4R1K1 w - - 0 1";
    // 1.Red1 wins a rook: 1...Re8 2.Rd8 Kf8 3.Rxa8 Rxa8 4.Rd8+ Ke7 5.Rxa8. At depth 4 the
    // horizon falls after 2...Kf8, so 3.Rxa8 Rxa8 4.Rd8+ is the third quiescence ply: a quiet
    // check there needs `qsearch_check_plies` of at least 3. Which defence the search holds
    // best at depth 4 depends on the weights: since bench 1014417 it is 1...Rf8, whose
    // refutation (2.Rd8, mate in 15 by Stockfish) puts the quiet check a ply further, so the
    // win shows with 4 check plies and 1.Red1 alone with 3.
    // A rook up scores near 400 cp, the evaluation's other terms and the network moving it
    // by tens of centipawns (394 at bench 932795); without the tactic the score stays below 50.
    let wins_a_rook = |r: &SearchResult| matches!(r.score, Score::Cp(cp) if cp >= 300);
    for checks in [3, 4, 5] {
        let r = design_position(fen, checks, 4);
        assert_eq!(uci(&r), "e1d1", "checks={checks}: {r:?}");
        assert!(checks < 4 || wins_a_rook(&r), "checks={checks}: {r:?}");
    }
    // With fewer quiescence checks depth 4 does not see the win. Red1 is also a sound quiet
    // move (it takes the open file), so the move alone may come out right by accident: the
    // score tells whether the tactic was seen.
    for checks in [0, 1, 2] {
        let r = design_position(fen, checks, 4);
        assert!(!wins_a_rook(&r), "checks={checks}: {r:?}");
    }
}
