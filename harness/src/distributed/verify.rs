//! What a test's engines are expected to be, and the worker's check before it plays: the
//! book's SHA-256 and each engine's `bench` node count. OpenBench refuses a build whose bench
//! differs from the test's; the same check on our in-process engine refuses a worker running
//! another harness (and so another search).

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;

use super::spec::match_config_of;
use crate::book::Book;
use crate::build::bench::run_bench;
use crate::runner::external::ensure_built;
use crate::runner::session::file_sha256;
use crate::runner::{EngineConfig, MatchConfig};
use crate::store::{TestRecord, sha256_hex};

/// How long an engine's `bench` may run.
const BENCH_TIMEOUT: Duration = Duration::from_secs(600);

/// The `bench` node count of our engine with `engine`'s parameters, searched in this process
/// (the number `engine bench` prints for the same parameters).
pub fn builtin_bench(engine: &EngineConfig) -> anyhow::Result<u64> {
    let params = engine.build_params()?;
    let result = engine::bench::run(&params, engine::bench::DEFAULT_DEPTH, &mut std::io::sink())
        .with_context(|| format!("engine '{}': bench", engine.name))?;
    Ok(result.nodes)
}

/// In-process bench counts already computed, by parameter set (a worker checks each set once).
#[derive(Debug, Default)]
pub struct BenchMemo {
    nodes: HashMap<BTreeMap<String, i32>, u64>,
}

impl BenchMemo {
    fn builtin(&mut self, engine: &EngineConfig) -> anyhow::Result<u64> {
        if let Some(&n) = self.nodes.get(&engine.params) {
            return Ok(n);
        }
        let n = builtin_bench(engine)?;
        self.nodes.insert(engine.params.clone(), n);
        Ok(n)
    }
}

/// The expected bench of each engine, in order: our engine's parameter sets are benched in
/// this process; a `git=` engine has the bench the match's build ran (`None`, with a note,
/// when that build printed none); an external program (`cmd=`) has none, with a note: its
/// path and build are the worker machine's own, and an arbitrary UCI engine need not have a
/// `bench` command, so the worker can only check that the program is there.
pub fn expected_benches(
    config: &MatchConfig,
    note: &mut dyn FnMut(String),
) -> anyhow::Result<Vec<Option<u64>>> {
    let mut memo = BenchMemo::default();
    let mut out = Vec::with_capacity(config.engines.len());
    for engine in &config.engines {
        out.push(match &engine.external {
            None => Some(memo.builtin(engine)?),
            Some(external) => match &external.git {
                Some(git) => {
                    if git.bench_nodes.is_none() {
                        note(format!(
                            "engine '{}' ({}): its build printed no bench node count, so \
                             workers cannot check their builds of it",
                            engine.name, git.description
                        ));
                    }
                    git.bench_nodes
                }
                None => {
                    note(format!(
                        "engine '{}' is an external program (cmd={}): no bench is stored, so \
                         workers only check that the program exists; every worker must have \
                         the same build at that path",
                        engine.name,
                        external.command.display()
                    ));
                    None
                }
            },
        });
    }
    Ok(out)
}

/// A test checked and ready to play on this worker.
pub struct PreparedTest {
    pub id: i64,
    /// The match as stored, with this worker's concurrency (and the local copy of the
    /// stored book when the book was not at its path).
    pub config: MatchConfig,
    pub book: Option<Book>,
    /// Where the book stored with the test was written, when this worker used it.
    pub book_from_store: Option<PathBuf>,
}

/// Decodes test `test`'s match and checks it on this machine: the book at the test's path
/// must have the stored SHA-256 (when that path does not exist, the book stored with the
/// test is fetched with `stored_book`, checked, and written to a local cache), `git=`
/// engines are built (when their binary is missing) and benched, our engine is benched
/// in-process, and every bench must equal the stored one. Nothing is written to the store.
/// `concurrency` replaces the creator's.
pub fn prepare_test(
    test: &TestRecord,
    concurrency: usize,
    memo: &mut BenchMemo,
    stored_book: &mut dyn FnMut() -> anyhow::Result<Option<Vec<u8>>>,
) -> anyhow::Result<PreparedTest> {
    let mut config = match_config_of(test)?;
    config.concurrency = concurrency;
    config.pgnout = None;
    let id = test.id;
    let mut book_from_store = None;
    match (&mut config.book, &test.book_sha256) {
        (Some(spec), Some(expected)) if !spec.file.exists() => {
            let bytes = stored_book()?.with_context(|| {
                format!(
                    "test {id}: its book {} is not on this worker and the test keeps no copy \
                     (created before schema version 3): put the book at that path",
                    spec.file.display()
                )
            })?;
            let found = sha256_hex(&bytes);
            if found != *expected {
                anyhow::bail!(
                    "test {id}: the book stored with the test has SHA-256 {found}, but the test \
                     expects {expected}; refusing to play"
                );
            }
            let local = cache_book(expected, &spec.file, &bytes)
                .with_context(|| format!("test {id}: writing its stored book"))?;
            spec.file = local.clone();
            book_from_store = Some(local);
        }
        (Some(spec), Some(expected)) => {
            let found =
                file_sha256(&spec.file).with_context(|| format!("test {id}: reading its book"))?;
            if found != *expected {
                anyhow::bail!(
                    "test {id}: the book {} on this worker has SHA-256 {found}, but the test was \
                     created with SHA-256 {expected}: this copy differs; refusing to play \
                     (the games would not be the test's)",
                    spec.file.display()
                );
            }
        }
        (Some(spec), None) => anyhow::bail!(
            "test {id}: its book {} has no stored SHA-256; refusing to play an unchecked book",
            spec.file.display()
        ),
        (None, Some(_)) => {
            anyhow::bail!("test {id}: a book SHA-256 is stored but the test has no book")
        }
        (None, None) => {}
    }
    for (engine, expected) in config.engines.iter_mut().zip(&test.expected_bench) {
        let name = engine.name.clone();
        let (found, what) = match engine.external.as_mut() {
            None => (
                Some(memo.builtin(engine)?),
                "our engine in this harness".to_string(),
            ),
            Some(external) if external.git.is_some() => {
                ensure_built(&name, external)?;
                let bench = run_bench(&external.command, BENCH_TIMEOUT)
                    .with_context(|| format!("test {id}: engine '{name}': bench"))?;
                let what = external
                    .git
                    .as_ref()
                    .map_or_else(String::new, |g| format!("git build {}", g.description));
                (Some(bench.nodes), what)
            }
            Some(external) => {
                if !external.command.is_file() {
                    anyhow::bail!(
                        "test {id}: engine '{name}': no program {} on this worker",
                        external.command.display()
                    );
                }
                (None, String::new())
            }
        };
        if let (Some(expected), Some(found)) = (expected, found)
            && *expected != found
        {
            anyhow::bail!(
                "test {id}: engine '{name}' ({what}) has bench {found} on this worker, but the \
                 test expects {expected}: refusing to play a different engine"
            );
        }
    }
    let book = config
        .book
        .as_ref()
        .map(|spec| Book::load(spec, config.seed))
        .transpose()?;
    Ok(PreparedTest {
        id,
        config,
        book,
        book_from_store,
    })
}

/// Writes a stored book as `<temp>/harness-books/<sha256>/<its file name>` (the name keeps
/// its extension, which says how to read it), unless a file with that hash is there already.
/// Written to a temporary name and renamed, so workers sharing the machine never read half
/// a book.
fn cache_book(sha256: &str, original: &Path, bytes: &[u8]) -> anyhow::Result<PathBuf> {
    let dir = std::env::temp_dir().join("harness-books").join(sha256);
    let name = original
        .file_name()
        .map_or_else(|| "book".into(), |n| n.to_os_string());
    let path = dir.join(&name);
    if path.is_file() && file_sha256(&path).is_ok_and(|h| h == sha256) {
        return Ok(path);
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let partial = dir.join(format!(".partial-{}", std::process::id()));
    std::fs::write(&partial, bytes).with_context(|| format!("writing {}", partial.display()))?;
    std::fs::rename(&partial, &path).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}
