//! `harness train-net` and the `nnue` trainer behind it: a network learns that a queen more
//! is better, its file reads back, bad lines are named, and the run does not depend on the
//! number of threads.

use std::path::{Path, PathBuf};
use std::process::Command;

use engine::eval::Evaluator;
use engine::eval::nnue::{Accumulator, Network, OutputBucket};
use engine::params::Params;
use harness::nnue::{TrainSpec, train};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::{
    Bitboard, Board, ByColor, CastlingMode, Chess, Color, EnPassantMode, FromSetup, Piece,
    Position, Rank, Role, Setup, Square,
};

fn harness() -> Command {
    Command::new(env!("CARGO_BIN_EXE_harness"))
}

/// `count` legal positions of two kings, a few pawns and one queen, and the queen's colour.
fn queen_positions(count: usize, seed: u64) -> Vec<(Chess, Color)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut positions = Vec::new();
    let place = |board: &mut Board, piece: Piece, rng: &mut ChaCha8Rng| loop {
        let square = Square::new(rng.random_range(0..64u32));
        let back_rank = matches!(square.rank(), Rank::First | Rank::Eighth);
        if board.piece_at(square).is_none() && !(piece.role == Role::Pawn && back_rank) {
            board.set_piece_at(square, piece);
            break;
        }
    };
    let colour = |rng: &mut ChaCha8Rng| {
        if rng.random_bool(0.5) {
            Color::White
        } else {
            Color::Black
        }
    };
    while positions.len() < count {
        let mut board = Board::empty();
        place(&mut board, Color::White.king(), &mut rng);
        place(&mut board, Color::Black.king(), &mut rng);
        for _ in 0..rng.random_range(0..4) {
            place(&mut board, Color::White.pawn(), &mut rng);
            place(&mut board, Color::Black.pawn(), &mut rng);
        }
        let queen_side = colour(&mut rng);
        place(&mut board, queen_side.queen(), &mut rng);
        let setup = Setup {
            board,
            promoted: Bitboard::EMPTY,
            pockets: None,
            turn: colour(&mut rng),
            castling_rights: Bitboard::EMPTY,
            ep_square: None,
            remaining_checks: None::<ByColor<_>>,
            halfmoves: 0,
            fullmoves: std::num::NonZeroU32::MIN,
        };
        if let Ok(position) = Chess::from_setup(setup, CastlingMode::Standard) {
            positions.push((position, queen_side));
        }
    }
    positions
}

/// [`queen_positions`] labelled for the queen's side: score ±900 (White's view), result 1.0
/// or 0.0.
fn write_queen_data(path: &Path, count: usize, seed: u64) {
    let lines: Vec<String> = queen_positions(count, seed)
        .into_iter()
        .map(|(position, queen_side)| {
            let fen = Fen::from_position(&position, EnPassantMode::Legal);
            let (score, result) = match queen_side {
                Color::White => (900, "1.0"),
                Color::Black => (-900, "0.0"),
            };
            format!("{fen}; {score}; {result}")
        })
        .collect();
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

fn parse(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap()
}

/// The engine's evaluation, side to move's view.
fn engine_eval(net: &Network, position: &Chess) -> i32 {
    Accumulator::new(net, position.board()).evaluate(
        net,
        position.turn(),
        OutputBucket::of(position.board()),
    )
}

fn spec(data: PathBuf, out: PathBuf) -> TrainSpec {
    let mut spec = TrainSpec::new(vec![data], out);
    spec.epochs = 6;
    spec.batch_size = 256;
    spec.learning_rate = 0.005;
    spec.validation = 0.1;
    spec.threads = 2;
    spec
}

#[test]
fn a_network_learns_that_a_queen_more_is_better() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("queens.txt");
    let out = dir.path().join("queens.nnue");
    write_queen_data(&data, 4000, 7);
    let mut lines = Vec::new();
    let report = train(&spec(data, out.clone()), |p| lines.push(p.to_string())).unwrap();

    let initial = report.initial_validation_loss.unwrap();
    let last = report.epochs.last().unwrap();
    let final_loss = last.validation_loss.unwrap();
    assert!(
        final_loss < 0.25 * initial,
        "validation loss {initial} -> {final_loss}"
    );
    assert!(last.train_loss < report.epochs[0].train_loss);
    assert_eq!(report.epochs.len(), 6);
    assert_eq!(report.train_positions + report.validation_positions, 4000);
    assert_eq!(report.validation_positions, 400);
    // One line for the load, one for the initial loss, one an epoch.
    assert_eq!(lines.len(), 2 + 6, "{lines:?}");
    assert!(
        lines[2].starts_with("epoch   1/6  train loss "),
        "{}",
        lines[2]
    );

    // The file is the engine's network, the quantised float network.
    let bytes = std::fs::read(&out).unwrap();
    let net = Network::from_bytes(&bytes).expect("the written network reads back");
    assert_eq!(net, report.network.quantise());
    assert!(!dir.path().join("queens.nnue.tmp").exists());

    // The side with the queen is better, whoever is to move.
    for (fen, white_better) in [
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", true),
        ("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", true),
        ("4k3/8/8/8/2q5/8/8/4K3 w - - 0 1", false),
        ("4k3/8/8/8/2q5/8/8/4K3 b - - 0 1", false),
    ] {
        let position = parse(fen);
        let eval = engine_eval(&net, &position);
        let white_eval = if position.turn() == Color::White {
            eval
        } else {
            -eval
        };
        assert!(
            (white_eval > 200) == white_better && (white_eval < -200) != white_better,
            "{fen}: {eval}"
        );
    }
    let fresh = queen_positions(500, 99);
    let right = fresh
        .iter()
        .filter(|(position, queen_side)| {
            let eval = engine_eval(&net, position);
            (eval > 0) == (position.turn() == *queen_side)
        })
        .count();
    assert!(
        right >= 475,
        "{right} of 500 fresh positions scored for the queen's side"
    );

    // Quantisation is harmless.
    let q = &report.quantisation;
    assert!(q.on_validation && q.positions == 400);
    assert!(
        (q.quantised_loss - q.float_loss).abs() < 0.002,
        "quantised {} vs float {}",
        q.quantised_loss,
        q.float_loss
    );
    assert!(q.mean_cp_difference < 10.0, "{}", q.mean_cp_difference);
}

#[test]
fn the_network_does_not_depend_on_the_number_of_threads() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("queens.txt");
    write_queen_data(&data, 3000, 11);
    let run = |threads: usize| {
        let mut spec = spec(data.clone(), dir.path().join(format!("t{threads}.nnue")));
        spec.epochs = 2;
        spec.batch_size = 1500;
        spec.threads = threads;
        train(&spec, |_| {}).unwrap().network
    };
    assert!(run(1) == run(2), "different networks on 1 and 2 threads");
}

#[test]
fn training_carries_on_from_a_network_file() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("queens.txt");
    let first = dir.path().join("first.nnue");
    let second = dir.path().join("second.nnue");
    write_queen_data(&data, 4000, 11);
    let mut spec = spec(data.clone(), first.clone());
    let trained = train(&spec, |_| {}).unwrap();

    // Started from the first network, the second begins where the first ended: its initial
    // loss is the first's final one (up to quantisation), far below a random start's.
    spec.out = second;
    spec.init = Some(first.clone());
    spec.epochs = 1;
    let carried = train(&spec, |_| {}).unwrap();
    let ended = trained.epochs.last().unwrap().validation_loss.unwrap();
    let began = carried.initial_validation_loss.unwrap();
    assert!(
        (began - ended).abs() < 0.002,
        "first ended at {ended}, second began at {began}"
    );
    let random_start = trained.initial_validation_loss.unwrap();
    assert!(
        began < 0.5 * random_start,
        "second began at {began}, a random start at {random_start}"
    );

    // A file that is not a network is a usage error naming it.
    let output = harness()
        .args(["train-net", "--data"])
        .arg(&data)
        .arg("--out")
        .arg(dir.path().join("third.nnue"))
        .arg("--init")
        .arg(&data)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("queens.txt: not a network file"),
        "{stderr}"
    );
}

/// A residual network learns what the hand-written evaluation misses: here a bonus of 200 cp
/// for the side with the queen on top of that evaluation's own score.
#[test]
fn a_residual_network_learns_what_the_evaluation_misses() {
    const BONUS: i32 = 200;
    let evaluator = Evaluator::new(&Params::default());
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("bonus.txt");
    let lines: Vec<String> = queen_positions(4000, 21)
        .into_iter()
        .map(|(position, queen_side)| {
            let white = evaluator.evaluate_white(&position)
                + if queen_side == Color::White {
                    BONUS
                } else {
                    -BONUS
                };
            let fen = Fen::from_position(&position, EnPassantMode::Legal);
            format!("{fen}; {white}; 0.5")
        })
        .collect();
    std::fs::write(&data, lines.join("\n") + "\n").unwrap();

    let out = dir.path().join("residual.nnue");
    let mut spec = spec(data.clone(), out.clone());
    spec.wdl = 0.0;
    spec.residual = true;
    let report = train(&spec, |_| {}).unwrap();
    let net = Network::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert!(net.is_residual());
    // It starts from the evaluation, near its targets already, and ends far nearer.
    let mut full = spec.clone();
    full.residual = false;
    full.epochs = 1;
    full.out = dir.path().join("full.nnue");
    let full_start = train(&full, |_| {})
        .unwrap()
        .initial_validation_loss
        .unwrap();
    let start = report.initial_validation_loss.unwrap();
    let end = report.epochs.last().unwrap().validation_loss.unwrap();
    assert!(
        start < 0.5 * full_start,
        "residual start {start}, full {full_start}"
    );
    assert!(end < 0.25 * start, "residual {start} -> {end}");
    // On fresh positions its output is the bonus for the queen's side.
    let fresh = queen_positions(300, 77);
    let mean = fresh
        .iter()
        .map(|(position, queen_side)| {
            let eval = engine_eval(&net, position);
            if position.turn() == *queen_side {
                eval
            } else {
                -eval
            }
        })
        .sum::<i32>() as f64
        / fresh.len() as f64;
    assert!(
        (mean - f64::from(BONUS)).abs() < 50.0,
        "mean correction {mean}"
    );

    // `check-net` measures it next to the evaluation: far closer to the targets, its output
    // about the bonus (its sign follows the queen, so the mean of its size is the bonus);
    // within --limit once limited.
    let check = |extra: &[&str]| {
        let output = harness()
            .args(["check-net", "--wdl", "0", "--net"])
            .arg(&out)
            .arg("--data")
            .arg(&data)
            .args(extra)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout).to_string();
        assert!(
            output.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        stdout
    };
    let loss = |stdout: &str, label: &str| -> f64 {
        let line = stdout.lines().find(|l| l.starts_with(label)).unwrap();
        line.rsplit(' ').next().unwrap().parse().unwrap()
    };
    let unlimited = check(&[]);
    assert!(unlimited.starts_with("4000 positions"), "{unlimited}");
    assert!(
        loss(&unlimited, "evaluation + residual network") < 0.25 * loss(&unlimited, "hand-written"),
        "{unlimited}"
    );
    let size: f64 = unlimited
        .lines()
        .find(|l| l.starts_with("network output"))
        .and_then(|l| l.split("mean |·| ").nth(1))
        .and_then(|rest| rest.split(' ').next())
        .unwrap()
        .parse()
        .unwrap();
    assert!((size - f64::from(BONUS)).abs() < 50.0, "{unlimited}");
    let limited = check(&["--limit", "50"]);
    assert!(limited.contains("evaluation + residual (±50)"), "{limited}");
    assert!(limited.contains("mean |·| 50.0 cp"), "{limited}");
    let output = harness()
        .args(["check-net", "--net", "/nonexistent.nnue", "--data"])
        .arg(&data)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--net /nonexistent.nnue"), "{stderr}");

    // A limit means nothing to a full network.
    let output = harness()
        .args(["check-net", "--limit", "20", "--net"])
        .arg(&full.out)
        .arg("--data")
        .arg(&data)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--limit applies to a residual network"),
        "{stderr}"
    );

    // Carried on, a residual network needs --residual, and a full one must not have it.
    for (init, residual, message) in [
        (&out, false, "is a residual network; add --residual"),
        (
            &full.out,
            true,
            "is a full (not residual) network; leave out --residual",
        ),
    ] {
        let mut command = harness();
        command
            .args(["train-net", "--data"])
            .arg(&data)
            .arg("--out")
            .arg(dir.path().join("again.nnue"))
            .arg("--init")
            .arg(init);
        if residual {
            command.arg("--residual");
        }
        let output = command.output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
    }
}

/// [`queen_positions`] scored by the hand-written evaluation plus `bonus` for the queen's
/// side and `tempo` for the side to move (White's view), with a drawn result.
fn write_bonus_data(path: &Path, count: usize, seed: u64, bonus: i32, tempo: i32) {
    let evaluator = Evaluator::new(&Params::default());
    let lines: Vec<String> = queen_positions(count, seed)
        .into_iter()
        .map(|(position, queen_side)| {
            let sign = |c: Color| if c == Color::White { 1 } else { -1 };
            let white = evaluator.evaluate_white(&position)
                + sign(queen_side) * bonus
                + sign(position.turn()) * tempo;
            let fen = Fen::from_position(&position, EnPassantMode::Legal);
            format!("{fen}; {white}; 0.5")
        })
        .collect();
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// The mean of the engine's network output for the queen's side, and the mean of its output
/// for the side to move, on fresh positions.
fn mean_outputs(net: &Network, limit: Option<i32>) -> (f64, f64) {
    let fresh = queen_positions(300, 77);
    let (mut queen, mut mover) = (0i64, 0i64);
    for (position, queen_side) in &fresh {
        let raw = engine_eval(net, position);
        let eval = limit.map_or(raw, |l| raw.clamp(-l, l));
        mover += i64::from(eval);
        queen += i64::from(if position.turn() == *queen_side {
            eval
        } else {
            -eval
        });
    }
    let n = fresh.len() as f64;
    (queen as f64 / n, mover as f64 / n)
}

#[test]
fn a_score_offset_takes_a_bonus_for_the_side_to_move_out_of_the_targets() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("tempo.txt");
    write_bonus_data(&data, 3000, 31, 0, 80);
    let run = |offset: f32, name: &str| {
        let mut spec = spec(data.clone(), dir.path().join(name));
        spec.wdl = 0.0;
        spec.residual = true;
        spec.rule.offset = offset;
        train(&spec, |_| {}).unwrap();
        Network::from_bytes(&std::fs::read(dir.path().join(name)).unwrap()).unwrap()
    };
    let (_, plain) = mean_outputs(&run(0.0, "plain.nnue"), None);
    assert!((plain - 80.0).abs() < 20.0, "learnt tempo {plain}");
    let (_, offset) = mean_outputs(&run(-80.0, "offset.nnue"), None);
    assert!(offset.abs() < 20.0, "tempo left after the offset {offset}");
}

#[test]
fn a_network_trained_under_a_limit_learns_up_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("bonus.txt");
    write_bonus_data(&data, 4000, 23, 200, 0);
    let out = dir.path().join("limited.nnue");
    let mut spec = spec(data.clone(), out.clone());
    spec.wdl = 0.0;
    spec.residual = true;
    spec.limit = Some(50);
    let report = train(&spec, |_| {}).unwrap();
    let start = report.initial_validation_loss.unwrap();
    let end = report.epochs.last().unwrap().validation_loss.unwrap();
    assert!(end < 0.8 * start, "limited loss {start} -> {end}");
    // The targets want 200 cp; within ±50 the best is 50 for the queen's side, everywhere.
    let net = Network::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let (queen, _) = mean_outputs(&net, Some(50));
    assert!(queen > 45.0, "mean limited correction {queen}");

    // The command's options: a limit needs a residual network and no output shift.
    for (extra, message) in [
        (
            &["--limit", "20"][..],
            "--limit applies to a residual network: add --residual",
        ),
        (
            &["--residual", "--limit", "20", "--output-shift", "-10"][..],
            "--limit with --output-shift",
        ),
        (
            &["--residual", "--limit", "0"][..],
            "--limit 0 is out of range (accepted: 1 to 1000)",
        ),
        (
            &["--score-offset", "-2000"][..],
            "--score-offset -2000 is out of range (accepted: -1000 to 1000)",
        ),
    ] {
        let output = harness()
            .args(["train-net", "--data"])
            .arg(&data)
            .arg("--out")
            .arg(dir.path().join("again.nnue"))
            .args(extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(message), "{extra:?}: {stderr}");
    }
}

#[test]
fn an_output_shift_moves_every_evaluation_of_the_written_network() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("queens.txt");
    write_queen_data(&data, 1000, 5);
    let run = |shift: f32, name: &str| {
        let mut spec = spec(data.clone(), dir.path().join(name));
        spec.epochs = 1;
        spec.output_shift = shift;
        train(&spec, |_| {}).unwrap();
        Network::from_bytes(&std::fs::read(dir.path().join(name)).unwrap()).unwrap()
    };
    let (plain, shifted) = (run(0.0, "plain.nnue"), run(-75.0, "shifted.nnue"));
    for (position, _) in queen_positions(50, 8) {
        let moved = engine_eval(&shifted, &position) - engine_eval(&plain, &position);
        // Within the rounding of the quantised bias and output.
        assert!((-76..=-74).contains(&moved), "{moved}");
    }
}

#[test]
fn a_bad_line_names_its_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("bad.txt");
    std::fs::write(
        &data,
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1; 900; 1.0\n\
         # a comment\n\
         4k3/8/8/8/8/8/8/3QK3 b - - 0 1; 900; 1.0\n\
         4k3/8/8/8/8/8/8/3QK3 w - - 0 1; 1.0\n",
    )
    .unwrap();
    let err = train(&spec(data, dir.path().join("x.nnue")), |_| {}).unwrap_err();
    // A usage error: exit code 2.
    assert!(err.downcast_ref::<harness::UsageError>().is_some(), "{err}");
    let err = err.to_string();
    assert!(
        err.contains("bad.txt:4: expected '<FEN>; <score>; <result>'"),
        "{err}"
    );
}

#[test]
fn the_command_trains_and_writes_a_network() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("queens.txt");
    let out = dir.path().join("net.nnue");
    write_queen_data(&data, 1000, 3);
    let output = harness()
        .args(["train-net", "--data"])
        .arg(&data)
        .arg("--out")
        .arg(&out)
        .args([
            "--epochs",
            "2",
            "--batch",
            "128",
            "--threads",
            "1",
            "--validation",
            "0.1",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("1000 positions (0 with |score| > 3000 left out): 900 to train on, 100 to validate; 1 thread\n"),
        "{stdout}"
    );
    assert!(stdout.contains("epoch   2/2  train loss"), "{stdout}");
    assert!(
        stdout
            .contains("quantised network as the engine evaluates it, on 100 validation positions"),
        "{stdout}"
    );
    Network::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
}

#[test]
fn out_of_range_options_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("net.nnue");
    for (option, value, message) in [
        (
            "--wdl",
            "1.5",
            "--wdl 1.5 is out of range (accepted: 0 to 1)",
        ),
        (
            "--lr",
            "0",
            "--lr 0 is out of range (accepted: 0.000001 to 1)",
        ),
        (
            "--batch",
            "0",
            "--batch 0 is out of range (accepted: 1 to 1048576)",
        ),
        (
            "--epochs",
            "0",
            "--epochs 0 is out of range (accepted: 1 to 100000)",
        ),
        (
            "--validation",
            "0.9",
            "--validation 0.9 is out of range (accepted: 0 to 0.5)",
        ),
        (
            "--max-score",
            "0",
            "--max-score 0 is out of range (accepted: 1 to 30000)",
        ),
        (
            "--threads",
            "0",
            "--threads 0 is out of range (accepted: 1 to 1024)",
        ),
        ("--lr", "NaN", "--lr NaN is not a number"),
        (
            "--score-scale",
            "0",
            "--score-scale 0 is out of range (accepted: 0.01 to 100)",
        ),
    ] {
        let output = harness()
            .args(["train-net", "--data", "missing.txt", "--out"])
            .arg(&out)
            .args([option, value])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{option} {value}: {stderr}");
        assert!(stderr.contains(message), "{option} {value}: {stderr}");
    }
    let output = harness()
        .args(["train-net", "--data", "missing.txt", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot open data set missing.txt"),
        "{stderr}"
    );
}

#[test]
fn check_net_reads_the_target_options_as_train_net_does() {
    // Declared once for both commands: the same ranges, the same messages.
    for (option, value, message) in [
        (
            "--wdl",
            "1.5",
            "--wdl 1.5 is out of range (accepted: 0 to 1)",
        ),
        (
            "--max-score",
            "0",
            "--max-score 0 is out of range (accepted: 1 to 30000)",
        ),
        (
            "--score-scale",
            "0",
            "--score-scale 0 is out of range (accepted: 0.01 to 100)",
        ),
        (
            "--score-offset",
            "NaN",
            "--score-offset NaN is not a number",
        ),
        (
            "--limit",
            "0",
            "--limit 0 is out of range (accepted: 1 to 1000)",
        ),
    ] {
        for command in ["train-net", "check-net"] {
            let mut run = harness();
            run.args([command, "--data", "missing.txt"]);
            match command {
                "train-net" => run.args(["--out", "unused.nnue", "--residual"]),
                _ => run.args(["--net", "missing.nnue"]),
            };
            let output = run.args([option, value]).output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(
                output.status.code(),
                Some(2),
                "{command} {option} {value}: {stderr}"
            );
            assert!(
                stderr.contains(message),
                "{command} {option} {value}: {stderr}"
            );
        }
    }
}
