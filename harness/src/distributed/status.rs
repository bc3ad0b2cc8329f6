//! The text of `harness test status` and `harness test list`: the fastchess report block of
//! the committed pairs (from the store's counts and the one [`Summary`](crate::stats::Summary)),
//! the SPRT state, and each worker's throughput.

use std::time::SystemTime;

use crate::runner::MatchConfig;
use crate::store::{TestRecord, TestReport};

fn describe_limits(config: &MatchConfig) -> String {
    let limits: Vec<String> = config.engines.iter().map(|e| e.limits.describe()).collect();
    if limits[0] == limits[1] {
        limits[0].clone()
    } else {
        limits.join(" / ")
    }
}

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

/// The status of one test. The block is fastchess's (Elo, LOS, Games, Ptnml, LLR) over the
/// committed pairs; terminations are in the exported folder's report.
pub fn status_text(report: &TestReport, config: &MatchConfig) -> String {
    let test = &report.test;
    let rule = "-".repeat(50);
    let book = config
        .book
        .as_ref()
        .map_or("no book".to_string(), |b| b.file.display().to_string());
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
    s += &format!(
        "{rule}\nResults of {} vs {} ({}, {}MB, {book}):\n{}\n{rule}\n",
        config.engines[0].name,
        config.engines[1].name,
        describe_limits(config),
        config.hash_mb,
        report.summary.fastchess_text().trim_end()
    );
    if test.sprt.is_some() {
        s += &format!("SPRT: {}\n", report.summary.state().name());
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
