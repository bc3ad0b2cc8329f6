//! The text of `harness test status` and `harness test list`: the fastchess report block of
//! the committed games, built as a local run builds it (their rows through the one
//! [`Scoreboard`] and [`report_block`]), the SPRT state, and each worker's throughput.

use std::time::SystemTime;

use anyhow::Context;

use super::stored_game::StoredGame;
use crate::reporters::report_block;
use crate::runner::MatchConfig;
use crate::scoreboard::Scoreboard;
use crate::store::{Store, TestRecord, TestReport};

fn ago(at: SystemTime) -> String {
    let secs = SystemTime::now()
        .duration_since(at)
        .unwrap_or_default()
        .as_secs();
    match secs {
        s if s < 120 => format!("{s} s ago"),
        s if s < 7200 => format!("{} min ago", s / 60),
        s => format!("{} h ago", s / 3600),
    }
}

/// The scoreboard of test `test`'s committed games (their games.csv rows only, not their
/// moves), counted as a local run counts them.
pub fn test_scoreboard(
    store: &mut Store,
    test: &TestRecord,
    config: &MatchConfig,
) -> anyhow::Result<Scoreboard> {
    let mut board = Scoreboard::new(
        &config.engines[0].name,
        &config.engines[1].name,
        Some(test.pair_count),
    );
    for pair in store.pairs(test.id)? {
        let pair = pair?;
        let games = StoredGame::pair_from_json(pair.pair_index, &pair.games)
            .with_context(|| format!("test {}", test.id))?;
        for game in &games {
            board.add(&game.row, None);
        }
    }
    Ok(board)
}

/// The status of one test: the block a local run of the same games prints (with its
/// terminations line), from `board` (see [`test_scoreboard`]), then the SPRT state and the
/// workers.
pub fn status_text(report: &TestReport, config: &MatchConfig, board: &Scoreboard) -> String {
    let test = &report.test;
    let mut s = format!(
        "Test {}: {} vs {}, {} ({} of {} pairs committed, {} leased now)\n",
        test.id,
        config.engines[0].name,
        config.engines[1].name,
        test.status,
        report.pairs_done,
        test.pair_count,
        report.pairs_leased
    );
    let benches: Vec<String> = config
        .engines
        .iter()
        .zip(&test.expected_bench)
        .map(|(e, b)| match b {
            Some(n) => format!("{} {n} nodes", e.name),
            None => format!("{} unchecked", e.name),
        })
        .collect();
    s += &format!("Bench: {}\n", benches.join(", "));
    s += &report_block(config, board, test.sprt.as_ref());
    s += "\n";
    if board.pentanomial() != &test.pentanomial {
        s += &format!(
            "note: the stored games count Ptnml {:?}, the store's totals {:?}\n",
            board.pentanomial().counts,
            test.pentanomial.counts
        );
    }
    for skipped in board.skipped() {
        s += &format!("note: {skipped}\n");
    }
    if test.sprt.is_some() {
        s += &format!(
            "SPRT: {}\n",
            board.summary(test.sprt.as_ref()).state().name()
        );
    }
    if report.workers.is_empty() {
        s += "Workers: none has committed yet\n";
    } else {
        s += "Workers:\n";
        for w in &report.workers {
            let rate = w
                .pairs_per_minute
                .map_or("n/a".to_string(), |r| format!("{:.1} games/min", 2.0 * r));
            s += &format!(
                "  {:<30} {:>8} pairs  {rate:>18}  last commit {}\n",
                w.worker,
                w.pairs,
                ago(w.last_commit)
            );
        }
    }
    s
}

/// One line of `harness test list`.
pub fn list_line(test: &TestRecord) -> String {
    let engines = match super::spec::match_config_of(test) {
        Ok(c) => format!("{} vs {}", c.engines[0].name, c.engines[1].name),
        Err(_) => "(unreadable spec)".to_string(),
    };
    let llr = match (test.sprt, test.llr) {
        (Some(_), Some(llr)) => format!("LLR {llr:.2}"),
        (Some(_), None) => "LLR n/a".to_string(),
        (None, _) => "no SPRT".to_string(),
    };
    format!(
        "{:>6}  {:<9} {:<40} {:>9}/{:<9} {llr}",
        test.id,
        test.status.name(),
        engines,
        test.pentanomial.pairs(),
        test.pair_count
    )
}
