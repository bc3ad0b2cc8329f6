//! The report block fastchess prints (`Results of A vs B (...)`, Elo, LOS, Games, Ptnml),
//! with our terminations and faults lines, every N finished games and at the end.

use std::io::Write;

use crate::runner::{Control, Event, Listener, MatchConfig};
use crate::scoreboard::Scoreboard;
use crate::stats::SprtConfig;

/// The block for `board`, as fastchess prints it, framed by rules.
pub fn report_block(config: &MatchConfig, board: &Scoreboard, sprt: Option<&SprtConfig>) -> String {
    let limits: Vec<String> = config.engines.iter().map(|e| e.limits.describe()).collect();
    let limits = if limits[0] == limits[1] {
        limits[0].clone()
    } else {
        limits.join(" / ")
    };
    let book = config
        .book
        .as_ref()
        .map_or("no book".to_string(), |b| b.file.display().to_string());
    let rule = "-".repeat(50);
    let mut lines = board.terminations_line();
    if config.engines.iter().any(|e| e.external.is_some()) || !board.faults().is_empty() {
        lines = format!("{lines}\n{}", board.faults_line());
    }
    if board.half_pair_games() > 0 {
        lines = format!(
            "{lines}\n({} finished games wait for the other game of their pair)",
            board.half_pair_games()
        );
    }
    format!(
        "{rule}\nResults of {} vs {} ({limits}, {}MB, {book}):\n{}\n{lines}\n{rule}",
        board.first(),
        board.second(),
        config.hash_mb,
        board.summary(sprt).fastchess_text().trim_end(),
    )
}

/// `Bench: main 2285564 nodes, dev 2290011 nodes` for engines built from git revisions, so
/// the user sees whether a change is functional.
pub fn bench_line(config: &MatchConfig) -> Option<String> {
    let benches: Vec<(&str, Option<u64>)> = config
        .engines
        .iter()
        .filter_map(|e| {
            Some((
                e.name.as_str(),
                e.external.as_ref()?.git.as_ref()?.bench_nodes,
            ))
        })
        .collect();
    if benches.is_empty() {
        return None;
    }
    let parts: Vec<String> = benches
        .iter()
        .map(|(name, nodes)| match nodes {
            Some(n) => format!("{name} {n} nodes"),
            None => format!("{name} unknown"),
        })
        .collect();
    let same = match benches.as_slice() {
        [(_, Some(a)), (_, Some(b))] if a == b => " (equal: the change is not functional)",
        [(_, Some(_)), (_, Some(_))] => " (different: the change is functional)",
        _ => "",
    };
    Some(format!("Bench: {}{same}", parts.join(", ")))
}

/// Prints the block every `every` finished games of this run (0: never) and at the end.
pub struct FastchessReport<'c, W: Write> {
    config: &'c MatchConfig,
    sprt: Option<SprtConfig>,
    every: u64,
    finished: u64,
    out: W,
}

impl<'c, W: Write> FastchessReport<'c, W> {
    pub fn new(config: &'c MatchConfig, sprt: Option<SprtConfig>, every: u64, out: W) -> Self {
        FastchessReport {
            config,
            sprt,
            every,
            finished: 0,
            out,
        }
    }
}

impl<W: Write> Listener for FastchessReport<'_, W> {
    fn on_event(&mut self, event: &Event<'_>, board: &Scoreboard) -> anyhow::Result<Control> {
        let print = match event {
            Event::GameFinished { .. } => {
                self.finished += 1;
                self.every > 0 && self.finished.is_multiple_of(self.every)
            }
            Event::MatchFinished { .. } => true,
            _ => false,
        };
        if print {
            writeln!(
                self.out,
                "{}",
                report_block(self.config, board, self.sprt.as_ref())
            )?;
            self.out.flush()?;
        }
        Ok(Control::Continue)
    }
}
