//! Shared by the deploy recipe tests (`deploy_*.rs`): the harness binary the recipes run,
//! whether it has the `worker` command yet, and a throwaway store holding one small test for
//! workers to drain, with the checks that every pair of it was committed exactly once.
//! Needs `mod store_common;` in the test file that uses it.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::{Command, Output};

use harness::store::{Store, StoreUrl, TestStatus};

use crate::store_common::{ADMIN, PASSWORD, PgServer};

/// The worker login role the recipes' workers connect as (member of `harness_worker`).
pub const WORKER_ROLE: &str = "deploy_worker";
pub const WORKER_PASSWORD: &str = "wk-9Tx-not-for-logs";

/// The harness binary the recipes run: this build's, or `$HARNESS_DEPLOY_TEST_BIN` to try the
/// recipes against another build (an installed harness, say).
pub fn harness_bin() -> PathBuf {
    std::env::var_os("HARNESS_DEPLOY_TEST_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_harness")))
}

/// The repository's root (the recipes are in `deploy/` there).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the harness package is in the workspace")
        .to_path_buf()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Why the recipes cannot run workers with `bin`: `None` when `bin worker --help` succeeds.
pub fn worker_command_missing(bin: &std::path::Path) -> Option<String> {
    match Command::new(bin).args(["worker", "--help"]).output() {
        Ok(out) if out.status.success() => None,
        Ok(out) => Some(format!(
            "`{} worker --help` failed ({}): {}",
            bin.display(),
            out.status,
            text(&out.stderr).lines().next().unwrap_or("").trim()
        )),
        Err(e) => Some(format!("cannot run {}: {e}", bin.display())),
    }
}

/// A throwaway PostgreSQL server with a migrated store holding one test.
pub struct StoreWithTest {
    pub server: PgServer,
    pub db: String,
    pub test_id: i64,
    pub pair_count: u64,
}

impl StoreWithTest {
    /// Starts PostgreSQL (or prints `SKIP:` and returns `None` when it is not installed),
    /// migrates database `db` with `harness store migrate`, adds the worker login role, and
    /// creates a test of `games` games at 300 nodes a move with `harness test create`.
    pub fn start(test: &str, db: &str, games: u32) -> Option<Self> {
        let server = PgServer::start(test)?;
        server.create_database(db);
        let bin = harness_bin();
        let admin = url(&server, ADMIN, PASSWORD, db);
        run_ok(
            Command::new(&bin)
                .args(["store", "migrate"])
                .env("HARNESS_STORE", &admin),
        );
        server.sql(
            db,
            &format!(
                "CREATE ROLE {WORKER_ROLE} LOGIN PASSWORD '{WORKER_PASSWORD}' IN ROLE harness_worker"
            ),
        );
        let book = repo_root().join("openings/balanced-8ply.epd");
        let games = games.to_string();
        let out = run_ok(
            Command::new(&bin)
                .args(["test", "create"])
                .env("HARNESS_STORE", &admin)
                .args(["--engine", "name=base", "--engine", "name=dev"])
                .args(["delta_margin=400", "--each", "nodes=300"])
                .arg("--openings")
                .arg(format!("file={}", book.display()))
                .args(["--games", &games, "--seed", "7"]),
        );
        let stdout = text(&out.stdout);
        let test_id = stdout
            .split_whitespace()
            .rev()
            .find_map(|w| w.parse::<i64>().ok())
            .unwrap_or_else(|| panic!("`harness test create` printed no test id: {stdout}"));
        let mut s = Self {
            server,
            db: db.to_string(),
            test_id,
            pair_count: 0,
        };
        let record = s.store().test(test_id).expect("read the created test");
        assert_eq!(record.status, TestStatus::Active);
        s.pair_count = record.pair_count;
        Some(s)
    }

    /// The URL workers get (the least-privileged worker role), for `HARNESS_STORE`.
    pub fn worker_url(&self) -> String {
        url(&self.server, WORKER_ROLE, WORKER_PASSWORD, &self.db)
    }

    /// A database that does not exist on the same server (a worker must refuse it).
    pub fn missing_database_url(&self) -> String {
        url(
            &self.server,
            WORKER_ROLE,
            WORKER_PASSWORD,
            "no_such_database",
        )
    }

    /// A connection as the superuser, for checking.
    pub fn store(&self) -> Store {
        Store::connect(&self.server.url(&self.db)).expect("connect to the store")
    }

    /// Asserts that the test is finished and every pair was committed exactly once (the
    /// counts equal the stored rows, pair indices 0..pair_count each once), each by a worker
    /// `expected_worker` accepts; returns the workers that committed pairs.
    pub fn assert_drained(&self, expected_worker: impl Fn(&str) -> bool) -> BTreeSet<String> {
        let mut store = self.store();
        let record = store.test(self.test_id).expect("read the test");
        let pairs = store.export_pairs(self.test_id).expect("export the pairs");
        let indices: Vec<u64> = pairs.iter().map(|p| p.pair_index).collect();
        let expected: Vec<u64> = (0..self.pair_count).collect();
        assert_eq!(
            indices, expected,
            "committed pair indices (each once, all of them)"
        );
        assert_eq!(
            record.pentanomial.pairs(),
            self.pair_count,
            "the test's counts must count each pair once"
        );
        assert_eq!(record.status, TestStatus::Finished);
        let workers: BTreeSet<String> = pairs.iter().map(|p| p.worker.clone()).collect();
        for w in &workers {
            assert!(
                expected_worker(w),
                "pairs committed by unexpected worker {w}"
            );
        }
        workers
    }
}

fn url(server: &PgServer, user: &str, password: &str, db: &str) -> String {
    let url = format!(
        "postgres://{user}:{password}@127.0.0.1:{}/{db}",
        server.port
    );
    StoreUrl::parse(&url).expect("a valid URL");
    url
}

/// Runs a command that must succeed; the panic shows its output.
pub fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{:?} failed ({}):\n{}\n{}",
        cmd.get_args().collect::<Vec<_>>(),
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
    out
}
