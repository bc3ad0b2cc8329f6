//! `harness datagen` as a library: a small run's file is valid training data, and every label
//! is the result of the game the position came from (checked against the games replayed
//! independently with the same seed).

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::AtomicBool;

use engine::params::Params;
use engine::search::position_key;
use harness::book::{Book, BookOrder, BookSpec};
use harness::datagen::progress::{Progress, progress_path};
use harness::datagen::writer::OutputFormat;
use harness::datagen::{
    DatagenOptions, DatagenReport, Flow, SelfPlayConfig, default_rules, generate, selfplay,
};
use harness::game::GameResult;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

fn config(seed: u64, concurrency: usize) -> SelfPlayConfig {
    SelfPlayConfig {
        params: Params::default(),
        nodes: 300,
        hash_mb: 1,
        random_plies: 4,
        max_opening_score: Some(100),
        seed,
        concurrency,
        rules: default_rules(),
    }
}

/// Parses `FEN [label]` into the position and the label.
fn parse_book_line(line: &str) -> (Chess, f32) {
    let (fen, rest) = line
        .rsplit_once(" [")
        .unwrap_or_else(|| panic!("no ' [' in {line:?}"));
    let label = rest
        .strip_suffix(']')
        .unwrap_or_else(|| panic!("no ']' at the end of {line:?}"));
    let label: f32 = match label {
        "1.0" => 1.0,
        "0.5" => 0.5,
        "0.0" => 0.0,
        other => panic!("label {other:?} in {line:?}"),
    };
    let fen: Fen = fen.parse().unwrap_or_else(|e| panic!("{line:?}: {e}"));
    let position = fen
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{line:?}: {e}"));
    (position, label)
}

fn label_of(result: GameResult) -> f32 {
    match result {
        GameResult::WhiteWins => 1.0,
        GameResult::Draw => 0.5,
        GameResult::BlackWins => 0.0,
    }
}

fn check_run(book: Option<&Book>, seed: u64) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("data.book");
    let wanted = 200;
    let options = DatagenOptions {
        out: out.clone(),
        positions: wanted,
        format: OutputFormat::Book,
        selfplay: config(seed, 2),
        book_name: None,
        resume: false,
    };
    let stop = AtomicBool::new(false);
    let report = generate(&options, book, &stop, |_| {}).unwrap();
    assert_eq!(report.positions, wanted);
    assert!(report.games >= 2, "{report:?}");
    assert!(report.filtered.book >= 4 * report.games, "{report:?}");

    // Replay the games on one thread and note, for each kept position, the result of the
    // first game that kept it.
    let mut first_result: HashMap<u64, GameResult> = HashMap::new();
    let mut games = 0;
    selfplay::run(&config(seed, 1), book, 0, &AtomicBool::new(false), |game| {
        for c in &game.positions {
            first_result.entry(c.key).or_insert(game.record.result);
        }
        games += 1;
        Ok(if games >= report.games {
            Flow::Stop
        } else {
            Flow::Continue
        })
    })
    .unwrap();

    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.ends_with('\n'));
    let mut keys = HashSet::new();
    for line in text.lines() {
        let (position, label) = parse_book_line(line);
        assert!(!position.is_check(), "side to move in check: {line}");
        assert!(!position.legal_moves().is_empty(), "no legal move: {line}");
        let key = position_key(&position);
        assert!(keys.insert(key), "duplicate: {line}");
        let result = first_result
            .get(&key)
            .unwrap_or_else(|| panic!("not from the replayed games: {line}"));
        assert_eq!(label, label_of(*result), "label of {line}");
    }
    assert_eq!(keys.len() as u64, wanted);
}

#[test]
fn small_run_from_the_start_position_is_valid_data() {
    check_run(None, 11);
}

#[test]
fn small_run_from_a_book_is_valid_data() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/openings/8moves_v3.epd.xz");
    if !path.exists() {
        engine::testing::skip("../shared not found");
        return;
    }
    let mut spec = BookSpec::for_file(&path).unwrap();
    spec.order = BookOrder::Random;
    let book = Book::load(&spec, 5).unwrap();
    check_run(Some(&book), 5);
}

#[test]
fn score_format_has_search_scores_from_whites_view() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("data.csv");
    let options = DatagenOptions {
        out: out.clone(),
        positions: 100,
        format: OutputFormat::Score,
        selfplay: config(3, 1),
        book_name: None,
        resume: false,
    };
    generate(&options, None, &AtomicBool::new(false), |_| {}).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let evaluator = engine::eval::Evaluator::new(&Params::default());
    let mut lines = 0;
    // Over Black-to-move positions, the sign of the written score against the sign of the
    // static evaluation from White's view: strongly positive if scores are from White's
    // view, strongly negative if they were from the side to move's. (Agreement with the game
    // results is too weak a signal in a hundred positions of a few games.)
    let mut agreement = 0;
    for line in text.lines() {
        let fields: Vec<&str> = line.split("; ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        let fen: Fen = fields[0].parse().unwrap();
        let position: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let score: i32 = fields[1].parse().unwrap();
        assert!(
            score.abs() < 20_000,
            "mate scores are never written: {line}"
        );
        assert!(["1.0", "0.5", "0.0"].contains(&fields[2]), "{line}");
        assert!(!position.is_check());
        if position.turn() == shakmaty::Color::Black {
            agreement += score.signum() * evaluator.evaluate_white(&position).signum();
        }
        lines += 1;
    }
    assert_eq!(lines, 100);
    assert!(
        agreement > 10,
        "scores disagree with White's static evaluation: {agreement}"
    );
}

#[test]
fn random_plies_alternate_parity_so_neither_colour_always_moves_first() {
    for index in 0..6 {
        let opening = selfplay::opening_for(index, None, 4, 9, &mut |_| true);
        assert_eq!(opening.moves.len() as u64, 4 + index % 2, "game {index}");
        assert!(!opening.position.legal_moves().is_empty());
    }
    assert!(
        selfplay::opening_for(1, None, 0, 9, &mut |_| true)
            .moves
            .is_empty()
    );
    // The same game index and seed give the same opening; another seed another one.
    let a = selfplay::opening_for(3, None, 4, 9, &mut |_| true).moves;
    assert_eq!(a, selfplay::opening_for(3, None, 4, 9, &mut |_| true).moves);
    let others: Vec<_> = (10..20)
        .map(|seed| selfplay::opening_for(3, None, 4, seed, &mut |_| true).moves)
        .collect();
    assert!(others.iter().any(|m| *m != a));
}

#[test]
fn lopsided_random_lines_are_drawn_again() {
    use engine::search::Searcher;
    // Every accepted line passed the check, and rejected ones were redrawn.
    let mut searcher = Searcher::new(Params::default(), 1);
    let mut checked = 0;
    let mut rejected = 0;
    for index in 0..20 {
        let opening = selfplay::opening_for(index, None, 6, 3, &mut |position| {
            checked += 1;
            let ok = searcher.quiet_leaf(position).0.abs() <= 50;
            rejected += usize::from(!ok);
            ok
        });
        assert_eq!(opening.moves.len() as u64, 6 + index % 2);
        let score = Searcher::new(Params::default(), 1)
            .quiet_leaf(&opening.position)
            .0;
        assert!(score.abs() <= 50, "game {index}: {score}");
    }
    assert!(
        rejected > 0,
        "six random plies never lost material in {checked} lines"
    );
    // When no line passes, the book opening is played without random moves.
    let opening = selfplay::opening_for(0, None, 4, 3, &mut |_| false);
    assert!(opening.moves.is_empty());
}

/// Options for a score-format run of `positions` into `out`, seed 21, from the start position.
fn resumable(out: &Path, positions: u64, resume: bool) -> DatagenOptions {
    DatagenOptions {
        out: out.to_path_buf(),
        positions,
        format: OutputFormat::Score,
        selfplay: config(21, 2),
        book_name: None,
        resume,
    }
}

/// [`generate`] of [`resumable`] to the end.
fn run_to(out: &Path, positions: u64, resume: bool) -> anyhow::Result<DatagenReport> {
    generate(
        &resumable(out, positions, resume),
        None,
        &AtomicBool::new(false),
        |_| {},
    )
}

#[test]
fn a_stopped_run_resumed_ends_as_one_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.txt");
    let full = run_to(&whole, 600, false).unwrap();
    assert!(full.games >= 5, "{full:?}");

    let pieces = dir.path().join("pieces.txt");
    // Stopped (as by Ctrl-C) after two games; the other worker's game under way then is
    // finished and written too, so two or three.
    let stop = AtomicBool::new(false);
    let first = generate(&resumable(&pieces, 600, false), None, &stop, |report| {
        if report.games >= 2 {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    })
    .unwrap();
    assert!((2..=3).contains(&first.games), "{first:?}");
    // A game written whose record did not land (a kill between the two writes): its lines
    // are cut off on resume, and the game played again.
    let recorded = std::fs::read_to_string(&pieces).unwrap();
    std::fs::write(
        &pieces,
        format!("{recorded}8/8/8/8/8/8/k7/K7 w - - 0 1; 0; 0.5\n"),
    )
    .unwrap();
    // Resumed to a target that the next game passes: that game is cut short, and not
    // recorded.
    let target = first.positions + 10;
    let second = run_to(&pieces, target, true).unwrap();
    assert_eq!(second.positions, target);
    assert_eq!(second.resumed_positions, first.positions);
    let record = Progress::load(&progress_path(&pieces)).unwrap();
    assert_eq!(
        (record.written.games, record.written.positions),
        (first.games, first.positions),
        "the cut game was recorded"
    );
    // A target below what is written is refused.
    let lower = run_to(&pieces, first.positions - 1, true)
        .unwrap_err()
        .to_string();
    assert!(lower.contains("below the"), "{lower}");
    // Resumed to the whole run's target: the cut game is played again whole.
    let third = run_to(&pieces, 600, true).unwrap();
    assert_eq!(
        std::fs::read_to_string(&pieces).unwrap(),
        std::fs::read_to_string(&whole).unwrap(),
        "the resumed file differs from the uninterrupted one"
    );
    assert_eq!(
        (
            third.games,
            third.positions,
            third.duplicates,
            third.filtered
        ),
        (full.games, full.positions, full.duplicates, full.filtered)
    );
    assert_eq!(
        (third.white_wins, third.draws, third.black_wins),
        (full.white_wins, full.draws, full.black_wins)
    );
}

#[test]
fn resume_refuses_other_settings_and_a_missing_record() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("data.txt");
    let missing = run_to(&out, 50, true).unwrap_err().to_string();
    assert!(
        missing.contains("cannot resume") && missing.contains("data.txt.progress"),
        "{missing}"
    );
    run_to(&out, 50, false).unwrap();
    let mut other = resumable(&out, 100, true);
    other.selfplay.nodes = 400;
    let refused = generate(&other, None, &AtomicBool::new(false), |_| {})
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("nodes: recorded 300, given 400"),
        "{refused}"
    );
}
