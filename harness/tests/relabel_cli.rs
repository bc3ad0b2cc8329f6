//! `harness relabel` end to end, with our own engine over UCI as the scoring engine: scores
//! from White's view, mates left out, results kept; the same file at any concurrency; a run
//! stopped at a limit (then lines written past its record) and resumed gives the file of one whole run; an engine that crashes ends
//! the run with its name and position, nothing of its batch written; bad values exit with code 2.

#[path = "common/engine_binary.rs"]
mod engine_binary;

use std::path::Path;
use std::process::{Command, Output};

use engine_binary::engine_binary;

/// `harness relabel` with our engine at depth 3.
fn relabel(data: &Path, out: &Path, extra: &[&str]) -> Output {
    let engine = format!("cmd={}", engine_binary().display());
    relabel_with(data, out, &[&engine], &[&["--depth", "3"], extra].concat())
}

/// `harness relabel` with these `--engine` keys.
fn relabel_with(data: &Path, out: &Path, engine: &[&str], extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_harness"))
        .arg("relabel")
        .arg("--data")
        .arg(data)
        .arg("--out")
        .arg(out)
        .arg("--engine")
        .args(engine)
        .arg("--quiet")
        .args(extra)
        .output()
        .expect("run harness")
}

fn ok(output: &Output) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Lines `FEN; score; result` of a relabelled file.
fn rows(path: &Path) -> Vec<(String, i32, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            assert_eq!(fields.len(), 3, "{line}");
            (
                fields[0].to_string(),
                fields[1].parse().expect("score"),
                fields[2].to_string(),
            )
        })
        .collect()
}

#[test]
fn scores_are_from_whites_view_mates_are_left_out_and_results_kept() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("in.csv");
    std::fs::write(
        &data,
        "4k3/8/8/8/8/8/8/QK6 w - - 0 1; 12; 1.0\n\
         4k3/8/8/8/8/8/8/QK6 b - - 0 1; 34; 0.5\n\
         6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1; 0; 1.0\n",
    )
    .unwrap();
    // A second input, in the book format.
    let book = dir.path().join("in.book");
    std::fs::write(&book, "qk6/8/8/8/8/8/8/4K3 w - - 0 1 [0.0]\n").unwrap();
    let out = dir.path().join("out.csv");
    let output = relabel(
        &data,
        &out,
        &["--concurrency", "1", "--data", book.to_str().unwrap()],
    );
    ok(&output);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("1 scored as mate"), "{stdout}");
    let rows = rows(&out);
    assert_eq!(rows.len(), 3, "the back-rank mate in one is left out");
    assert!(rows[0].0.ends_with(" w - - 0 1") && rows[0].1 > 500 && rows[0].2 == "1.0");
    assert!(rows[1].0.ends_with(" b - - 0 1") && rows[1].1 > 500 && rows[1].2 == "0.5");
    // The book-format line: Black's queen, a negative score for White.
    assert!(rows[2].1 < -500 && rows[2].2 == "0.0", "{:?}", rows[2]);
}

#[test]
fn same_file_at_any_concurrency_and_a_resumed_run_equals_a_whole_one() {
    let dir = tempfile::tempdir().unwrap();
    let book = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../openings/balanced-8ply.epd"),
    )
    .unwrap();
    let data = dir.path().join("in.csv");
    let lines: String = book
        .lines()
        .take(60)
        .map(|epd| {
            let fields: Vec<&str> = epd.split_whitespace().take(4).collect();
            format!("{} 0 1; 0; 0.5\n", fields.join(" "))
        })
        .collect();
    std::fs::write(&data, lines).unwrap();

    let whole = dir.path().join("whole.csv");
    ok(&relabel(
        &data,
        &whole,
        &["--concurrency", "2", "--stride", "2"],
    ));
    let one = dir.path().join("one.csv");
    ok(&relabel(
        &data,
        &one,
        &["--concurrency", "1", "--stride", "2"],
    ));
    let whole_text = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(whole_text.lines().count(), 30);
    assert_eq!(whole_text, std::fs::read_to_string(&one).unwrap());
    assert!(
        rows(&whole).iter().any(|row| row.1 != 0),
        "scores were replaced"
    );

    let parts = dir.path().join("parts.csv");
    ok(&relabel(&data, &parts, &["--stride", "2", "--limit", "11"]));
    let first = std::fs::read_to_string(&parts).unwrap();
    assert_eq!(first.lines().count(), 11);
    // A batch written whose record did not land (a kill between the two writes): cut off on
    // resume, not written twice.
    let unrecorded: String = whole_text
        .lines()
        .skip(11)
        .take(3)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&parts, format!("{first}{unrecorded}")).unwrap();
    ok(&relabel(&data, &parts, &["--stride", "2", "--resume"]));
    assert_eq!(std::fs::read_to_string(&parts).unwrap(), whole_text);
}

#[test]
fn bad_values_exit_with_code_2_and_say_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("in.csv");
    std::fs::write(
        &data,
        "4k3/8/8/8/8/8/8/QK6 w - - 0 1; 12; 1.0\nnot a fen; 1; 1.0\n",
    )
    .unwrap();
    let out = dir.path().join("out.csv");
    let cases: [(&[&str], &str); 4] = [
        (&["--stride", "0"], "--stride must be at least 1"),
        (&["--concurrency", "0"], "--concurrency must be at least 1"),
        (&["--resume"], ".done"),
        (&["--limit", "5"], "in.csv:2"),
    ];
    for (extra, expected) in cases {
        let _ = std::fs::write(&out, "");
        let _ = std::fs::remove_file(dir.path().join("out.csv.done"));
        let output = relabel(&data, &out, extra);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(expected), "{extra:?}: {stderr}");
    }
    let output = relabel_with(&data, &out, &["option.Hash=1"], &["--depth", "2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cmd=PATH"));
}

#[test]
fn a_crashing_engine_ends_the_run_with_its_name_and_the_position() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("in.csv");
    std::fs::write(
        &data,
        "4k3/8/8/8/8/8/8/QK6 w - - 0 1; 12; 1.0\n4k3/8/8/8/8/8/8/QK6 b - - 0 1; 34; 0.5\n",
    )
    .unwrap();
    let out = dir.path().join("out.csv");
    let fake = format!("cmd={}", env!("CARGO_BIN_EXE_fake-uci"));
    let output = relabel_with(
        &data,
        &out,
        &[&fake, "args=--mode crash --at 2", "name=crasher"],
        &["--depth", "2", "--concurrency", "1"],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(stderr.contains("crasher"), "{stderr}");
    assert!(stderr.contains("4k3/8/8/8/8/8/8/QK6 b"), "{stderr}");
    // The failed batch is not written and not counted as settled.
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "");
    assert!(!dir.path().join("out.csv.done").exists());
}
