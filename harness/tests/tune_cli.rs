//! `harness tune` end to end: the `--json` form our checks run, the parameter file it writes,
//! and usage errors.

use std::path::Path;
use std::process::Command;

use engine::params::{EVAL_PARAMS, ParamKind, Params, specs};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position, Role};

fn harness() -> Command {
    Command::new(env!("CARGO_BIN_EXE_harness"))
}

/// A small book whose results follow material with values other than the starting
/// 100/300/300/500/900 (bishop 4, rook 6, queen 11 pawns), so tuning has something to find.
fn write_book(path: &Path, positions: usize) {
    write_book_with_knight(path, positions, 3);
}

/// [`write_book`] with the knight worth `knight` pawns in the results.
fn write_book_with_knight(path: &Path, positions: usize, knight: i32) {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut lines = Vec::new();
    while lines.len() < positions {
        let mut pos = Chess::default();
        for ply in 0..80 {
            let moves = pos.legal_moves();
            let Some(m) = moves.choose(&mut rng) else {
                break;
            };
            pos.play_unchecked(*m);
            if ply > 10 && ply % 5 == 0 {
                let value = |color| {
                    let side = pos.board().by_color(color);
                    [
                        (Role::Pawn, 1),
                        (Role::Knight, knight),
                        (Role::Bishop, 4),
                        (Role::Rook, 6),
                        (Role::Queen, 11),
                    ]
                    .iter()
                    .map(|&(r, v)| (pos.board().by_role(r) & side).count() as i32 * v)
                    .sum::<i32>()
                };
                let balance = value(shakmaty::Color::White) - value(shakmaty::Color::Black);
                let noise = rng.random_range(-3..=3);
                let result = match balance + noise {
                    b if b > 1 => "1.0",
                    b if b < -1 => "0.0",
                    _ => "0.5",
                };
                let fen = Fen::from_position(&pos, EnPassantMode::Legal);
                lines.push(format!("{fen} [{result}]"));
            }
        }
    }
    lines.truncate(positions);
    std::fs::write(path, lines.join("\n")).unwrap();
}

#[test]
fn json_form_prints_one_object_and_writes_a_full_parameter_file() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("small.book");
    write_book(&data, 3000);
    let out = dir.path().join("tuned.toml");
    let output = harness()
        .args(["tune", "--data"])
        .arg(&data)
        .args(["--init", "material", "--iterations", "40", "--out"])
        .arg(&out)
        .arg("--json")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "stdout must be one JSON object: {stdout}");
    let json: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    for key in [
        "k",
        "initial_mse",
        "train_mse",
        "validation_mse",
        "positions",
        "parameters",
        "seconds",
    ] {
        assert!(json.get(key).is_some(), "missing {key}: {json}");
    }
    assert_eq!(json["positions"], 3000);
    let eval_params = specs()[..EVAL_PARAMS]
        .iter()
        .filter(|s| s.kind == ParamKind::Eval)
        .count();
    // Weights no position uses (pawns on the first and last ranks, at least) are not tuned.
    let parameters = json["parameters"].as_u64().unwrap() as usize;
    assert!(
        (eval_params / 2..=eval_params - 32).contains(&parameters),
        "{parameters} of {eval_params}"
    );
    let initial = json["initial_mse"].as_f64().unwrap();
    let train = json["train_mse"].as_f64().unwrap();
    assert!(train < initial, "{json}");
    assert!(json["k"].as_f64().unwrap() > 0.0);
    // Progress went to stderr; early stopping is on by default and says what it kept.
    assert!(stderr.contains("K ="), "{stderr}");
    assert!(stderr.contains("(best validation MSE)"), "{stderr}");

    let tuned = Params::load(&out).unwrap();
    assert_eq!(tuned.clamped(), tuned, "values must be in range");
    assert_ne!(tuned, Params::material_only());
    // Search parameters are kept as they were.
    for (id, spec) in specs().iter().enumerate() {
        if spec.kind == ParamKind::Search {
            assert_eq!(
                tuned.get(id),
                Params::material_only().get(id),
                "{}",
                spec.name
            );
        }
    }
}

#[test]
fn tune_patterns_limit_what_changes_and_checkpoints_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("small.book");
    write_book(&data, 1500);
    let out = dir.path().join("mat.toml");
    let output = harness()
        .args(["tune", "--data"])
        .arg(&data)
        .args([
            "--init",
            "material",
            "--tune",
            "material_.*_mg",
            "--optimizer",
            "adam",
            "--iterations",
            "20",
            "--checkpoint-every",
            "10",
            "--patience",
            "0",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("largest changes"), "{stdout}");
    let tuned = Params::load(&out).unwrap();
    for (before, after) in Params::material_only()
        .diff(&tuned)
        .into_iter()
        .map(|(id, a, b)| ((id, a), b))
    {
        assert!(
            specs()[before.0].name.starts_with("material_")
                && specs()[before.0].name.ends_with("_mg"),
            "{} changed to {after}",
            specs()[before.0].name
        );
    }
    assert!(dir.path().join("mat.checkpoint.toml").exists());
}

#[test]
fn usage_errors_exit_with_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.book");
    std::fs::write(
        &bad,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 [1.0]\nnonsense [0.5]\n",
    )
    .unwrap();
    let out = dir.path().join("x.toml");
    let run = |extra: &[&str], data: &Path| {
        harness()
            .args(["tune", "--data"])
            .arg(data)
            .args(extra)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap()
    };
    let output = run(&[], &bad);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("bad.book:2:"), "{stderr}");

    let good = dir.path().join("good.book");
    write_book(&good, 200);
    let output = run(&["--tune", "nosuch.*"], &good);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("nosuch"));

    // Search scores blended into the targets need data that has them.
    let output = run(&["--score-weight", "0.5"], &good);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("search scores"));
    let output = run(&["--score-weight", "1.5"], &good);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--score-weight 1.5"));

    let output = run(&["--skip-bad", "--iterations", "1"], &bad);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("skipped 1 malformed"));
}

#[test]
fn resolve_drops_positions_in_check() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("r.book");
    std::fs::write(
        &data,
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 [0.5]\n\
         rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3 [0.0]\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 [0.5]\n",
    )
    .unwrap();
    let output = harness()
        .args([
            "tune",
            "--resolve",
            "--iterations",
            "2",
            "--validation",
            "0",
            "--data",
        ])
        .arg(&data)
        .arg("--out")
        .arg(dir.path().join("r.toml"))
        .arg("--json")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("dropped 1 positions in check"), "{stderr}");
    let json: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&output.stdout).trim()).unwrap();
    assert_eq!(json["positions"], 2);
    assert!(json["validation_mse"].is_null());
}

#[test]
fn an_unwritable_out_is_an_error_before_any_tuning() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("small.book");
    write_book(&data, 200);
    let blocker = dir.path().join("a-file");
    std::fs::write(&blocker, "").unwrap();
    let output = harness()
        .args(["tune", "--data"])
        .arg(&data)
        .args(["--init", "material", "--iterations", "5", "--out"])
        .arg(blocker.join("tuned.toml"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot write") && stderr.contains("a-file"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!stdout.contains("iter "), "it tuned first:\n{stdout}");
}

#[test]
fn a_weight_whose_optimum_lies_beyond_its_range_is_fixed_at_the_bound_and_the_rest_refitted() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data.book");
    // Knights lose games here: their best value is below the range's floor of 0.
    write_book_with_knight(&data, 1500, -4);
    let out = dir.path().join("tuned.toml");
    let output = harness()
        .args(["tune", "--data"])
        .arg(&data)
        .args(["--init", "material", "--tune", "material_.*", "--l2", "0"])
        .args(["--iterations", "100", "--patience", "0", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&output.stderr).to_string()
        + &String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{log}");
    let pass = log
        .lines()
        .find(|l| l.starts_with("pass 1:"))
        .unwrap_or_else(|| panic!("no second pass: {log}"));
    assert!(pass.contains("material_knight_"), "{pass}");
    assert!(!pass.contains("material_rook_"), "{pass}");
    let params = Params::load(&out).unwrap();
    let knight = params.get_by_name("material_knight_mg").unwrap()
        + params.get_by_name("material_knight_eg").unwrap();
    assert_eq!(knight.min(0), 0, "a knight weight left below its range");
    // The rook, refitted with the knights held at 0, still carries its worth.
    assert!(
        params.get_by_name("material_rook_eg").unwrap() > 300,
        "{log}"
    );
}
