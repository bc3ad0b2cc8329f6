//! The tuner on the project's reference data, `../shared/data/lichess-test.book.xz` (64,000
//! positions; see `../shared/data/SOURCES.md` for the reference table). Skipped, with a printed
//! reason, when the data is absent.

use std::path::{Path, PathBuf};

use engine::params::Params;
use harness::tune::dataset::Format;
use harness::tune::kfit::fit_k;
use harness::tune::model::FeatureWeights;
use harness::tune::optim::{OptimOptions, Optimizer};
use harness::tune::session::{self, Log, TuneConfig};
use harness::tune::traces::{LoadOptions, load};

fn data() -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/lichess-test.book.xz");
    if path.exists() {
        Some(path)
    } else {
        eprintln!("skipped: ../shared not found ({} missing)", path.display());
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

/// Material plus piece-square tables from material-only values, L-BFGS, 90/10 split (seed 1).
///
/// The reference fit (768 PST weights, its own seed-1 split) reaches train 0.08276 and
/// validation 0.08559. The training error is what the fit controls and is checked against the
/// reference; the validation error depends on which 6,400 positions are held out (over seeds
/// 1..=7 ours ranges 0.0825..0.0903, see the README), so it is checked against this split's
/// own starting error and a bound that every one of those seeds met.
#[test]
fn material_and_pst_tune_reaches_the_reference_fit() {
    let Some(path) = data() else { return };
    let config = TuneConfig {
        data: vec![path],
        format: Format::Auto,
        skip_bad: false,
        init: Params::material_only(),
        patterns: vec!["pst.*".into(), "material.*".into()],
        optim: OptimOptions {
            optimizer: Optimizer::Lbfgs,
            iterations: 200,
            ..OptimOptions::default()
        },
        l2: 0.0,
        validation: 0.1,
        seed: 1,
        resolve: false,
        checkpoint_every: 0,
        checkpoint_path: None,
        report_every: 50,
        log: Log::Stderr,
    };
    let summary = session::run(&config).unwrap();
    let validation = summary.validation_mse.unwrap();
    let initial_validation = summary.initial_validation_mse.unwrap();
    eprintln!(
        "K {:.4}, train {:.5} -> {:.5}, validation {initial_validation:.5} -> {validation:.5}, {} params, {:.1} s",
        summary.k, summary.initial_mse, summary.train_mse, summary.parameters, summary.seconds
    );
    assert_eq!(summary.parameters, 5 * 2 + 6 * 64 * 2);
    assert_eq!(summary.train_positions, 57_600);
    assert!(
        summary.train_mse <= 0.0830,
        "train MSE {}",
        summary.train_mse
    );
    assert!(validation <= 0.0905, "validation MSE {validation}");
    assert!(
        validation <= initial_validation - 0.004,
        "validation {initial_validation} -> {validation}"
    );
    // The result is a valid parameter set: reloads and keeps untuned weights.
    let text = summary.params.to_toml_string();
    let back = Params::from_toml_str(&text, "tuned").unwrap();
    assert_eq!(back, summary.params);
    assert_eq!(back.get_by_name("tempo_mg"), Some(0));
}
