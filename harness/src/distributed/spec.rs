//! A match configuration as a stored test, and back: the spec JSON is the serde form of
//! [`MatchConfig`], so a worker rebuilds exactly the match `harness match` would play.

use anyhow::Context;

use crate::runner::MatchConfig;
use crate::runner::session::file_sha256;
use crate::store::{NewTest, TestRecord};

/// The test to store for `config`, with the expected `bench` node count of each engine
/// (see [`super::verify::expected_benches`]). The book's SHA-256 is taken now and stored
/// both in the spec and in the test row; `--pgnout` is dropped (a worker writes no files).
pub fn new_test_from_config(
    config: &MatchConfig,
    expected_bench: Vec<Option<u64>>,
) -> anyhow::Result<NewTest> {
    let mut config = config.clone();
    config.pgnout = None;
    config.book_sha256 = match &config.book {
        Some(book) => Some(file_sha256(&book.file)?),
        None => None,
    };
    let sprt = config.sprt.as_ref().map(|s| s.config()).transpose()?;
    let spec = serde_json::to_value(&config).context("cannot encode the match as JSON")?;
    Ok(NewTest {
        spec,
        pair_count: config.games.div_ceil(2),
        seed: config.seed,
        sprt,
        expected_bench,
        book_sha256: config.book_sha256.clone(),
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
