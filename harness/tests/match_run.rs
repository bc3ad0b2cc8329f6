//! A short in-process match through the real command line: counts, CSV and PGN agree.

mod match_common;

use std::collections::BTreeMap;
use std::path::Path;

use harness::runner::first_engine_points_x2;
use match_common::*;

#[test]
fn checked_form_writes_consistent_csv_pgn_and_summary() {
    let tmp = tempdir();
    let dir = tmp.path().join("run");
    let dir_s = dir.to_str().unwrap();
    let out = harness(&[
        "match",
        "--engine",
        "name=base",
        "--engine",
        "name=dev",
        "qsearch_depth=2",
        "delta_margin=400",
        "--each",
        "nodes=400",
        "--games",
        "24",
        "--concurrency",
        "2",
        "--seed",
        "7",
        "--out",
        dir_s,
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let rows = rows_without_times(&dir);
    assert_eq!(rows.len(), 24);
    assert_eq!(
        rows.iter().map(|r| r.game).collect::<Vec<_>>(),
        (0..24).collect::<Vec<_>>()
    );
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    let mut terminations: BTreeMap<String, u64> = BTreeMap::new();
    for pair in rows.chunks(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert_eq!(a.pair, b.pair);
        assert_eq!(a.opening_fen, b.opening_fen);
        assert_eq!((a.white.as_str(), a.black.as_str()), ("base", "dev"));
        assert_eq!((b.white.as_str(), b.black.as_str()), ("dev", "base"));
    }
    for r in &rows {
        assert!(!r.final_fen.is_empty());
        assert!(r.white_nodes > 0 && r.black_nodes > 0);
        let result = r.outcome().unwrap();
        match first_engine_points_x2(r.game, result) {
            2 => wins += 1,
            1 => draws += 1,
            _ => losses += 1,
        }
        *terminations
            .entry(r.termination.unwrap().as_str().to_string())
            .or_default() += 1;
    }
    // The printed report agrees with the CSV.
    let line = format!("Games: 24, Wins: {wins}, Losses: {losses}, Draws: {draws}");
    assert!(stdout.contains(&line), "expected '{line}' in\n{stdout}");

    // summary.json agrees with the CSV.
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["games"], 24);
    assert_eq!(summary["games_played"], 24);
    for key in [
        "elo",
        "elo_err95",
        "los",
        "draw_ratio",
        "nelo",
        "nelo_err95",
        "llr",
        "state",
    ] {
        assert!(summary.get(key).is_some(), "summary.json lacks {key}");
    }
    assert_eq!(summary["engines"][1]["params"]["qsearch_depth"], 2);
    let summary_terms: BTreeMap<String, u64> =
        serde_json::from_value(summary["terminations"].clone()).unwrap();
    assert_eq!(summary_terms, terminations);

    // The PGN has the same games, results and lengths.
    let mut games = pgn_games(&dir.join("games.pgn"));
    games.sort_by_key(|g| g.0);
    assert_eq!(games.len(), 24);
    for (g, r) in games.iter().zip(&rows) {
        assert_eq!(g.0, r.game + 1);
        assert_eq!(g.1, r.result.as_str());
        assert_eq!(g.2, r.plies);
        assert_eq!(
            (g.3.as_str(), g.4.as_str()),
            (r.white.as_str(), r.black.as_str())
        );
    }
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert!(
        pgn.contains("[SetUp \"1\"]") && pgn.contains("[FEN \""),
        "book starts need FEN tags"
    );
    let comment = regex::Regex::new(r"\{[+-](\d+\.\d\d|M\d+)/\d+ \d+\.\d{3}s\}").unwrap();
    assert!(comment.is_match(&pgn), "no cutechess-style move comments");
    // The configuration is recorded.
    let config = std::fs::read_to_string(dir.join("config.toml")).unwrap();
    assert!(
        config.contains("delta_margin = 400") && config.contains("seed = 7"),
        "{config}"
    );
}

#[test]
fn fastchess_spellings_and_pgn_book_with_book_comments() {
    let tmp = tempdir();
    let dir = tmp.path().join("run");
    let book = tmp.path().join("book.pgn");
    std::fs::write(
        &book,
        "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n[Event \"b\"]\n\n1. d4 d5 2. c4 e6 *\n",
    )
    .unwrap();
    let pgnout = tmp.path().join("copy.pgn");
    let out = harness(&[
        "match",
        "-engine",
        "name=a",
        "-engine",
        "name=b",
        "lmr=false",
        "-each",
        "depth=2",
        "-openings",
        &format!("file={}", book.display()),
        "plies=4",
        "-games",
        "2",
        "-rounds",
        "2",
        "-repeat",
        "-concurrency",
        "1",
        "-draw",
        "movenumber=20",
        "movecount=4",
        "score=5",
        "-resign",
        "movecount=3",
        "score=800",
        "-maxmoves",
        "60",
        "-pgnout",
        &format!("file={}", pgnout.display()),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = rows_without_times(&dir);
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0].opening_index, 0);
    assert_eq!(rows[2].opening_index, 1);
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("1. e4 {book} 1... e5 {book} 2. Nf3 {book} 2... Nc6 {book} 3."),
        "{pgn}"
    );
    assert!(
        !pgn.contains("[FEN"),
        "games from the initial position need no FEN tag"
    );
    assert_eq!(std::fs::read_to_string(pgnout).unwrap(), pgn);
    for r in &rows {
        assert!(r.plies <= 120, "maxmoves 60 exceeded: {}", r.plies);
    }
}

#[test]
fn bad_parameter_is_a_usage_error_with_suggestions() {
    let tmp = tempdir();
    let out = harness(&[
        "match",
        "--engine",
        "name=a",
        "--engine",
        "name=b",
        "delta_margn=100",
        "--games",
        "2",
        "--out",
        tmp.path().join("x").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("delta_margn") && err.contains("delta_margin"),
        "{err}"
    );
    assert!(!tmp.path().join("x").join("games.csv").exists());
}

#[test]
fn bad_book_line_names_file_and_line() {
    let tmp = tempdir();
    let book = tmp.path().join("bad.epd");
    std::fs::write(
        &book,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\nnot a fen at all\n",
    )
    .unwrap();
    let out = harness(&[
        "match",
        "--engine",
        "name=a",
        "--engine",
        "name=b",
        "--each",
        "nodes=100",
        "--games",
        "2",
        "--openings",
        &format!("file={}", book.display()),
        "--out",
        tmp.path().join("x").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{}:2:", book.display())), "{err}");

    // With errors=skip the bad line is skipped and counted, and the match runs.
    let out = harness(&[
        "match",
        "--engine",
        "name=a",
        "--engine",
        "name=b",
        "--each",
        "nodes=100",
        "--games",
        "2",
        "--openings",
        &format!("file={}", book.display()),
        "errors=skip",
        "--out",
        tmp.path().join("y").to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("skipped 1 malformed"));
}

#[test]
fn sprt_stops_the_match_early() {
    // An engine that values queens and rooks like pawns against the default: the SPRT decides long before 400 games.
    let (config, _) = config(&[
        "--engine",
        "name=full",
        "--engine",
        "name=weak",
        "material_queen_mg=100",
        "material_queen_eg=100",
        "material_rook_mg=100",
        "material_rook_eg=100",
        "--each",
        "depth=1",
        "--games",
        "400",
        "--concurrency",
        "2",
        "--sprt",
        "elo0=0",
        "elo1=500",
        "alpha=0.1",
        "beta=0.1",
        "model=logistic",
    ]);
    let tmp = tempdir();
    let report = run_in_process(&config, tmp.path(), false, None);
    assert!(
        report.stopped_by_sprt,
        "no SPRT decision after {} games",
        report.board.games()
    );
    assert!(report.board.games() < 400);
    assert_eq!(
        report.board.half_pair_games(),
        0,
        "in-flight pairs are completed"
    );
    let rows = rows_without_times(tmp.path());
    assert_eq!(rows.len() as u64, report.board.games());
}

/// `--events -` writes one JSON object a line, each valid against the schema in the repo, and
/// the per-game lines are those of cutechess-cli and fastchess.
#[test]
fn events_follow_the_schema_and_game_lines_the_fastchess_format() {
    let schema_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas/events.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let tmp = tempdir();
    let dir = tmp.path().join("run");
    let args = [
        "match",
        "--engine",
        "name=base",
        "--engine",
        "name=dev",
        "qsearch_depth=2",
        "--each",
        "nodes=300",
        "--games",
        "8",
        "--concurrency",
        "2",
        "--seed",
        "5",
        "--sprt",
        "elo0=0",
        "elo1=5",
        "--events",
        "-",
        "--out",
        dir.to_str().unwrap(),
    ];
    let out = harness(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut kinds = BTreeMap::<String, u64>::new();
    for line in stdout.lines() {
        let event: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let errors: Vec<String> = validator
            .iter_errors(&event)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{line}: {errors:?}");
        *kinds
            .entry(event["event"].as_str().unwrap().to_string())
            .or_default() += 1;
    }
    assert_eq!(kinds["match_started"], 1);
    assert_eq!(kinds["game_started"], 8);
    assert_eq!(kinds["game_finished"], 8);
    assert_eq!(kinds["pair_finished"], 4);
    assert_eq!(kinds["sprt"], 4);
    assert_eq!(kinds["match_finished"], 1);
    // An invalid event is caught (the schema is not vacuous).
    let bad = serde_json::json!({"event": "pair_finished", "pair": 0, "points_x2": 5});
    assert!(!validator.is_valid(&bad));

    // Human output: the per-game lines exactly as fastchess prints them.
    let dir = tmp.path().join("run2");
    let mut args: Vec<&str> = args[..args.len() - 4].to_vec();
    args.extend(["--out", dir.to_str().unwrap()]);
    let out = harness(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let started =
        regex::Regex::new(r"^Started game (\d+) of 8 \((base|dev) vs (base|dev)\)$").unwrap();
    let finished = regex::Regex::new(
        r"^Finished game (\d+) \((base|dev) vs (base|dev)\): (1-0|0-1|1/2-1/2) \{[A-Z][^{}]*\}$",
    )
    .unwrap();
    let starts = stdout.lines().filter(|l| started.is_match(l)).count();
    let ends: Vec<&str> = stdout.lines().filter(|l| finished.is_match(l)).collect();
    assert_eq!((starts, ends.len()), (8, 8), "{stdout}");
    assert!(
        ends.iter()
            .any(|l| l.contains("{White mates}") || l.contains("{Black mates}")),
        "{stdout}"
    );
}

/// More game pairs than openings: a note says the openings repeat and why that matters at
/// fixed nodes, and the repeated pair is indeed the same two games (which is why).
#[test]
fn repeated_openings_are_noted_and_replay_the_same_games() {
    let tmp = tempdir();
    let book = tmp.path().join("two.epd");
    std::fs::write(
        &book,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n\
         rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n",
    )
    .unwrap();
    let run = |games: &str, out: &str| {
        let dir = tmp.path().join(out);
        let output = harness(&[
            "match",
            "--engine",
            "name=base",
            "--engine",
            "name=dev",
            "delta_margin=400",
            "--each",
            "nodes=300",
            "--openings",
            &format!("file={}", book.display()),
            "--games",
            games,
            "--concurrency",
            "2",
            "--out",
            dir.to_str().unwrap(),
            "--no-game-lines",
        ]);
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        assert!(output.status.success(), "{stderr}");
        (dir, stderr)
    };
    let (_, within) = run("4", "within");
    assert!(!within.contains("openings repeat"), "{within}");
    let (dir, repeated) = run("6", "repeated");
    assert!(
        repeated.contains("has 2 openings for 3 game pairs: openings repeat")
            && repeated.contains("replays the same two games from a repeated opening")
            && repeated.contains("at least 3 openings"),
        "{repeated}"
    );
    let rows = rows_without_times(&dir);
    let same = |a: &harness::output::GameRow, b: &harness::output::GameRow| {
        (a.opening_index, &a.result, a.plies, &a.final_fen)
            == (b.opening_index, &b.result, b.plies, &b.final_fen)
    };
    assert!(same(&rows[0], &rows[4]) && same(&rows[1], &rows[5]));
}
