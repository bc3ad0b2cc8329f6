//! The games of pair k depend only on (seed, k, the engines): playing pairs 0..N in one run
//! and the same pairs split over three runs, in any order and with other worker counts,
//! gives identical rows, scoreboard and statistics.

use std::sync::atomic::AtomicBool;

use harness::book::{Book, BookSpec, default_book_path};
use harness::output::GameRow;
use harness::runner::{Control, EngineConfig, Event, MatchConfig, play_pairs};
use harness::scoreboard::Scoreboard;

const PAIRS: u64 = 12;

fn config(concurrency: usize) -> MatchConfig {
    let mut dev = EngineConfig::builtin("dev", &[("qsearch_depth", 2), ("delta_margin", 400)])
        .expect("registry parameters");
    let mut base = EngineConfig::builtin("base", &[]).expect("defaults");
    dev.limits.nodes = Some(300);
    base.limits.nodes = Some(300);
    let mut config = MatchConfig::new(dev, base, 2 * PAIRS);
    config.concurrency = concurrency;
    config.seed = 11;
    config
}

fn book(config: &MatchConfig) -> Book {
    let path = default_book_path().expect("the shipped book");
    let mut spec = BookSpec::for_file(&path).expect("book spec");
    spec.order = harness::book::BookOrder::Random;
    Book::load(&spec, config.seed).expect("book")
}

/// Plays `pairs` and returns the rows (times zeroed) in the order they finished.
fn play(config: &MatchConfig, book: &Book, pairs: &[u64]) -> Vec<GameRow> {
    let mut board = Scoreboard::new("dev", "base", Some(PAIRS));
    let stop = AtomicBool::new(false);
    let mut rows = Vec::new();
    let mut collect = |event: &Event<'_>, _: &Scoreboard| {
        if let Event::GameFinished { row, .. } = event {
            let mut row = (*row).clone();
            row.white_time_ms = 0;
            row.black_time_ms = 0;
            rows.push(row);
        }
        Ok(Control::Continue)
    };
    let outcome = play_pairs(config, Some(book), pairs, &mut board, &stop, &mut collect)
        .expect("the pairs are played");
    assert_eq!(outcome.games_played, 2 * pairs.len() as u64);
    rows
}

fn board_of(rows: &[GameRow]) -> Scoreboard {
    let mut board = Scoreboard::new("dev", "base", Some(PAIRS));
    for row in rows {
        board.add(row, None);
    }
    board
}

#[test]
fn split_runs_play_the_games_of_one_run() {
    let whole_config = config(2);
    let book = book(&whole_config);
    let all: Vec<u64> = (0..PAIRS).collect();
    let mut whole = play(&whole_config, &book, &all);

    // Three runs, last pairs first, one with a single worker.
    let mut split = play(&config(1), &book, &[8, 9, 10, 11]);
    split.extend(play(&config(2), &book, &[0, 1, 2, 3]));
    split.extend(play(&config(2), &book, &[7, 4, 6, 5]));

    whole.sort_by_key(|r| r.game);
    split.sort_by_key(|r| r.game);
    assert_eq!(whole.len(), 2 * PAIRS as usize);
    assert_eq!(whole, split, "the split runs played other games");

    let (a, b) = (board_of(&whole), board_of(&split));
    assert_eq!(a.pentanomial(), b.pentanomial());
    assert_eq!(a.trinomial(), b.trinomial());
    assert_eq!(a.terminations(), b.terminations());
    assert_eq!(a.games(), 2 * PAIRS);
    let (sa, sb) = (a.summary(None), b.summary(None));
    assert_eq!((sa.elo, sa.nelo, sa.los), (sb.elo, sb.nelo, sb.los));
}

#[test]
fn pairs_already_counted_are_not_played_again() {
    let config = config(2);
    let book = book(&config);
    let first = play(&config, &book, &[0, 1]);
    let mut board = board_of(&first[..3]);
    let stop = AtomicBool::new(false);
    let mut played = Vec::new();
    let mut collect = |event: &Event<'_>, _: &Scoreboard| {
        if let Event::GameFinished { row, .. } = event {
            played.push(row.game);
        }
        Ok(Control::Continue)
    };
    play_pairs(
        &config,
        Some(&book),
        vec![0, 1],
        &mut board,
        &stop,
        &mut collect,
    )
    .unwrap();
    let missing = (0..4u64).find(|g| !first[..3].iter().any(|r| r.game == *g));
    assert_eq!(played, missing.into_iter().collect::<Vec<_>>());
    assert_eq!(board.games(), 4);
}
