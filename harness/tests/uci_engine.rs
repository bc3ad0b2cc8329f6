//! External UCI engines: the handshake, options, search replies, and each fault, using the
//! workspace's `fake-uci` engine (see `tests/fake_engines/`).

#[path = "common/engine_binary.rs"]
mod engine_binary;
mod fake_engines;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use engine::search::{Limits, Score};
use harness::uci::OptionKind;
use harness::uci::{EngineCommand, FaultKind, UciEngine, UciEngineConfig, UciError};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position};

use fake_engines::fake_uci;

fn fake(mode: &str, extra: &[&str]) -> UciEngineConfig {
    let command = fake_engines::fake_command(mode, extra);
    let mut config = UciEngineConfig::new(format!("fake-{mode}"), command);
    // Short limits: every fault must be seen in well under a second of waiting.
    config.startup_timeout = Duration::from_secs(5);
    config.ready_timeout = Duration::from_millis(400);
    config.stop_grace = Duration::from_millis(300);
    config
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

const GENEROUS: Duration = Duration::from_secs(10);

/// Plays `plies` moves with the engine on both sides, returning the moves.
fn self_play(engine: &mut UciEngine, plies: usize) -> Result<Vec<Move>, UciError> {
    let start = Chess::default();
    let mut moves = Vec::new();
    let mut position = start.clone();
    for _ in 0..plies {
        let reply = engine.go(&start, &moves, &nodes(100), GENEROUS)?;
        assert!(position.is_legal(reply.best_move));
        position.play_unchecked(reply.best_move);
        moves.push(reply.best_move);
    }
    Ok(moves)
}

fn expect_fault(
    result: Result<impl std::fmt::Debug, UciError>,
    kind: FaultKind,
) -> harness::uci::UciFault {
    match result {
        Err(UciError::Fault(fault)) => {
            assert_eq!(fault.kind, kind, "wrong fault: {fault}");
            fault
        }
        other => panic!("expected {kind}, got {other:?}"),
    }
}

#[test]
fn normal_engine_handshakes_and_plays_legal_moves_with_info() {
    let mut config = fake("normal", &[]);
    config.options = vec![
        ("hash".into(), "64".into()),
        ("Clear Hash".into(), String::new()),
    ];
    let mut engine = UciEngine::start(config).expect("start");
    assert_eq!(engine.id_name(), Some("FakeUci normal"));
    assert_eq!(engine.id_author(), Some("the harness tests"));
    let names: Vec<&str> = engine.options().iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        names,
        ["Hash", "Ponder", "Style", "Clear Hash", "Debug Log File"]
    );

    engine.new_game().expect("new game");
    let start = Chess::default();
    let reply = engine.go(&start, &[], &nodes(100), GENEROUS).expect("go");
    let uci = shakmaty::uci::UciMove::from_standard(reply.best_move).to_string();
    assert_eq!(
        uci, "a2a3",
        "the fake plays the first legal move in sorted order"
    );
    let info = reply.info.expect("info line");
    assert_eq!(info.depth, Some(2), "the last scored info line is kept");
    assert_eq!(info.score, Some(Score::Cp(-1)));
    assert_eq!(info.nodes, Some(200));
    assert_eq!(info.pv, ["a2a3"]);

    let moves = self_play(&mut engine, 8).expect("self-play");
    assert_eq!(moves.len(), 8);

    // From a FEN start with castling available.
    let fen: Fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
        .parse()
        .unwrap();
    let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
    let reply = engine
        .go(&pos, &[], &nodes(100), GENEROUS)
        .expect("go from fen");
    assert!(pos.is_legal(reply.best_move));
}

#[test]
fn options_are_checked_against_the_engines_declarations() {
    let mut config = fake("normal", &[]);
    config.options = vec![("Hash".into(), "5000".into())];
    let err = UciEngine::start(config).err().expect("out of range");
    assert!(matches!(err, UciError::BadOptionValue { .. }), "{err}");
    assert!(
        err.to_string().contains("outside its range 1..=1024"),
        "{err}"
    );

    let mut engine = UciEngine::start(fake("normal", &[])).expect("start");
    let err = engine.set_option("Hashh", "16").unwrap_err();
    assert!(matches!(err, UciError::UnknownOption { .. }), "{err}");
    assert!(
        err.to_string().contains("Hash, Ponder"),
        "lists the engine's options: {err}"
    );
    engine
        .set_option("style", "risky")
        .expect("combo, any case");
    assert!(engine.set_option("Ponder", "maybe").is_err());
}

#[test]
fn an_option_the_engine_rejects_at_start_up_is_an_error_not_a_silent_default() {
    // Our engine answers a network file it cannot read with `info string error: ...`;
    // playing on would pit the built-in network against itself.
    let start = |file: &str| {
        let mut config =
            UciEngineConfig::new("ours", EngineCommand::new(engine_binary::engine_binary()));
        config.options = vec![("EvalFile".into(), file.into())];
        UciEngine::start(config)
    };
    let err = start("/nonexistent/net.nnue").err().expect("rejected");
    assert!(matches!(err, UciError::BadOptionValue { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("engine 'ours': the engine rejected its options")
            && text.contains("EvalFile /nonexistent/net.nnue"),
        "{text}"
    );
    let built_in = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/nets/default.nnue");
    start(built_in).expect("a network file it reads");
}

#[test]
fn missing_program_is_a_start_error_not_a_fault() {
    let config = UciEngineConfig::new("ghost", EngineCommand::new("/nonexistent/engine"));
    let err = UciEngine::start(config).err().expect("no such program");
    assert!(matches!(err, UciError::Spawn { .. }));
    assert!(err.to_string().contains("/nonexistent/engine"), "{err}");
}

#[test]
fn crash_at_move_n_is_a_disconnect_and_restart_recovers() {
    let mut engine = UciEngine::start(fake("crash", &["--at", "3"])).expect("start");
    let fault = expect_fault(self_play(&mut engine, 3), FaultKind::Disconnected);
    assert!(!fault.engine_alive);
    assert!(fault.detail.contains("exit status: 3"), "{}", fault.detail);
    assert!(
        fault.detail.contains("crashing on purpose"),
        "stderr tail in the detail: {}",
        fault.detail
    );
    assert!(!engine.is_running());
    // Any further use reports the same fault instead of hanging.
    expect_fault(engine.new_game(), FaultKind::Disconnected);

    engine.restart().expect("restart");
    assert!(engine.is_running());
    self_play(&mut engine, 2).expect("plays again after the restart");
}

#[test]
fn hanging_engine_times_out_and_is_killed() {
    let mut engine = UciEngine::start(fake("hang", &[])).expect("start");
    let pid = engine.pid().expect("running");
    let began = Instant::now();
    let fault = expect_fault(
        engine.go(
            &Chess::default(),
            &[],
            &nodes(100),
            Duration::from_millis(300),
        ),
        FaultKind::TimedOut,
    );
    let waited = began.elapsed();
    assert!(!fault.engine_alive, "a hung engine is killed: {fault}");
    assert!(!engine.is_running());
    // Timeout 0.3 s plus 0.3 s stop grace: the fault comes from the configured limits, not a
    // default of several seconds.
    assert!(waited < Duration::from_secs(5), "took {waited:?}");
    assert!(
        !std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "process {pid} was reaped"
    );
}

#[test]
fn slow_engine_loses_on_time_but_stays_usable() {
    let mut config = fake("slow", &["--delay", "0.5"]);
    config.stop_grace = Duration::from_secs(5);
    let mut engine = UciEngine::start(config).expect("start");
    let start = Chess::default();
    let fault = expect_fault(
        engine.go(&start, &[], &nodes(100), Duration::from_millis(100)),
        FaultKind::TimedOut,
    );
    assert!(fault.engine_alive, "it answered stop: {fault}");
    assert!(engine.is_running());
    // The late bestmove was consumed: the next search gets its own answer.
    let reply = engine
        .go(&start, &[], &nodes(100), GENEROUS)
        .expect("next go");
    assert!(start.is_legal(reply.best_move));
}

#[test]
fn illegal_and_malformed_bestmoves_are_reported() {
    let mut engine =
        UciEngine::start(fake("illegal", &["--at", "2", "--move", "e2e4"])).expect("start");
    // First go is legal (a2a3); the second answers e2e4 for Black.
    let fault = expect_fault(self_play(&mut engine, 2), FaultKind::IllegalMove);
    assert!(
        fault.detail.contains("illegal bestmove 'e2e4'"),
        "{}",
        fault.detail
    );
    assert!(
        fault.detail.contains(" b KQkq "),
        "names the position: {}",
        fault.detail
    );
    assert!(fault.engine_alive);

    let mut engine = UciEngine::start(fake("illegal", &[])).expect("start");
    expect_fault(
        engine.go(&Chess::default(), &[], &nodes(1), GENEROUS),
        FaultKind::IllegalMove,
    );

    let mut engine = UciEngine::start(fake("malformed", &[])).expect("start");
    let fault = expect_fault(
        engine.go(&Chess::default(), &[], &nodes(1), GENEROUS),
        FaultKind::IllegalMove,
    );
    assert!(
        fault.detail.contains("malformed bestmove 'xyz'"),
        "{}",
        fault.detail
    );
}

#[test]
fn stderr_flood_does_not_block_the_engine() {
    // 4 MB of stderr at start and 1 MB per move: far beyond a pipe buffer (64 KiB).
    let mut engine = UciEngine::start(fake("flood", &[])).expect("start");
    engine.new_game().expect("ready");
    self_play(&mut engine, 4).expect("plays through the flood");
}

#[test]
fn ignored_isready_is_a_stall() {
    let mut engine =
        UciEngine::start(fake("noready", &["--at", "2"])).expect("first isready answered");
    let fault = expect_fault(engine.new_game(), FaultKind::Stalled);
    assert!(fault.detail.contains("readyok"), "{}", fault.detail);
    assert!(!engine.is_running());

    let err = UciEngine::start(fake("nouciok", &[]))
        .err()
        .expect("no uciok");
    let fault = expect_fault(Err::<(), _>(err), FaultKind::Stalled);
    assert!(fault.detail.contains("uciok"), "{}", fault.detail);
}

#[test]
fn args_and_working_directory_are_passed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut command = EngineCommand::new(fake_uci());
    // The fake names itself after its arguments, `{cwd}` becoming its working directory.
    command.args = vec!["--name".into(), "{cwd} first-arg".into()];
    command.dir = Some(dir.path().to_path_buf());
    let engine = UciEngine::start(UciEngineConfig::new("where", command)).expect("start");
    let expected = format!("{} first-arg", dir.path().canonicalize().unwrap().display());
    assert_eq!(engine.id_name(), Some(expected.as_str()));
}

#[test]
fn stockfish_if_installed() {
    let path = PathBuf::from("/usr/games/stockfish");
    if !path.exists() {
        engine::testing::skip("/usr/games/stockfish not installed");
        return;
    }
    let mut config = UciEngineConfig::new("sf", EngineCommand::new(path));
    config.options = vec![
        ("UCI_LimitStrength".into(), "true".into()),
        ("UCI_Elo".into(), "1350".into()),
    ];
    let mut engine = UciEngine::start(config).expect("stockfish starts");
    assert!(engine.id_name().is_some_and(|n| n.starts_with("Stockfish")));
    engine.new_game().expect("ready");
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let reply = engine
        .go(&Chess::default(), &[], &limits, GENEROUS)
        .expect("go");
    assert!(Chess::default().is_legal(reply.best_move));
    assert!(
        reply
            .info
            .is_some_and(|i| i.depth.is_some() && i.score.is_some())
    );
}

#[test]
fn exit_on_uci_and_abort_are_disconnects_with_the_cause() {
    let err = UciEngine::start(fake("exit-on-uci", &["--exit-code", "7"]))
        .err()
        .expect("no handshake");
    let fault = expect_fault(Err::<(), _>(err), FaultKind::Disconnected);
    assert!(fault.detail.contains("exit status: 7"), "{}", fault.detail);
    assert!(
        fault.detail.contains("uciok"),
        "says when: {}",
        fault.detail
    );

    let mut engine = UciEngine::start(fake("abort", &["--at", "2"])).expect("start");
    let fault = expect_fault(self_play(&mut engine, 2), FaultKind::Disconnected);
    assert!(fault.detail.contains("signal: 6"), "{}", fault.detail);
    assert!(
        fault.detail.contains("aborting on purpose"),
        "{}",
        fault.detail
    );
}

#[test]
fn closed_stdout_is_a_disconnect_even_while_the_process_lives() {
    let mut engine = UciEngine::start(fake("close-stdout", &["--at", "2"])).expect("start");
    let pid = engine.pid().expect("running");
    let fault = expect_fault(self_play(&mut engine, 2), FaultKind::Disconnected);
    assert!(!fault.engine_alive);
    assert!(!engine.is_running());
    assert!(
        !std::path::Path::new(&format!("/proc/{pid}")).exists(),
        "the process that kept running was killed and reaped"
    );
    engine.restart().expect("restart");
    self_play(&mut engine, 1).expect("the first go of a fresh process is answered");
}

#[test]
fn timeloss_overruns_the_clock_then_obeys_stop() {
    let mut engine = UciEngine::start(fake("timeloss", &["--delay", "30"])).expect("start");
    let limits = Limits {
        movetime: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    let began = Instant::now();
    let fault = expect_fault(
        engine.go(&Chess::default(), &[], &limits, Duration::from_millis(200)),
        FaultKind::TimedOut,
    );
    assert!(fault.engine_alive, "it answered stop: {fault}");
    assert!(fault.detail.contains("answered stop"), "{}", fault.detail);
    assert!(began.elapsed() < Duration::from_secs(10), "stop was obeyed");
    engine
        .ensure_ready()
        .expect("answers isready after the lost move");
}

#[test]
fn garbage_and_huge_lines_are_ignored() {
    let mut engine = UciEngine::start(fake("garbage", &[])).expect("start");
    assert_eq!(
        engine.options().len(),
        5,
        "broken option lines are not options"
    );
    let reply = engine
        .go(&Chess::default(), &[], &nodes(1), GENEROUS)
        .expect("go");
    assert_eq!(reply.info.and_then(|i| i.depth), Some(2));
    self_play(&mut engine, 4).expect("plays through the garbage");

    // A 900 kB line without a line end before the answer (under the 1 MiB limit), and 3 MB
    // of info strings.
    for (mode, bytes) in [("flood-stdout", "900000"), ("flood-lines", "3000000")] {
        let mut engine = UciEngine::start(fake(mode, &["--flood-bytes", bytes])).expect("start");
        self_play(&mut engine, 2).unwrap_or_else(|e| panic!("{mode}: {e}"));
    }
}

#[test]
fn an_overlong_line_is_a_fault_of_that_engine() {
    let mut engine =
        UciEngine::start(fake("flood-stdout", &["--flood-bytes", "50000000"])).expect("start");
    let result = engine.go(&Chess::default(), &[], &nodes(1), GENEROUS);
    let Err(UciError::Fault(fault)) = result else {
        panic!("a 50 MB line was accepted: {result:?}");
    };
    assert!(fault.detail.contains("line"), "{}", fault.detail);
}

#[test]
fn declared_options_of_every_type_are_checked() {
    let threads = "name Threads type spin default 1 min 1 max 64";
    let mut engine = UciEngine::start(fake("normal", &["--option", threads])).expect("start");
    let kinds: Vec<&str> = engine
        .options()
        .iter()
        .map(|o| match o.kind {
            OptionKind::Check { .. } => "check",
            OptionKind::Spin { .. } => "spin",
            OptionKind::Combo { .. } => "combo",
            OptionKind::Button => "button",
            OptionKind::String { .. } => "string",
        })
        .collect();
    assert_eq!(
        kinds,
        ["spin", "check", "combo", "button", "string", "spin"]
    );
    engine.set_option("threads", "64").expect("in range");
    let err = engine.set_option("Threads", "65").unwrap_err();
    assert!(
        err.to_string().contains("outside its range 1..=64"),
        "{err}"
    );
    assert!(
        engine.set_option("Style", "Wild").is_err(),
        "not a combo var"
    );
    engine
        .set_option("Debug Log File", "any text at all")
        .expect("string");
    engine.set_option("Clear Hash", "").expect("button");
}

#[test]
fn chaos_faults_repeat_for_the_same_seed() {
    // Every go fails one way or another (no hang or slow: those take their timeouts).
    let spec = "seed=11,crash=0.3,illegal=0.3,malformed=0.2,close-stdout=0.2";
    let run = || {
        let mut faults = Vec::new();
        let mut engine = UciEngine::start(fake("normal", &["--chaos", spec])).expect("start");
        let start = Chess::default();
        // A different position for each go: the first N moves of the sorted-first line.
        let mut moves = Vec::new();
        let mut position = start.clone();
        for _ in 0..12 {
            match engine.go(&start, &moves, &nodes(1), GENEROUS) {
                Err(UciError::Fault(fault)) => faults.push(fault.kind),
                other => panic!("every go faults here: {other:?}"),
            }
            if !engine.is_running() {
                engine.restart().expect("restart");
            }
            let next = position.legal_moves()[0];
            position.play_unchecked(next);
            moves.push(next);
        }
        faults
    };
    let first = run();
    assert_eq!(first, run(), "the same seed, the same faults");
    for kind in [FaultKind::Disconnected, FaultKind::IllegalMove] {
        assert!(first.contains(&kind), "{kind} in {first:?}");
    }
}
