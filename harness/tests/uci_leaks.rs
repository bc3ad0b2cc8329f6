//! Starting and stopping an external engine thousands of times leaves no zombie process, no
//! open file descriptor and no thread behind. Its own test binary, so no other test's
//! processes or descriptors disturb the counts. `UCI_LEAK_STARTS=N` changes the count.
//! The engine is the workspace's `fake-uci` (it starts in about a millisecond).

mod fake_engines;

use std::fs;
use std::time::{Duration, Instant};

use engine::search::Limits;
use harness::uci::{EngineCommand, UciEngine, UciEngineConfig};
use shakmaty::Chess;

fn open_fds() -> usize {
    fs::read_dir("/proc/self/fd")
        .map(|d| d.count())
        .unwrap_or(0)
}

fn threads() -> usize {
    fs::read_dir("/proc/self/task")
        .map(|d| d.count())
        .unwrap_or(0)
}

/// Processes whose parent is this process (zombies included).
fn children() -> Vec<String> {
    let me = std::process::id().to_string();
    let mut found = Vec::new();
    for entry in fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(stat) = fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // Fields after the parenthesised command: state, ppid, ...
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = after.split_whitespace().collect();
        if fields.get(1) == Some(&me.as_str()) {
            found.push(stat);
        }
    }
    found
}

#[test]
fn thousands_of_starts_leak_nothing() {
    if !cfg!(target_os = "linux") {
        engine::testing::skip("counts descriptors in /proc (Linux only)");
        return;
    }
    let fake = fake_engines::fake_uci();
    let starts: usize = std::env::var("UCI_LEAK_STARTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);

    // A pipe thread has closed its pipe when a kill returns, but may take a moment more to
    // exit; so threads are counted before any engine ran, and awaited at the end.
    let threads_before = threads();
    // One warm-up start so lazily created process-wide state is not counted as a leak.
    drop(UciEngine::start(UciEngineConfig::new("fake", EngineCommand::new(&fake))).expect("start"));
    let fds_before = open_fds();
    assert!(children().is_empty());

    let began = Instant::now();
    let limits = Limits {
        nodes: Some(1),
        ..Limits::default()
    };
    for i in 0..starts {
        let mut engine = UciEngine::start(UciEngineConfig::new("fake", EngineCommand::new(&fake)))
            .expect("start");
        engine
            .go(&Chess::default(), &[], &limits, Duration::from_secs(10))
            .expect("go");
        match i % 3 {
            0 => drop(engine),                       // quit, then kill what is left
            1 => engine.kill(),                      // killed outright
            _ => engine.restart().expect("restart"), // a second process, then dropped
        }
    }
    let elapsed = began.elapsed();
    eprintln!(
        "{starts} starts in {elapsed:?} ({:?} each)",
        elapsed / starts as u32
    );

    let deadline = Instant::now() + Duration::from_secs(5);
    while threads() > threads_before && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(open_fds(), fds_before, "file descriptors leaked");
    assert_eq!(threads(), threads_before, "threads leaked");
    assert_eq!(children(), Vec::<String>::new(), "child processes left");
}
