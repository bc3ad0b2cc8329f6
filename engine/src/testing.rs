//! Support for the test suites: a test skipped for a missing tool or data set says why on
//! stderr and, when `SKIP_LOG` names a file, appends the reason there, so CI lists every skip
//! (`.ci/run` prints that file after the tests).

use std::io::Write;

/// Reports that the calling test skips (part of) its work, and why.
pub fn skip(reason: impl std::fmt::Display) {
    let line = format!(
        "SKIP: {}: {reason}",
        std::thread::current().name().unwrap_or("a test")
    );
    eprintln!("{line}");
    if let Some(path) = std::env::var_os("SKIP_LOG")
        && let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
    {
        let _ = writeln!(file, "{line}");
    }
}

/// The position of a FEN written in a test (standard castling); panics on a bad one, which
/// is a bug in the test.
pub fn position(fen: &str) -> shakmaty::Chess {
    fen.parse::<shakmaty::fen::Fen>()
        .ok()
        .and_then(|f| f.into_position(shakmaty::CastlingMode::Standard).ok())
        .unwrap_or_else(|| panic!("not a legal position: {fen}"))
}

/// The evaluation's nonzero coefficients of the position of a FEN written in a test, as
/// `(feature, coefficient)` in feature order.
pub fn coefficients(fen: &str) -> Vec<(usize, i32)> {
    let mut trace = crate::eval::EvalTrace::default();
    crate::eval::trace(&position(fen), &mut trace);
    trace
        .terms
        .iter()
        .map(|t| (usize::from(t.feature), i32::from(t.coef)))
        .collect()
}

/// The evaluation's coefficient of `feature` in the position of a FEN written in a test (0 when
/// the feature is absent).
pub fn coefficient(fen: &str, feature: usize) -> i32 {
    coefficients(fen)
        .into_iter()
        .find(|&(f, _)| f == feature)
        .map_or(0, |(_, c)| c)
}
