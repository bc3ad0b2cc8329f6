//! Whole games with external UCI engines: each fault ends the game with the right
//! termination and result, a restart recovers, an interruption is quick, and our own engine
//! over UCI plays exactly the games it plays in-process. The misbehaving engine is the
//! workspace's `fake-uci`.

#[path = "common/engine_binary.rs"]
mod engine_binary;
mod fake_engines;

use engine_binary::engine_binary;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use engine::params::Params;
use harness::book::Opening;
use harness::game::{
    EngineLimits, GameRecord, GameResult, GameRules, InProcessPlayer, Player, Termination,
    UciPlayer, play_game,
};
use harness::uci::{EngineCommand, UciEngineConfig};
use shakmaty::Chess;
use shakmaty::fen::Fen;

fn fake_config(mode: &str, extra: &[&str]) -> UciEngineConfig {
    let command = fake_engines::fake_command(mode, extra);
    let mut config = UciEngineConfig::new("fake", command);
    config.ready_timeout = Duration::from_millis(400);
    config.stop_grace = Duration::from_millis(300);
    config
}

fn fake(mode: &str, extra: &[&str]) -> UciPlayer {
    UciPlayer::start(fake_config(mode, extra), Duration::from_millis(100))
        .expect("fake engine starts")
        .with_untimed_wait(Duration::from_millis(500))
}

fn ours() -> InProcessPlayer {
    InProcessPlayer::new("ours", Params::default(), 1)
}

fn nodes(n: u64) -> EngineLimits {
    EngineLimits {
        nodes: Some(n),
        ..EngineLimits::default()
    }
}

fn capped(moves: u32) -> GameRules {
    GameRules {
        max_moves: Some(moves),
        ..GameRules::default()
    }
}

/// `ours` has White, the fake Black.
fn game(fake: &mut UciPlayer, fake_limits: EngineLimits, rules: GameRules) -> GameRecord {
    let mut white = ours();
    play_game(
        [&mut white, fake],
        [nodes(50), fake_limits],
        &Opening::startpos(),
        &rules,
        &AtomicBool::new(false),
    )
    .expect("not interrupted")
}

fn assert_ending(record: &GameRecord, termination: Termination, result: GameResult) {
    assert_eq!(
        (record.termination, record.result),
        (termination, result),
        "{}",
        record.reason
    );
}

#[test]
fn crash_loses_by_disconnect_and_restart_recovers() {
    let mut player = fake("crash", &["--at", "3"]);
    let record = game(&mut player, nodes(100), capped(10));
    assert_ending(&record, Termination::Disconnect, GameResult::WhiteWins);
    assert!(
        record.reason.contains("Black disconnects"),
        "{}",
        record.reason
    );
    assert_eq!(
        record.moves.len(),
        5,
        "the fake made two moves, then crashed on its third"
    );
    assert!(player.needs_restart());

    // Without a restart the next game is lost at once; after one it is played out.
    let record = game(&mut player, nodes(100), capped(2));
    assert_ending(&record, Termination::Disconnect, GameResult::WhiteWins);
    player.restart().expect("restart");
    assert!(!player.needs_restart());
    let record = game(&mut player, nodes(100), capped(2));
    assert_ending(&record, Termination::MaxMoves, GameResult::Draw);
}

#[test]
fn hang_loses_on_time_with_a_clock_and_without() {
    let began = Instant::now();
    let mut player = fake("hang", &[]);
    let movetime = EngineLimits {
        movetime_ms: Some(100),
        time_margin_ms: 100,
        ..EngineLimits::default()
    };
    let record = game(&mut player, movetime, capped(10));
    assert_ending(&record, Termination::TimeForfeit, GameResult::WhiteWins);
    assert!(player.needs_restart(), "a hung engine is killed");

    // Fixed nodes: the untimed wait (0.5 s here) applies.
    let mut player = fake("hang", &[]);
    let record = game(&mut player, nodes(100), capped(10));
    assert_ending(&record, Termination::TimeForfeit, GameResult::WhiteWins);
    assert!(
        began.elapsed() < Duration::from_secs(20),
        "the configured waits apply, not long defaults"
    );
}

#[test]
fn slow_engine_loses_on_time_and_plays_on() {
    let mut config = fake_config("slow", &["--delay", "0.6"]);
    config.stop_grace = Duration::from_secs(5);
    let mut player = UciPlayer::start(config, Duration::from_millis(50)).expect("start");
    let clock = EngineLimits {
        tc: Some("0.2+0".parse().unwrap()),
        time_margin_ms: 50,
        ..EngineLimits::default()
    };
    let record = game(&mut player, clock, capped(10));
    assert_ending(&record, Termination::TimeForfeit, GameResult::WhiteWins);
    assert!(
        !player.needs_restart(),
        "it answered stop, so it keeps playing"
    );
}

#[test]
fn illegal_and_malformed_moves_lose() {
    let mut player = fake("illegal", &["--at", "2"]);
    let record = game(&mut player, nodes(100), capped(10));
    assert_ending(&record, Termination::IllegalMove, GameResult::WhiteWins);
    assert!(record.reason.contains("a1a1"), "{}", record.reason);
    assert!(!player.needs_restart());

    let mut player = fake("malformed", &[]);
    let record = game(&mut player, nodes(100), capped(10));
    assert_ending(&record, Termination::IllegalMove, GameResult::WhiteWins);
    assert!(record.reason.contains("xyz"), "{}", record.reason);
}

#[test]
fn ignored_isready_stalls_the_game() {
    // The first isready is the start-up handshake; the second is the new game's.
    let mut player = fake("noready", &["--at", "2"]);
    let record = game(&mut player, nodes(100), capped(10));
    assert_ending(&record, Termination::Stall, GameResult::WhiteWins);
    assert!(record.moves.is_empty());
    assert!(player.needs_restart());
}

#[test]
fn stderr_flood_does_not_disturb_a_game() {
    // Writing megabytes can take a while on a busy machine: no tight wait here.
    let mut player = fake("flood", &[]).with_untimed_wait(Duration::from_secs(30));
    let record = game(&mut player, nodes(100), capped(4));
    assert_ending(&record, Termination::MaxMoves, GameResult::Draw);
    let black_moves: Vec<_> = record.moves.iter().skip(1).step_by(2).collect();
    assert!(
        black_moves.iter().all(|m| m.depth == 2 && m.nodes > 0),
        "info lines are read"
    );
}

#[test]
fn overrunning_the_clock_loses_on_time_and_plays_on() {
    // The fake thinks for its whole clock plus 0.5 s, then obeys stop.
    let mut config = fake_config("timeloss", &["--delay", "0.5", "--at", "3"]);
    config.stop_grace = Duration::from_secs(5);
    let mut player = UciPlayer::start(config, Duration::from_millis(50)).expect("start");
    let clock = EngineLimits {
        tc: Some("1+0".parse().unwrap()),
        time_margin_ms: 50,
        ..EngineLimits::default()
    };
    let record = game(&mut player, clock, capped(10));
    assert_ending(&record, Termination::TimeForfeit, GameResult::WhiteWins);
    assert_eq!(record.moves.len(), 5, "two moves in time, the third lost");
    assert!(!player.needs_restart(), "it answered stop");
}

#[test]
fn closed_output_and_abort_lose_by_disconnect() {
    for mode in ["close-stdout", "abort"] {
        let mut player = fake(mode, &["--at", "2"]);
        let record = game(&mut player, nodes(100), capped(10));
        assert_ending(&record, Termination::Disconnect, GameResult::WhiteWins);
        assert_eq!(record.moves.len(), 3, "{mode}: one move, then the fault");
        assert!(player.needs_restart(), "{mode}");
    }
}

#[test]
fn garbage_output_does_not_disturb_a_game() {
    let mut player = fake("garbage", &[]);
    let record = game(&mut player, nodes(100), capped(4));
    assert_ending(&record, Termination::MaxMoves, GameResult::Draw);
    let black_moves: Vec<_> = record.moves.iter().skip(1).step_by(2).collect();
    assert!(black_moves.iter().all(|m| m.depth == 2 && m.nodes > 0));
}

#[test]
fn interruption_abandons_a_waiting_game_quickly() {
    let mut player = fake("hang", &[]).with_untimed_wait(Duration::from_secs(60));
    let stop = AtomicBool::new(false);
    let began = Instant::now();
    let outcome = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_millis(300));
            stop.store(true, Ordering::Relaxed);
        });
        let mut white = ours();
        play_game(
            [&mut white, &mut player],
            [nodes(50), nodes(100)],
            &Opening::startpos(),
            &capped(10),
            &stop,
        )
    });
    assert!(outcome.is_err(), "an interrupted game is not a result");
    assert!(
        began.elapsed() < Duration::from_secs(10),
        "did not wait for the 60 s limit"
    );
}

#[test]
fn our_engine_over_uci_plays_the_in_process_games_move_for_move() {
    let binary = engine_binary();
    let openings = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    ];
    let mut params = Params::default();
    params
        .set_assignment("delta_margin=150")
        .expect("a parameter");
    let limits = nodes(400);
    let rules = capped(40);
    let stop = AtomicBool::new(false);
    for fen in openings {
        let start: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let opening = Opening::new(start, Vec::new()).unwrap();
        let moves = |record: &GameRecord| record.moves.iter().map(|m| m.mv).collect::<Vec<_>>();

        let mut white = InProcessPlayer::new("ours", params.clone(), 16);
        let mut black = InProcessPlayer::new("base", Params::default(), 16);
        let reference = play_game(
            [&mut white, &mut black],
            [limits; 2],
            &opening,
            &rules,
            &stop,
        )
        .unwrap();

        let mut config = UciEngineConfig::new("ours-uci", EngineCommand::new(&binary));
        config.options = vec![
            ("delta_margin".into(), "150".into()),
            ("Hash".into(), "16".into()),
        ];
        let mut uci_white =
            UciPlayer::start(config, Duration::from_millis(100)).expect("engine starts");
        let mut black = InProcessPlayer::new("base", Params::default(), 16);
        let over_uci = play_game(
            [&mut uci_white, &mut black],
            [limits; 2],
            &opening,
            &rules,
            &stop,
        )
        .unwrap();

        let uci_text = over_uci
            .moves
            .iter()
            .map(|m| shakmaty::uci::UciMove::from_standard(m.mv).to_string())
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(
            moves(&over_uci),
            moves(&reference),
            "from {fen}: {}\nUCI: {uci_text}",
            over_uci.reason
        );
        assert_eq!(over_uci.termination, reference.termination);
        assert_eq!(over_uci.result, reference.result);
        let scores = |record: &GameRecord| {
            record
                .moves
                .iter()
                .step_by(2)
                .map(|m| m.score)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            scores(&over_uci),
            scores(&reference),
            "same scores from {fen}"
        );
    }
}
