//! Fuzzing the readers of user input with generated text: opening books (EPD and PGN),
//! results folders (games.csv) and the `harness match` command line. Each must answer with a
//! value or an error, never a panic.
//!
//! In the test suite each runs a few hundred cases. For a long run:
//!
//! ```sh
//! FUZZ_SECONDS=600 cargo test --release -p harness --test fuzz_inputs -- --nocapture --test-threads 1
//! ```
//!
//! runs each target for that many seconds and prints how many inputs it tried.

use std::path::Path;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Runs `test` on inputs from `strategy`: a few hundred cases, or for `FUZZ_SECONDS`.
fn fuzz<S: Strategy>(name: &str, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let seconds: u64 = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut tried = 0u64;
    loop {
        let config = Config {
            cases: 256,
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        if let Err(e) = runner.run(&strategy, &test) {
            panic!("{name}: {e}");
        }
        tried += 256;
        if Instant::now() >= deadline {
            break;
        }
    }
    eprintln!("{name}: {tried} inputs, no panic");
}

/// Lines that look like the real thing, garbled: pieces of FEN, moves, tags, numbers and noise.
fn book_text() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR".to_string()),
        Just("8/8/8/8/8/8/8/K1k5".to_string()),
        Just("w".to_string()),
        Just("b".to_string()),
        Just("KQkq".to_string()),
        Just("-".to_string()),
        Just("e3".to_string()),
        Just("0 1".to_string()),
        Just("100 1".to_string()),
        Just("99999999999999999999".to_string()),
        Just("\u{feff}".to_string()),
        Just("[Event \"x\"]".to_string()),
        Just("[FEN \"".to_string()),
        Just("1. e4 e5 2. Nf3".to_string()),
        Just("{comment}".to_string()),
        Just("(1... c5)".to_string()),
        Just("1-0".to_string()),
        Just("*".to_string()),
        Just(";".to_string()),
        Just("c9 \"1/2\";".to_string()),
        "[ -~]{0,12}",
        "\\PC{0,6}",
    ];
    proptest::collection::vec(
        (
            token,
            prop_oneof![Just(" "), Just("\n"), Just(""), Just("\r\n")],
        ),
        0..40,
    )
    .prop_map(|parts| parts.into_iter().map(|(t, sep)| t + sep).collect())
}

#[test]
fn book_reader_never_panics() {
    let tmp = tempfile::tempdir().unwrap();
    for (format, file) in [("epd", "book.epd"), ("pgn", "book.pgn")] {
        let path = tmp.path().join(file);
        fuzz(&format!("book reader ({format})"), book_text(), |text| {
            std::fs::write(&path, &text).unwrap();
            for on_bad_entry in [
                harness::book::OnBadEntry::Fail,
                harness::book::OnBadEntry::Skip,
            ] {
                let mut spec = harness::book::BookSpec::for_file(&path).unwrap();
                spec.on_bad_entry = on_bad_entry;
                spec.plies = Some(4);
                if let Err(e) = harness::book::Book::load(&spec, 1) {
                    // Errors name the file and are one readable line, not a dump of the input.
                    let message = format!("{e:#}");
                    prop_assert!(message.contains(file), "{message}");
                    prop_assert!(message.len() < 2000, "{} bytes", message.len());
                }
            }
            Ok(())
        });
    }
}

/// games.csv text: the real header, then rows of plausible and broken fields.
fn csv_text() -> impl Strategy<Value = String> {
    let field = prop_oneof![
        "[0-9]{1,3}",
        Just("18446744073709551616".to_string()),
        Just("-1".to_string()),
        Just("a".to_string()),
        Just("b".to_string()),
        Just("1-0".to_string()),
        Just("0-1".to_string()),
        Just("1/2-1/2".to_string()),
        Just("*".to_string()),
        Just("checkmate".to_string()),
        Just("threefold".to_string()),
        Just("\"quoted, field\"".to_string()),
        Just("\"".to_string()),
        "[ -~]{0,8}",
    ];
    let row = proptest::collection::vec(field, 0..16).prop_map(|f| f.join(","));
    (
        proptest::bool::ANY,
        proptest::collection::vec(row, 0..12),
        proptest::bool::ANY,
    )
        .prop_map(|(header, rows, newline)| {
            let mut text = String::new();
            if header {
                text.push_str(harness::output::csv_rows::HEADER);
                text.push('\n');
            }
            text.push_str(&rows.join("\n"));
            if newline {
                text.push('\n');
            }
            text
        })
}

#[test]
fn results_reader_never_panics() {
    fuzz("games.csv reader", csv_text(), |text| {
        let path = Path::new("run/games.csv");
        if let Ok(found) = harness::output::csv_rows::parse_games_csv(&text, path) {
            let mut board = harness::scoreboard::Scoreboard::new("a", "b", Some(4));
            for row in &found.rows {
                board.add(row, None);
            }
            let _ = board.summary(None);
        }
        Ok(())
    });
}

/// `harness match` arguments: real options and keys with odd values.
fn match_args() -> impl Strategy<Value = Vec<String>> {
    let word = prop_oneof![
        Just("--engine".to_string()),
        Just("-engine".to_string()),
        Just("--each".to_string()),
        Just("--games".to_string()),
        Just("-rounds".to_string()),
        Just("--concurrency".to_string()),
        Just("--hash".to_string()),
        Just("--sprt".to_string()),
        Just("--draw".to_string()),
        Just("--resign".to_string()),
        Just("--maxmoves".to_string()),
        Just("--openings".to_string()),
        Just("-output".to_string()),
        Just("-report".to_string()),
        Just("name=a".to_string()),
        Just("name=b".to_string()),
        Just("name=".to_string()),
        Just("cmd=/nonexistent".to_string()),
        Just("tc=1+0.1".to_string()),
        Just("tc=40/1e30".to_string()),
        Just("tc=inf".to_string()),
        Just("nodes=0".to_string()),
        Just("depth=99999999999".to_string()),
        Just("st=nan".to_string()),
        Just("elo0=0".to_string()),
        Just("elo1=-5".to_string()),
        Just("alpha=2".to_string()),
        Just("delta_margin=99999".to_string()),
        Just("qsearch_depth=2".to_string()),
        Just("score=-5".to_string()),
        Just("movecount=0".to_string()),
        Just("file=/nonexistent.epd".to_string()),
        Just("format=cutechess".to_string()),
        Just("penta=false".to_string()),
        "[0-9]{1,21}",
        "-?[0-9]{1,4}(\\.[0-9]{1,3})?",
        "[ -~]{0,10}",
    ];
    proptest::collection::vec(word, 0..14)
}

#[test]
fn command_line_never_panics() {
    use clap::Parser;
    fuzz("harness match command line", match_args(), |words| {
        let mut argv = vec!["harness".to_string(), "match".to_string()];
        argv.extend(words);
        let argv = harness::cli::spellings::normalize_args(argv);
        if let Ok(cli) = harness::cli::Cli::try_parse_from(argv)
            && let harness::cli::Command::Match(m) = cli.command
        {
            let _ = harness::cli::match_options::build_config(&m.options);
        }
        Ok(())
    });
}

/// UCI lines as engines and GUIs write them, garbled: keywords, moves, FENs, numbers, noise.
fn uci_line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("uci".to_string()),
        Just("isready".to_string()),
        Just("ucinewgame".to_string()),
        Just("position".to_string()),
        Just("startpos".to_string()),
        Just("fen".to_string()),
        Just("moves".to_string()),
        Just("go".to_string()),
        Just("wtime".to_string()),
        Just("btime".to_string()),
        Just("winc".to_string()),
        Just("movestogo".to_string()),
        Just("depth".to_string()),
        Just("nodes".to_string()),
        Just("movetime".to_string()),
        Just("infinite".to_string()),
        Just("ponder".to_string()),
        Just("perft".to_string()),
        Just("searchmoves".to_string()),
        Just("setoption".to_string()),
        Just("name".to_string()),
        Just("value".to_string()),
        Just("info".to_string()),
        Just("score".to_string()),
        Just("cp".to_string()),
        Just("mate".to_string()),
        Just("lowerbound".to_string()),
        Just("pv".to_string()),
        Just("string".to_string()),
        Just("bestmove".to_string()),
        Just("option".to_string()),
        Just("type".to_string()),
        Just("spin".to_string()),
        Just("combo".to_string()),
        Just("var".to_string()),
        Just("default".to_string()),
        Just("min".to_string()),
        Just("max".to_string()),
        Just("id".to_string()),
        Just("uciok".to_string()),
        Just("readyok".to_string()),
        Just("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR".to_string()),
        Just("w".to_string()),
        Just("KQkq".to_string()),
        Just("-".to_string()),
        Just("0000".to_string()),
        "[a-h][1-8][a-h][1-8][qrbnk]?",
        "-?[0-9]{1,21}",
        "[ -~]{0,8}",
    ];
    proptest::collection::vec(word, 0..16).prop_map(|words| words.join(" "))
}

#[test]
fn uci_parser_never_panics() {
    use uci_protocol::{EngineMessage, GuiMessage};
    fuzz("UCI command parser", uci_line(), |line| {
        // What parses prints back to a line that parses to the same message.
        if let Ok(message) = line.parse::<GuiMessage>() {
            let again: GuiMessage = message.to_string().parse().map_err(|e| {
                TestCaseError::fail(format!("{line:?} -> {message} does not parse: {e}"))
            })?;
            prop_assert_eq!(again, message);
        }
        if let Ok(message) = line.parse::<EngineMessage>() {
            let again: EngineMessage = message.to_string().parse().map_err(|e| {
                TestCaseError::fail(format!("{line:?} -> {message} does not parse: {e}"))
            })?;
            prop_assert_eq!(again, message);
        }
        Ok(())
    });
}
