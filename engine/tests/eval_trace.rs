//! The tuner's contract: the trace of a position, valued with a parameter set, equals the
//! evaluation with those parameters (up to the evaluator's rounding).

mod eval_support;

use engine::eval::{EvalTrace, Evaluator, trace};
use engine::params::Params;
use eval_support::{
    random_eval_params, random_playouts, scaled_endings, shared_book_positions, with_scales,
};
use shakmaty::Chess;

fn assert_identity(positions: &[Chess], params: &Params, what: &str) {
    let evaluator = Evaluator::new(params);
    let mut tr = EvalTrace::default();
    for pos in positions {
        trace(pos, &mut tr);
        let from_trace = tr.value(params);
        let direct = evaluator.evaluate_white(pos);
        assert!(
            (from_trace - f64::from(direct)).abs() < 1.0,
            "{what}: trace {from_trace} vs eval {direct} in {}",
            shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
        );
        assert!(
            tr.terms.windows(2).all(|w| w[0].feature < w[1].feature),
            "{what}: trace terms not unique and sorted"
        );
        assert!(tr.terms.iter().all(|t| t.coef != 0));
    }
}

#[test]
fn trace_equals_evaluation_on_random_playouts() {
    let positions = random_playouts(0x5eed, 40, 160);
    assert!(positions.len() > 3000, "only {} positions", positions.len());
    assert_identity(&positions, &Params::default(), "defaults");
    for seed in 1..=3 {
        assert_identity(&positions, &random_eval_params(seed, 300), "random weights");
    }
}

#[test]
fn trace_equals_evaluation_with_endgame_scaling() {
    let mut positions = scaled_endings();
    positions.extend(random_playouts(0x5ca1e, 20, 200));
    assert_identity(
        &positions,
        &with_scales(Params::default()),
        "scaled defaults",
    );
    for seed in 1..=3 {
        let params = with_scales(random_eval_params(seed, 300));
        assert_identity(&positions, &params, "scaled random weights");
    }
}

#[test]
fn trace_equals_evaluation_on_shared_book() {
    let Some(positions) = shared_book_positions(3000) else {
        return;
    };
    assert_eq!(positions.len(), 3000);
    assert_identity(&positions, &Params::default(), "defaults");
    assert_identity(&positions, &random_eval_params(7, 300), "random weights");
}

#[test]
fn material_only_params_count_material() {
    let params = Params::material_only();
    let evaluator = Evaluator::new(&params);
    assert_eq!(evaluator.evaluate_white(&Chess::default()), 0);
    // White is a knight up (Black's b8 knight gone); White to move.
    let pos = eval_support::from_fen("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(evaluator.evaluate_white(&pos), 300);
    assert_eq!(evaluator.evaluate(&pos), 300);
}
