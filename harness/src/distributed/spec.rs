//! A match configuration as a stored test, and back: the spec JSON is the serde form of
//! [`MatchConfig`], so a worker rebuilds exactly the match `harness match` would play.

use anyhow::Context;

use crate::runner::MatchConfig;
use crate::store::{NewTest, TestRecord, sha256_hex};

/// The test to store for `config`, with the expected `bench` node count of each engine
/// (see [`super::verify::expected_benches`]). The book's bytes are kept with the test, and
/// their SHA-256 both in the spec and in the test row; `--pgnout` is dropped (a worker
/// writes no files).
pub fn new_test_from_config(
    config: &MatchConfig,
    expected_bench: Vec<Option<u64>>,
) -> anyhow::Result<NewTest> {
    let mut config = config.clone();
    config.pgnout = None;
    let book = match &config.book {
        Some(book) => Some(std::fs::read(&book.file).map_err(|e| {
            crate::UsageError(format!("cannot read the book {}: {e}", book.file.display()))
        })?),
        None => None,
    };
    config.book_sha256 = book.as_deref().map(sha256_hex);
    let sprt = config.sprt.as_ref().map(|s| s.config()).transpose()?;
    let spec = serde_json::to_value(&config).context("cannot encode the match as JSON")?;
    Ok(NewTest {
        spec,
        pair_count: config.games.div_ceil(2),
        seed: config.seed,
        sprt,
        expected_bench,
        book_sha256: config.book_sha256.clone(),
        book,
    })
}

/// The match of a stored test (its spec decoded), checked against the test's own columns.
pub fn match_config_of(test: &TestRecord) -> anyhow::Result<MatchConfig> {
    let config: MatchConfig = serde_json::from_value(test.spec.clone()).with_context(|| {
        format!(
            "test {}: its match specification is not one this harness reads \
             (created by another harness version?)",
            test.id
        )
    })?;
    let pairs = config.games.div_ceil(2);
    if pairs != test.pair_count || config.seed != test.seed || config.engines.len() != 2 {
        anyhow::bail!(
            "test {}: the specification ({pairs} pairs, seed {}, {} engines) disagrees with the \
             test ({} pairs, seed {}, 2 engines)",
            test.id,
            config.seed,
            config.engines.len(),
            test.pair_count,
            test.seed
        );
    }
    if test.expected_bench.len() != 2 {
        anyhow::bail!(
            "test {}: {} expected bench counts stored, one per engine (2) expected",
            test.id,
            test.expected_bench.len()
        );
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;
    use crate::runner::{EngineConfig, SprtSettings};
    use crate::stats::{Pentanomial, Trinomial};
    use crate::store::TestStatus;

    fn record(test: &NewTest) -> TestRecord {
        TestRecord {
            id: 7,
            status: TestStatus::Active,
            spec: test.spec.clone(),
            pair_count: test.pair_count,
            seed: test.seed,
            sprt: test.sprt,
            expected_bench: test.expected_bench.clone(),
            book_sha256: test.book_sha256.clone(),
            created_at: SystemTime::now(),
            finished_at: None,
            pentanomial: Pentanomial::default(),
            trinomial: Trinomial::default(),
            llr: None,
        }
    }

    #[test]
    fn a_stored_match_reads_back_as_the_same_match() {
        let dev = EngineConfig::builtin("dev", &[("delta_margin", 400)]).unwrap();
        let base = EngineConfig::builtin("base", &[]).unwrap();
        let mut config = MatchConfig::new(dev, base, 21);
        config.seed = u64::MAX - 3;
        config.sprt = Some(SprtSettings {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: "normalized".into(),
        });
        config.pgnout = Some("copy.pgn".into());
        let test = new_test_from_config(&config, vec![Some(1), None]).unwrap();
        assert_eq!(test.pair_count, 11);
        assert_eq!(test.seed, u64::MAX - 3);
        assert_eq!(test.sprt.map(|s| s.elo1), Some(5.0));
        let back = match_config_of(&record(&test)).unwrap();
        config.pgnout = None;
        assert_eq!(back, config);
    }

    #[test]
    fn a_spec_that_disagrees_with_its_test_is_refused() {
        let config = MatchConfig::new(
            EngineConfig::builtin("a", &[]).unwrap(),
            EngineConfig::builtin("b", &[]).unwrap(),
            10,
        );
        let test = new_test_from_config(&config, vec![None, None]).unwrap();
        let mut stored = record(&test);
        stored.pair_count = 6;
        let err = match_config_of(&stored).unwrap_err().to_string();
        assert!(err.contains("5 pairs") && err.contains("6 pairs"), "{err}");
        let mut stored = record(&test);
        stored.spec = serde_json::json!({"engines": "not a match"});
        let err = match_config_of(&stored).unwrap_err().to_string();
        assert!(err.contains("test 7"), "{err}");
    }
}
