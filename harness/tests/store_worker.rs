//! `harness worker`, `harness test` and `harness store` against a throwaway PostgreSQL
//! server: workers killed mid-batch and a server restart still give exactly the games of a
//! local match; an SPRT test stops centrally; bad input is refused with nothing written.
//! Games are a few hundred nodes a move, and tests have a few dozen pairs.

mod store_common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use harness::output::{GameRow, SummaryFile, read_games_csv};
use postgres::NoTls;
use store_common::{PASSWORD, PgServer};

const HARNESS: &str = env!("CARGO_BIN_EXE_harness");
/// Short leases, so a killed worker's pairs go to others within seconds.
const LEASE_SECONDS: &str = "3";
/// Longest any step may take before the test fails (with the workers' logs).
const PATIENCE: Duration = Duration::from_secs(300);

fn harness(url: &str, args: &[&str]) -> Output {
    Command::new(HARNESS)
        .args(args)
        .env("HARNESS_STORE", url)
        .output()
        .expect("run harness")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The match options shared by the stored test and the local match.
fn match_options(seed: u64, games: u64, first_nodes: u64, second_nodes: u64) -> Vec<String> {
    vec![
        "--engine".into(),
        "name=first".into(),
        format!("nodes={first_nodes}"),
        "--engine".into(),
        "name=second".into(),
        format!("nodes={second_nodes}"),
        "--games".into(),
        games.to_string(),
        "--seed".into(),
        seed.to_string(),
    ]
}

/// `harness test create --store URL` with these options; returns the id it printed (alone on
/// stdout).
fn create_test(url: &str, options: &[String]) -> i64 {
    let mut args = vec!["test", "create", "--store", url];
    args.extend(options.iter().map(String::as_str));
    let out = harness(url, &args);
    assert!(
        out.status.success(),
        "test create failed: {}",
        text(&out.stderr)
    );
    let stdout = text(&out.stdout);
    stdout
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("stdout is not just the test id: {stdout:?}"))
}

struct Worker {
    name: String,
    child: Child,
    log: PathBuf,
}

impl Worker {
    fn start(url: &str, dir: &Path, name: &str, extra: &[&str]) -> Worker {
        let log = dir.join(format!("{name}.log"));
        let child = Command::new(HARNESS)
            .args(["worker", "--name", name, "--concurrency", "1"])
            .args(["--lease-seconds", LEASE_SECONDS])
            .args(extra)
            .env("HARNESS_STORE", url)
            .stdout(Stdio::null())
            .stderr(File::create(&log).expect("worker log"))
            .spawn()
            .expect("start a worker");
        Worker {
            name: name.to_string(),
            child,
            log,
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits for the worker to exit; returns its exit code.
    fn wait(&mut self, others: &[&Worker]) -> Option<i32> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for a worker") {
                return status.code();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let logs: Vec<String> = others.iter().map(|w| w.log()).collect();
                panic!(
                    "worker {} did not finish:\n{}\nothers:\n{}",
                    self.name,
                    self.log(),
                    logs.join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn client(server: &PgServer, db: &str) -> postgres::Client {
    server
        .url(db)
        .config()
        .connect(NoTls)
        .expect("connect as the superuser")
}

fn count(server: &PgServer, db: &str, sql: &str) -> i64 {
    client(server, db)
        .query_one(sql, &[])
        .expect("count query")
        .get(0)
}

/// Polls `ready` until it holds, failing after [`PATIENCE`] with `what`.
fn wait_until(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !ready() {
        assert!(Instant::now() < deadline, "timed out waiting: {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A results folder's games by index: the games.csv row without its clock columns (time is
/// not part of a game at fixed nodes), and the SAN moves read from games.pgn.
fn games_of(dir: &Path) -> BTreeMap<u64, (GameRow, String)> {
    let rows = read_games_csv(&dir.join("games.csv")).expect("read games.csv");
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).expect("read games.pgn");
    let moves = pgn_moves(&pgn);
    let mut out = BTreeMap::new();
    for mut row in rows.rows {
        row.white_time_ms = 0;
        row.black_time_ms = 0;
        let san = moves
            .get(&row.game)
            .unwrap_or_else(|| panic!("{}: game {} not in games.pgn", dir.display(), row.game))
            .clone();
        let game = row.game;
        assert!(
            out.insert(game, (row, san)).is_none(),
            "{}: game {game} twice in games.csv",
            dir.display()
        );
    }
    assert_eq!(
        moves.len(),
        out.len(),
        "{}: games.pgn and games.csv hold different games",
        dir.display()
    );
    out
}

/// Game index (Round - 1) -> the moves of the game with comments and move numbers removed.
fn pgn_moves(pgn: &str) -> BTreeMap<u64, String> {
    let mut out = BTreeMap::new();
    for game in pgn.split("\n[Event ").filter(|g| !g.trim().is_empty()) {
        let round: u64 = game
            .lines()
            .find_map(|l| {
                l.strip_prefix("[Round \"")?
                    .strip_suffix("\"]")?
                    .parse()
                    .ok()
            })
            .expect("a Round tag");
        let movetext = game.split("\n\n").nth(1).expect("movetext");
        let mut plain = String::new();
        let mut depth = 0;
        for c in movetext.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        let san: Vec<&str> = plain
            .split_whitespace()
            .filter(|t| !t.ends_with('.'))
            .collect();
        assert!(
            out.insert(round - 1, san.join(" ")).is_none(),
            "game {round} twice in games.pgn"
        );
    }
    out
}

/// Plays the same match locally into `dir`; returns what it printed.
fn local_match(options: &[String], dir: &Path) -> String {
    let out = Command::new(HARNESS)
        .arg("match")
        .args(options)
        .args(["--concurrency", "2", "--no-game-lines", "--out"])
        .arg(dir)
        .output()
        .expect("run harness match");
    assert!(
        out.status.success(),
        "local match failed: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// The last fastchess report block in `printed`: from the rule above its `Results of` line
/// to the rule that closes it.
fn last_block(printed: &str) -> String {
    let rule = "-".repeat(50);
    let lines: Vec<&str> = printed.lines().collect();
    let head = lines
        .iter()
        .rposition(|l| l.starts_with("Results of"))
        .unwrap_or_else(|| panic!("no report block in: {printed}"));
    assert_eq!(lines[head - 1], rule, "{printed}");
    let end = head
        + lines[head..]
            .iter()
            .position(|l| *l == rule)
            .unwrap_or_else(|| panic!("an unclosed report block in: {printed}"));
    lines[head - 1..=end].join("\n")
}

/// Exports test `id` to `dir`, checks `harness report` reads it, and that its games are
/// exactly those of the local match in `local`: same count, same pairs, same moves.
fn export_equals_local(url: &str, id: i64, dir: &Path, local: &Path, pairs: u64) {
    let out = harness(
        url,
        &["test", "export", &id.to_string(), dir.to_str().unwrap()],
    );
    assert!(out.status.success(), "export failed: {}", text(&out.stderr));
    let exported = games_of(dir);
    let expected = games_of(local);
    assert_eq!(exported.len() as u64, 2 * pairs, "every game exported once");
    assert_eq!(
        exported.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "the same games"
    );
    for (game, (row, moves)) in &expected {
        let (their_row, their_moves) = &exported[game];
        assert_eq!(their_row, row, "game {game}: games.csv row");
        assert_eq!(their_moves, moves, "game {game}: moves");
    }
    let pairs_seen: BTreeSet<u64> = exported.values().map(|(r, _)| r.pair).collect();
    assert_eq!(pairs_seen, (0..pairs).collect());
    for file in ["config.toml", "summary.json", "report.md", "report.html"] {
        let written = std::fs::read_to_string(dir.join(file)).expect("exported file");
        assert!(
            !written.contains(PASSWORD),
            "{file} holds the store's password"
        );
    }
    let ours = SummaryFile::load(dir).expect("exported summary.json");
    let theirs = SummaryFile::load(local).expect("local summary.json");
    assert_eq!(ours.pentanomial, theirs.pentanomial);
    assert_eq!(ours.stats.games, theirs.stats.games);
    assert_eq!(ours.terminations, theirs.terminations);

    let report = Command::new(HARNESS)
        .arg("report")
        .arg(dir)
        .output()
        .expect("run harness report");
    assert!(
        report.status.success(),
        "harness report on the export: {}",
        text(&report.stderr)
    );
    assert!(dir.join("report.md").is_file() && dir.join("report.html").is_file());
}

/// A new database migrated with `harness store migrate`; returns its URL (with password).
fn setup(server: &PgServer, db: &str) -> String {
    server.create_database(db);
    let out = harness(&url_text(server, db), &["store", "migrate"]);
    assert!(out.status.success(), "migrate: {}", text(&out.stderr));
    assert!(
        !text(&out.stdout).contains(PASSWORD) && !text(&out.stderr).contains(PASSWORD),
        "the password is never printed"
    );
    url_text(server, db)
}

/// The URL with its password, as a user would give it.
fn url_text(server: &PgServer, db: &str) -> String {
    format!(
        "postgres://{}:{PASSWORD}@127.0.0.1:{}/{db}",
        store_common::ADMIN,
        server.port
    )
}

#[test]
fn killed_worker_and_a_new_one_give_the_games_of_a_local_match() {
    let Some(server) =
        PgServer::start("killed_worker_and_a_new_one_give_the_games_of_a_local_match")
    else {
        return;
    };
    let url = setup(&server, "killed");
    let tmp = tempfile::tempdir().expect("temp dir");
    let pairs = 16;
    let options = match_options(11, 2 * pairs, 250, 350);
    let id = create_test(&url, &options);
    let test = id.to_string();

    let mut victim = Worker::start(
        &url,
        tmp.path(),
        "victim",
        &["--test", &test, "--batch", "4"],
    );
    let mut w1 = Worker::start(&url, tmp.path(), "w1", &["--test", &test, "--batch", "2"]);
    let mut w2 = Worker::start(&url, tmp.path(), "w2", &["--test", &test, "--batch", "2"]);
    let local_printed = local_match(&options, &tmp.path().join("local"));

    // Kill the victim while it holds a lease: in the middle of a batch.
    let held = format!(
        "SELECT count(*) FROM leases WHERE test_id = {id} AND worker = 'victim' AND expires_at > now()"
    );
    wait_until("the victim holds a lease", || {
        count(&server, "killed", &held) > 0
    });
    let mut c = client(&server, "killed");
    let leased: Vec<i64> = c
        .query(
            "SELECT pair_index FROM leases WHERE test_id = $1 AND worker = 'victim'",
            &[&id],
        )
        .expect("victim's pairs")
        .iter()
        .map(|r| r.get(0))
        .collect();
    victim.child.kill().expect("SIGKILL the victim");
    victim.child.wait().expect("reap the victim");
    let mut w3 = Worker::start(&url, tmp.path(), "w3", &["--test", &test, "--batch", "2"]);

    for w in [&mut w1, &mut w2, &mut w3] {
        let code = w.wait(&[]);
        assert_eq!(code, Some(0), "worker {} exit code:\n{}", w.name, w.log());
    }
    // The pairs the victim held when it died were played by the others.
    let committed_by: BTreeMap<i64, String> = c
        .query(
            "SELECT pair_index, worker FROM pair_results WHERE test_id = $1",
            &[&id],
        )
        .expect("pair results")
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert_eq!(committed_by.len() as u64, pairs);
    assert!(
        leased.iter().any(|p| committed_by[p] != "victim"),
        "the victim's leased pairs {leased:?} went to other workers: {committed_by:?}"
    );
    assert!(
        w1.log().contains("games/s"),
        "one line per batch: {}",
        w1.log()
    );

    let status = harness(&url, &["test", "status", &test]);
    let shown = text(&status.stdout);
    assert!(status.status.success(), "{}", text(&status.stderr));
    assert!(shown.contains("finished"), "{shown}");
    // The block a local run of the same games prints, terminations line included.
    assert_eq!(last_block(&shown), last_block(&local_printed));
    assert!(last_block(&shown).contains("Terminations"), "{shown}");
    // One throughput line per worker that committed.
    let committers: BTreeSet<&String> = committed_by.values().collect();
    for name in committers {
        assert!(
            shown
                .lines()
                .any(|l| l.trim_start().starts_with(name.as_str())),
            "no line for worker {name}: {shown}"
        );
    }

    export_equals_local(
        &url,
        id,
        &tmp.path().join("export"),
        &tmp.path().join("local"),
        pairs,
    );
}

#[test]
fn workers_ride_out_a_server_restart_and_give_the_local_games() {
    let Some(server) =
        PgServer::start("workers_ride_out_a_server_restart_and_give_the_local_games")
    else {
        return;
    };
    let url = setup(&server, "restart");
    let tmp = tempfile::tempdir().expect("temp dir");
    let pairs = 32;
    let options = match_options(23, 2 * pairs, 300, 200);
    let id = create_test(&url, &options);
    let test = id.to_string();
    let mut workers = [
        Worker::start(&url, tmp.path(), "r1", &["--test", &test, "--batch", "2"]),
        Worker::start(&url, tmp.path(), "r2", &["--test", &test, "--batch", "4"]),
        Worker::start(
            &url,
            tmp.path(),
            "r3",
            &["--exit-when-idle", "--batch", "1"],
        ),
    ];
    local_match(&options, &tmp.path().join("local"));

    let done = format!("SELECT count(*) FROM pair_results WHERE test_id = {id}");
    wait_until("a first commit", || count(&server, "restart", &done) >= 2);
    // SIGTERM to r2 in the middle of a batch: it finishes the pairs under way, commits
    // them, gives the rest of its batch back, and exits with 130.
    let held = format!(
        "SELECT count(*) FROM leases WHERE test_id = {id} AND worker = 'r2' AND expires_at > now()"
    );
    wait_until("r2 holds a lease", || count(&server, "restart", &held) > 0);
    let pid = workers[1].child.id() as libc::pid_t;
    // SAFETY: kill(2) on our own child's pid.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let code = workers[1].wait(&[]);
    assert_eq!(code, Some(130), "r2 after SIGTERM:\n{}", workers[1].log());
    assert!(
        workers[1].log().contains("interrupted"),
        "{}",
        workers[1].log()
    );
    assert_eq!(
        count(&server, "restart", &held),
        0,
        "r2 gave its pairs back"
    );

    let at_stop = count(&server, "restart", &done) as u64;
    server.stop();
    std::thread::sleep(Duration::from_secs(2));
    server.start_again();
    assert!(
        at_stop < pairs,
        "the server restarted while pairs were left to play"
    );

    let code = workers[0].wait(&[]);
    assert_eq!(code, Some(0), "worker r1:\n{}", workers[0].log());
    // The idle-exiting worker leaves once nothing is claimable, or when the test is done.
    let code = workers[2].wait(&[]);
    assert_eq!(code, Some(0), "worker r3:\n{}", workers[2].log());
    assert_eq!(count(&server, "restart", &done) as u64, pairs);
    export_equals_local(
        &url,
        id,
        &tmp.path().join("export"),
        &tmp.path().join("local"),
        pairs,
    );
}

#[test]
fn sprt_decides_centrally_and_workers_stop() {
    let Some(server) = PgServer::start("sprt_decides_centrally_and_workers_stop") else {
        return;
    };
    let url = setup(&server, "sprt");
    let tmp = tempfile::tempdir().expect("temp dir");
    let pair_count = 100;
    let mut options = match_options(3, 2 * pair_count, 300, 20);
    options.extend(
        [
            "--sprt",
            "elo0=0",
            "elo1=200",
            "alpha=0.1",
            "beta=0.1",
            "model=logistic",
        ]
        .map(String::from),
    );
    let id = create_test(&url, &options);
    let test = id.to_string();
    let batch = 2;
    let mut a = Worker::start(&url, tmp.path(), "s1", &["--test", &test, "--batch", "2"]);
    // The second worker logs in with the least-privileged worker role.
    server.sql(
        "sprt",
        "CREATE ROLE sprt_worker LOGIN PASSWORD 'w-pw' IN ROLE harness_worker",
    );
    let worker_url = format!("postgres://sprt_worker:w-pw@127.0.0.1:{}/sprt", server.port);
    let mut b = Worker::start(
        &worker_url,
        tmp.path(),
        "s2",
        &["--exit-when-idle", "--batch", "2"],
    );
    for w in [&mut a, &mut b] {
        let code = w.wait(&[]);
        assert_eq!(code, Some(0), "worker {}:\n{}", w.name, w.log());
    }
    let mut c = client(&server, "sprt");
    let row = c
        .query_one(
            "SELECT status, (SELECT count(*) FROM pair_results WHERE test_id = $1),
                    (SELECT count(*) FROM leases WHERE test_id = $1 AND worker IS NOT NULL),
                    (SELECT array_agg(n ORDER BY p) FROM (SELECT ptnml AS p, count(*) AS n
                        FROM pair_results WHERE test_id = $1 GROUP BY ptnml) x)
             FROM tests WHERE id = $1",
            &[&id],
        )
        .expect("the test");
    let status: String = row.get(0);
    let committed: i64 = row.get(1);
    let in_flight: i64 = row.get(2);
    assert_eq!(status, "passed", "the strong engine passes");
    assert!(
        (committed as u64) < pair_count,
        "stopped early: {committed} pairs"
    );
    // Only the batch another worker had under way when the test was decided is left claimed:
    // no batch was claimed after the decision.
    assert!(
        in_flight <= batch,
        "{in_flight} pairs claimed but not stored (at most one batch of the other worker)"
    );
    // The counts that decided are the committed rows.
    let status_out = harness(&url, &["test", "status", &test]);
    let shown = text(&status_out.stdout);
    assert!(
        shown.contains(&format!("Games: {}", 2 * committed)),
        "{shown}"
    );
    assert!(
        shown.contains("SPRT: accepted") && shown.contains("passed"),
        "{shown}"
    );
    let dir = tmp.path().join("export");
    let out = harness(&url, &["test", "export", &test, dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary = SummaryFile::load(&dir).expect("summary.json");
    assert_eq!(summary.pentanomial.iter().sum::<u64>(), committed as u64);
    assert!(summary.stopped_by_sprt);
    assert_eq!(summary.stats.state.map(|s| s.name()), Some("accepted"));
    // The worker role cannot create tests.
    let out = harness(&worker_url, &["test", "create", "--games", "2"]);
    let err = text(&out.stderr);
    assert!(
        !out.status.success() && err.contains("permission denied"),
        "{err}"
    );
    assert!(!err.contains("w-pw"), "{err}");
    // A worker started now finds nothing to do.
    let mut late = Worker::start(&url, tmp.path(), "late", &["--exit-when-idle"]);
    assert_eq!(late.wait(&[]), Some(0), "{}", late.log());
    assert_eq!(
        count(
            &server,
            "sprt",
            &format!("SELECT count(*) FROM pair_results WHERE test_id = {id}")
        ),
        committed
    );
}

/// Rows a worker may have written.
fn written(server: &PgServer, db: &str) -> i64 {
    count(
        server,
        db,
        "SELECT (SELECT count(*) FROM pair_results) + (SELECT count(*) FROM workers)
              + (SELECT count(*) FROM leases WHERE worker IS NOT NULL)
              + (SELECT count(*) FROM test_counts)",
    )
}

#[test]
fn bad_input_is_a_clear_error_and_writes_nothing() {
    let Some(server) = PgServer::start("bad_input_is_a_clear_error_and_writes_nothing") else {
        return;
    };
    let url = setup(&server, "bad");
    let tmp = tempfile::tempdir().expect("temp dir");
    let worker_once = |url: &str, extra: &[&str]| {
        let mut args = vec!["worker", "--exit-when-idle", "--concurrency", "1"];
        args.extend(extra);
        harness(url, &args)
    };

    // A wrong URL: usage error naming the scheme; the password is not printed.
    let out = worker_once("mysql://root:hunter2@127.0.0.1/x", &[]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("postgres://") && !err.contains("hunter2"),
        "{err}"
    );
    // A wrong password: connection refused by the server, password not printed.
    let wrong = format!("postgres://harness:not-it@127.0.0.1:{}/bad", server.port);
    let out = harness(&wrong, &["test", "list"]);
    let err = text(&out.stderr);
    assert!(
        !out.status.success() && err.contains("cannot connect"),
        "{err}"
    );
    assert!(!err.contains("not-it"), "{err}");
    // A missing database.
    let out = worker_once(&url_text(&server, "nosuch"), &[]);
    let err = text(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("\"nosuch\" does not exist"), "{err}");
    assert!(!err.contains(PASSWORD), "{err}");
    // A database that was never migrated, and one of another schema version.
    server.create_database("bare");
    let out = worker_once(&url_text(&server, "bare"), &[]);
    assert!(
        text(&out.stderr).contains("harness store migrate"),
        "{}",
        text(&out.stderr)
    );
    let _ = setup(&server, "future");
    server.sql("future", "INSERT INTO harness_schema (version) VALUES (99)");
    let out = worker_once(&url_text(&server, "future"), &[]);
    let err = text(&out.stderr);
    assert!(
        !out.status.success() && err.contains("schema version 99"),
        "{err}"
    );
    assert_eq!(written(&server, "future"), 0);

    // A test whose book is a copy the worker can change.
    let book = tmp.path().join("book.epd");
    let shipped = harness::book::default_book_path().expect("the shipped book");
    std::fs::copy(&shipped, &book).expect("copy the book");
    let mut options = match_options(5, 8, 200, 200);
    options.extend(["--openings".into(), format!("file={}", book.display())]);
    let id = create_test(&url, &options);
    let test = id.to_string();

    // A doctored expected bench: the worker's engine has another bench, and is refused.
    let mut c = client(&server, "bad");
    let real: Vec<Option<i64>> = c
        .query_one("SELECT expected_bench FROM tests WHERE id = $1", &[&id])
        .expect("bench")
        .get(0);
    c.execute(
        "UPDATE tests SET expected_bench = '{12345,12345}' WHERE id = $1",
        &[&id],
    )
    .expect("doctor the bench");
    let out = worker_once(&url, &["--test", &test]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("engine 'first'")
            && err.contains("expects 12345")
            && err.contains(&format!("bench {}", real[0].unwrap())),
        "{err}"
    );
    assert_eq!(
        written(&server, "bad"),
        0,
        "a refused worker writes nothing"
    );

    // The real bench back, but the worker's copy of the book changed.
    c.execute(
        "UPDATE tests SET expected_bench = $2 WHERE id = $1",
        &[&id, &real],
    )
    .expect("restore the bench");
    let before = harness::runner::session::file_sha256(&book).expect("hash");
    let mut changed = std::fs::read_to_string(&book).expect("read the book");
    changed.push_str("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n");
    std::fs::write(&book, changed).expect("change the book");
    let after = harness::runner::session::file_sha256(&book).expect("hash");
    let out = worker_once(&url, &["--test", &test]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&book.display().to_string()) && err.contains(&before) && err.contains(&after),
        "names the file and both hashes: {err}"
    );
    assert_eq!(
        written(&server, "bad"),
        0,
        "a refused worker writes nothing"
    );

    // Without --test, a worker leaves the test it cannot play (saying why, once) and plays
    // the others: here a copy of the test without a book, made in SQL to skip the benches.
    let bookless: i64 = c
        .query_one(
            "INSERT INTO tests (spec, pair_count, seed, expected_bench)
             SELECT jsonb_set(jsonb_set(spec, '{book}', 'null'), '{book_sha256}', 'null'),
                    pair_count, seed, expected_bench FROM tests WHERE id = $1
             RETURNING id",
            &[&id],
        )
        .expect("copy the test without its book")
        .get(0);
    let cursor = "INSERT INTO test_cursors (test_id, stripe, next_pair, end_pair) \
                  VALUES ($1, 0, 0, 4)";
    c.execute(cursor, &[&bookless]).expect("its pairs");
    let out = worker_once(&url, &[]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let leaving = format!("leaving test {id} ");
    assert_eq!(err.matches(&leaving).count(), 1, "said once: {err}");
    assert!(err.contains(&before) && err.contains(&after), "{err}");
    let pairs_of = |test: i64| {
        count(
            &server,
            "bad",
            &format!("SELECT count(*) FROM pair_results WHERE test_id = {test}"),
        )
    };
    assert_eq!(pairs_of(bookless), 4, "the other test played: {err}");
    assert_eq!(pairs_of(id), 0);

    // A second test (a copy of the first, made in SQL to skip the benches), stopped with
    // `harness test stop`: workers claim nothing of it.
    let copy: i64 = c
        .query_one(
            "INSERT INTO tests (spec, pair_count, seed, expected_bench, book_sha256)
             SELECT spec, pair_count, seed, expected_bench, book_sha256 FROM tests WHERE id = $1
             RETURNING id",
            &[&id],
        )
        .expect("copy the test")
        .get(0);
    c.execute(cursor, &[&copy]).expect("its pairs");
    let out = harness(&url, &["test", "stop", &copy.to_string()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), format!("test {copy}: stopped"));
    let out = harness(&url, &["test", "status", "999"]);
    assert!(
        text(&out.stderr).contains("no test 999"),
        "{}",
        text(&out.stderr)
    );

    // With the book gone from its path, the worker uses the copy kept with the test, after
    // checking its hash: a doctored copy is refused.
    std::fs::remove_file(&book).expect("remove the book");
    let kept: Vec<u8> = c
        .query_one("SELECT book FROM tests WHERE id = $1", &[&id])
        .expect("the stored book")
        .get(0);
    assert_eq!(kept, std::fs::read(&shipped).expect("read the book"));
    c.execute("UPDATE tests SET book = 'not a book' WHERE id = $1", &[&id])
        .expect("doctor the stored book");
    let out = worker_once(&url, &["--test", &test]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("book stored with the test has SHA-256") && err.contains(&before),
        "{err}"
    );
    c.execute("UPDATE tests SET book = $2 WHERE id = $1", &[&id, &kept])
        .expect("restore the stored book");
    let out = worker_once(&url, &[]);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("using the copy stored with the test"), "{err}");
    assert_eq!(pairs_of(id), 4);
    assert_eq!(pairs_of(copy), 0, "nothing claimed from a stopped test");
    let list = text(&harness(&url, &["test", "list"]).stdout);
    assert!(
        list.contains("stopped") && list.contains("finished"),
        "{list}"
    );
}
