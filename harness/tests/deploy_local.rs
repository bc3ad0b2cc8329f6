//! `deploy/local/workers.sh`: N local workers with one command. Its process handling (the
//! options each worker gets, failures counted, SIGINT and SIGTERM forwarded once) is checked
//! with a fake `harness` written here; a throwaway store then checks that real workers
//! started by it drain a test, each pair committed once, and that a worker refusing its store
//! fails the script.

mod deploy_common;
mod store_common;

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use deploy_common::{StoreWithTest, harness_bin, repo_root, text, worker_command_missing};

fn script() -> PathBuf {
    repo_root().join("deploy/local/workers.sh")
}

fn have_bash() -> bool {
    let ok = Command::new("bash")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        engine::testing::skip("no bash to run deploy/local/workers.sh");
    }
    ok
}

/// workers.sh with `harness_bin` as the harness binary.
fn workers(harness_bin: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(script());
    cmd.args(args).env("HARNESS_BIN", harness_bin);
    cmd
}

/// A fake `harness` for the script's process handling. `worker --name NAME ARGS...` writes
/// its arguments to `$FAKE_DIR/NAME.args` and its pid to `NAME.pid`; then, with
/// FAKE_FAIL=K, the worker whose name ends in -K exits 3; with FAKE_WAIT=1 it waits for
/// `$FAKE_DIR/release`, counting the SIGINTs it gets in `NAME.int`, and at SIGTERM writes
/// `NAME.term` and exits 130 (as an interrupted harness does).
const FAKE_HARNESS: &str = r#"#!/bin/sh
[ "$1" = worker ] && [ "$2" = --name ] || { echo "fake harness: unexpected arguments: $*" >&2; exit 64; }
name=$3
shift
if [ "${FAKE_WAIT:-0}" = 1 ]; then
  # Traps before the pid file: the test signals once every pid file is there.
  ints=0
  trap 'ints=$((ints + 1)); echo $ints > "$FAKE_DIR/$name.int"' INT
  trap 'echo TERM > "$FAKE_DIR/$name.term"; exit 130' TERM
fi
printf '%s\n' "$@" > "$FAKE_DIR/$name.args"
echo $$ > "$FAKE_DIR/$name.pid"
case "$name" in *-"${FAKE_FAIL:-none}") exit 3;; esac
if [ "${FAKE_WAIT:-0}" = 1 ]; then
  # Until released, or at most a minute (a failed test leaves none behind).
  i=0
  while [ ! -e "$FAKE_DIR/release" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
fi
exit 0
"#;

struct Fake {
    dir: tempfile::TempDir,
    bin: PathBuf,
}

impl Fake {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let bin = dir.path().join("fake-harness");
        std::fs::write(&bin, FAKE_HARNESS).expect("write the fake harness");
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        Self { dir, bin }
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = workers(&self.bin, args);
        cmd.env("FAKE_DIR", self.dir.path());
        cmd
    }

    /// The names of the workers that started, sorted.
    fn started(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.path())
            .expect("list the fake's folder")
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                name.strip_suffix(".args").map(str::to_string)
            })
            .collect();
        names.sort();
        names
    }

    fn read(&self, file: &str) -> Option<String> {
        std::fs::read_to_string(self.dir.path().join(file)).ok()
    }

    /// SIGKILLs the fake workers still running (after a failure: none may outlive the test).
    /// A pid counts only while its command line is this fake's (pids are reused).
    fn kill_workers(&self) {
        let bin = self.bin.to_string_lossy().into_owned();
        for name in self.started() {
            let Some(pid) = self
                .read(&format!("{name}.pid"))
                .and_then(|p| p.trim().parse::<i32>().ok())
            else {
                continue;
            };
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            if String::from_utf8_lossy(&cmdline).contains(&bin) {
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
    }
}

impl Drop for Fake {
    fn drop(&mut self) {
        self.kill_workers();
    }
}

/// Waits for `child` to exit, at most `limit` (then kills it and fails).
fn wait_for(mut child: Child, limit: Duration, fake: &Fake) -> Output {
    let deadline = Instant::now() + limit;
    loop {
        if child.try_wait().expect("wait for workers.sh").is_some() {
            return child.wait_with_output().expect("read workers.sh output");
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            fake.kill_workers();
            let out = child.wait_with_output().expect("read workers.sh output");
            panic!(
                "workers.sh still running after {limit:?}:\n{}",
                text(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn signal(pid: i32, sig: i32) {
    let rc = unsafe { libc::kill(pid, sig) };
    assert_eq!(rc, 0, "kill({pid}, {sig})");
}

#[test]
fn bad_arguments_are_refused_with_the_accepted_range() {
    if !have_bash() {
        return;
    }
    let fake = Fake::new();
    let cases: [(&[&str], &str); 6] = [
        (&[], "usage: workers.sh N"),
        (&["0"], "N must be a whole number from 1 to 1024, got '0'"),
        (&["1025"], "from 1 to 1024, got '1025'"),
        (&["two"], "got 'two'"),
        (&["2", "--name", "x"], "--name is set by this script"),
        (&["2", "--name=x"], "--name is set by this script"),
    ];
    for (args, message) in cases {
        let out = fake.command(args).output().expect("run workers.sh");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    assert!(
        fake.started().is_empty(),
        "no worker may start on bad input"
    );

    let out = workers(Path::new("/nonexistent/harness"), &["2"])
        .output()
        .expect("run workers.sh");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot run '/nonexistent/harness': not found"),
        "{err}"
    );
}

#[test]
fn each_worker_gets_a_name_and_the_options_and_failures_are_counted() {
    if !have_bash() {
        return;
    }
    let fake = Fake::new();
    let out = fake
        .command(&["3", "--test", "5", "--batch", "2"])
        .output()
        .expect("run workers.sh");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("all 3 workers finished"), "{err}");
    let names = fake.started();
    assert_eq!(names.len(), 3, "{names:?}");
    // local-HOST-PID-I: one prefix, indices 1..=3.
    let prefix = names[0].rsplit_once('-').expect("a numbered name").0;
    assert!(prefix.starts_with("local-"), "{prefix}");
    for (i, name) in names.iter().enumerate() {
        assert_eq!(name, &format!("{prefix}-{}", i + 1));
        let args = fake
            .read(&format!("{name}.args"))
            .expect("the worker's arguments");
        assert_eq!(
            args.lines().collect::<Vec<_>>(),
            ["--name", name.as_str(), "--test", "5", "--batch", "2"]
        );
    }

    let fake = Fake::new();
    let out = fake
        .command(&["3"])
        .env("FAKE_FAIL", "2")
        .output()
        .expect("run workers.sh");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let failed = &fake.started()[1];
    let pid = fake.read(&format!("{failed}.pid")).expect("the pid");
    assert!(
        err.contains(&format!(
            "worker {failed} (pid {}) exited with status 3",
            pid.trim()
        )),
        "{err}"
    );
    assert!(err.contains("1 of 3 workers failed"), "{err}");
}

/// Starts `workers.sh 3` with waiting fake workers in its own process group (as a shell
/// starts a foreground job); returns once all three have started.
fn start_waiting(fake: &Fake) -> Child {
    let mut child = fake.command(&["3"]);
    child
        .env("FAKE_WAIT", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // As from a terminal, SIGINT not ignored (a test run started in the background of a
    // script would pass an ignored SIGINT on, and bash cannot trap an ignored signal).
    unsafe {
        child.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let child = child.spawn().expect("start workers.sh");
    let deadline = Instant::now() + Duration::from_secs(30);
    while fake.started().len() < 3
        || fake
            .started()
            .iter()
            .any(|n| fake.read(&format!("{n}.pid")).is_none())
    {
        assert!(Instant::now() < deadline, "the fake workers did not start");
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

#[test]
fn ctrl_c_reaches_each_worker_once() {
    if !have_bash() {
        return;
    }
    let fake = Fake::new();
    let child = start_waiting(&fake);
    // A terminal's Ctrl-C: SIGINT to the foreground process group, i.e. the script's.
    signal(-(child.id() as i32), libc::SIGINT);
    std::thread::sleep(Duration::from_millis(500));
    std::fs::write(fake.dir.path().join("release"), "").expect("release the workers");
    let out = wait_for(child, Duration::from_secs(30), &fake);
    let err = text(&out.stderr);
    // Interrupted: 128 + SIGINT, the workers having ended (here with status 0).
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("all 3 workers stopped after SIGINT"), "{err}");
    assert!(
        err.contains("SIGINT: passing it on to the workers"),
        "{err}"
    );
    for name in fake.started() {
        assert_eq!(
            fake.read(&format!("{name}.int")).as_deref(),
            Some("1\n"),
            "{name} must get exactly one SIGINT\n{err}"
        );
    }
}

#[test]
fn sigterm_is_passed_on_and_the_script_waits_for_the_workers() {
    if !have_bash() {
        return;
    }
    let fake = Fake::new();
    let child = start_waiting(&fake);
    signal(child.id() as i32, libc::SIGTERM);
    let out = wait_for(child, Duration::from_secs(30), &fake);
    let err = text(&out.stderr);
    // Workers that exit 130 after the forwarded signal stopped as asked: not failures.
    assert_eq!(out.status.code(), Some(143), "{err}");
    assert!(err.contains("stopped (status 130)"), "{err}");
    assert!(err.contains("all 3 workers stopped after SIGTERM"), "{err}");
    assert!(
        err.contains("SIGTERM: passing it on to the workers"),
        "{err}"
    );
    for name in fake.started() {
        assert_eq!(
            fake.read(&format!("{name}.term")).as_deref(),
            Some("TERM\n")
        );
        let pid: i32 = fake
            .read(&format!("{name}.pid"))
            .and_then(|p| p.trim().parse().ok())
            .expect("the worker's pid");
        // The script returned only after its workers: none is left running.
        let alive = unsafe { libc::kill(pid, 0) } == 0;
        assert!(
            !alive,
            "{name} (pid {pid}) still runs after workers.sh exited"
        );
    }
}

#[test]
fn local_workers_drain_a_test_and_a_refused_store_fails_the_script() {
    let test = "local_workers_drain_a_test_and_a_refused_store_fails_the_script";
    if !have_bash() {
        return;
    }
    let bin = harness_bin();
    if let Some(reason) = worker_command_missing(&bin) {
        engine::testing::skip(reason);
        return;
    }
    let Some(store) = StoreWithTest::start(test, "deploy_local", 12) else {
        return;
    };

    // A database that does not exist: each worker refuses it; the script says so.
    let out = workers(
        &bin,
        &[
            "2",
            "--test",
            &store.test_id.to_string(),
            "--exit-when-idle",
        ],
    )
    .env("HARNESS_STORE", store.missing_database_url())
    .output()
    .expect("run workers.sh");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("2 of 2 workers failed"), "{err}");
    assert!(
        !err.contains(deploy_common::WORKER_PASSWORD),
        "a password in the output:\n{err}"
    );
    assert_eq!(store.store().export_pairs(store.test_id).unwrap().len(), 0);

    let out = workers(
        &bin,
        &[
            "2",
            "--test",
            &store.test_id.to_string(),
            "--batch",
            "1",
            "--concurrency",
            "1",
            "--exit-when-idle",
        ],
    )
    .env("HARNESS_STORE", store.worker_url())
    .output()
    .expect("run workers.sh");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let started = err
        .lines()
        .find_map(|l| l.strip_prefix("workers.sh: starting 2 workers ("))
        .and_then(|l| l.split(" ...").next())
        .and_then(|first| first.strip_suffix("-1"))
        .unwrap_or_else(|| panic!("no 'started' line:\n{err}"))
        .to_string();
    let workers = store.assert_drained(|w| {
        w.strip_prefix(&format!("{started}-"))
            .is_some_and(|i| ["1", "2"].contains(&i))
    });
    eprintln!("pairs committed by {workers:?}");
}
