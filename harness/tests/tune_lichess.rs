//! The tuner on the project's reference data, `../shared/data/lichess-test.book.xz` (64,000
//! positions; see `../shared/data/SOURCES.md` for the reference table). Skipped, with a printed
//! reason, when the data is absent.

use std::path::{Path, PathBuf};

use engine::params::Params;
use harness::tune::dataset::Format;
use harness::tune::kfit::fit_k;
use harness::tune::model::FeatureWeights;
use harness::tune::optim::OptimOptions;
use harness::tune::session::{
    self, DEFAULT_L2, DEFAULT_PATIENCE, DEFAULT_SMOOTHNESS, KFitOn, Log, ScoreScale, TuneConfig,
};
use harness::tune::traces::{LoadOptions, Split, load};

fn data() -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/lichess-test.book.xz");
    if path.exists() {
        Some(path)
    } else {
        engine::testing::skip(format!("../shared not found ({} missing)", path.display()));
        None
    }
}

#[test]
fn material_only_k_and_mse_match_the_reference() {
    let Some(path) = data() else { return };
    let options = LoadOptions {
        format: Format::Auto,
        skip_bad: false,
        resolve: None,
    };
    let (set, report) = load(&[path], &options).unwrap();
    assert_eq!(report.positions, 64_000);
    assert_eq!(report.skipped_bad, 0);
    let (k, mse) = fit_k(&set, &FeatureWeights::from_params(&Params::material_only())).unwrap();
    eprintln!("material only, all 64,000 positions: K = {k:.4}, MSE = {mse:.5}");
    // Reference (numpy/scipy): K = 3.339, MSE = 0.09166.
    assert!((k - 3.339).abs() < 0.005, "K = {k}");
    assert!((mse - 0.09166).abs() < 0.0002, "MSE = {mse}");
}

/// Material plus piece-square tables from material-only values with the defaults of
/// `harness tune` (L-BFGS, L2 toward the start, early stopping on the validation set, K fitted
/// on all positions), 90/10 split, seed 1.
///
/// The bounds are what these defaults reach on this split (validation 0.08626; see
/// docs/tuning.md), with a little room: a plain, unregularised fit overfits to validation
/// 0.0878, early stopping alone reaches 0.0866 and the defaults before the smoothness prior
/// 0.08650, so losing any of these fails here. The reference's
/// validation 0.08559 was measured on a different split whose held-out positions were easier; the
/// README compares both against the material-only fit on the same split.
#[test]
fn material_and_pst_tune_with_defaults_generalises() {
    let Some(path) = data() else { return };
    let config = TuneConfig {
        data: vec![path],
        format: Format::Auto,
        skip_bad: false,
        init: Params::material_only(),
        patterns: vec!["pst.*".into(), "material.*".into()],
        optim: OptimOptions::default(),
        l2: DEFAULT_L2,
        smoothness: DEFAULT_SMOOTHNESS,
        k_fit_on: KFitOn::All,
        patience: DEFAULT_PATIENCE,
        validation: 0.1,
        split: Split::Random,
        score_weight: 0.0,
        score_scale: ScoreScale::Eval,
        seed: 1,
        resolve: false,
        checkpoint_every: 0,
        checkpoint_path: None,
        report_every: 10,
        log: Log::Stderr,
    };
    let summary = session::run(&config).unwrap();
    let validation = summary.validation_mse.unwrap();
    let initial_validation = summary.initial_validation_mse.unwrap();
    eprintln!(
        "K {:.4}, train {:.5} -> {:.5}, validation {initial_validation:.5} -> {validation:.5}, {} params, best iteration {:?} of {}, {:.1} s",
        summary.k,
        summary.initial_mse,
        summary.train_mse,
        summary.parameters,
        summary.best_iteration,
        summary.iterations,
        summary.seconds
    );
    // K from all 64,000 positions is the reference's.
    assert!((summary.k - 3.339).abs() < 0.005, "K = {}", summary.k);
    // 10 material and 768 square weights, less the 32 of pawns on the first and last ranks,
    // which no position uses and which stay at their start.
    assert_eq!(summary.parameters, 5 * 2 + 6 * 64 * 2 - 32);
    assert_eq!(summary.unused, 32);
    assert_eq!(summary.params.get_by_name("pst_pawn_a1_mg"), Some(0));
    assert_eq!(summary.params.get_by_name("pst_pawn_h8_eg"), Some(0));
    assert_eq!(summary.train_positions, 57_600);
    // Early stopping kept an iteration before the one that stopped the run.
    let best = summary
        .best_iteration
        .expect("early stopping is on by default");
    assert!(
        best > 0 && best + DEFAULT_PATIENCE == summary.iterations,
        "best {best}, stopped at {}",
        summary.iterations
    );
    assert!(validation <= 0.08640, "validation MSE {validation}");
    // Regularised: not fitted down to the unregularised 0.0825.
    assert!(
        (0.0832..=0.0840).contains(&summary.train_mse),
        "train MSE {}",
        summary.train_mse
    );
    // The result is a valid parameter set: reloads and keeps untuned weights.
    let text = summary.params.to_toml_string();
    let back = Params::from_toml_str(&text, "tuned").unwrap();
    assert_eq!(back, summary.params);
    assert_eq!(back.get_by_name("tempo_mg"), Some(0));
}
