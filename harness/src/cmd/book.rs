//! `harness book`: makes an opening book of balanced positions by engine-guided random play.
//!
//! Each candidate opening plays `plies` moves from the start; at every ply each legal move is
//! searched briefly and one of those within `spread` centipawns of the best is picked at
//! random. The final position is searched longer and kept when its score is within
//! `max_eval` of zero. Duplicates are dropped. Candidate `i` uses its own random stream
//! derived from the seed, so the book is the same for any number of threads.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use anyhow::Context;
use engine::params::Params;
use engine::search::{Limits, Score, Searcher, position_key};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use shakmaty::fen::Epd;
use shakmaty::{Chess, EnPassantMode, Position};

use crate::game::adjudication::score_cp;
use crate::usage_bail;

#[derive(Debug, clap::Args)]
pub struct BookArgs {
    /// Where to write the EPD book.
    #[arg(long, default_value = "openings/balanced-8ply.epd")]
    pub out: PathBuf,
    /// Number of positions to keep.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// Plies played from the initial position.
    #[arg(long, default_value_t = 8)]
    pub plies: usize,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Nodes per candidate move when choosing each ply.
    #[arg(long, default_value_t = 100)]
    pub move_nodes: u64,
    /// Moves scoring within this many centipawns of the best are candidates.
    #[arg(long, default_value_t = 60)]
    pub spread: i32,
    /// Nodes of the final check of each position.
    #[arg(long, default_value_t = 2000)]
    pub nodes: u64,
    /// Keep positions whose score is within this many centipawns of zero.
    #[arg(long, default_value_t = 50)]
    pub max_eval: i32,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Plays one candidate opening; `None` when it is unbalanced or the game ended.
fn candidate(args: &BookArgs, searcher: &mut Searcher, index: u64) -> Option<(Chess, i32)> {
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index);
    let stop = AtomicBool::new(false);
    let mut pos = Chess::default();
    let mut keys = Vec::new();
    for _ in 0..args.plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let mut scored = Vec::with_capacity(moves.len());
        for &m in &moves {
            let mut child = pos.clone();
            child.play_unchecked(m);
            let score = if child.is_checkmate() {
                i32::MAX / 2
            } else if child.legal_moves().is_empty() {
                0
            } else {
                searcher.new_game();
                let limits = Limits {
                    nodes: Some(args.move_nodes),
                    ..Default::default()
                };
                let mut child_keys = keys.clone();
                child_keys.push(position_key(&pos));
                let r = searcher.search(&child, &child_keys, &limits, &stop, &mut |_| {});
                -score_cp(r.score)
            };
            scored.push((m, score));
        }
        let best = scored.iter().map(|s| s.1).max()?;
        let near: Vec<_> = scored
            .iter()
            .filter(|s| s.1 >= best - args.spread)
            .collect();
        let (m, _) = near[rng.random_range(0..near.len())];
        keys.push(position_key(&pos));
        pos.play_unchecked(*m);
    }
    if pos.is_game_over() {
        return None;
    }
    searcher.new_game();
    let limits = Limits {
        nodes: Some(args.nodes),
        ..Default::default()
    };
    let result = searcher.search(&pos, &keys, &limits, &stop, &mut |_| {});
    let score = match result.score {
        Score::Cp(cp) => cp,
        Score::Mate(_) => return None,
    };
    (score.abs() <= args.max_eval).then_some((pos, score))
}

pub fn run(args: BookArgs) -> anyhow::Result<ExitCode> {
    if args.count == 0 || args.plies == 0 {
        usage_bail!("--count and --plies must be at least 1");
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut kept: Vec<(Chess, i32)> = Vec::with_capacity(args.count);
    let mut seen = HashSet::new();
    let mut next = 0u64;
    let mut tried = 0u64;
    let batch = 256u64;
    while kept.len() < args.count {
        if tried > 200 * args.count as u64 + 10_000 {
            anyhow::bail!(
                "found only {} balanced positions in {tried} tries; raise --max-eval or --spread",
                kept.len()
            );
        }
        let results: Vec<Option<(Chess, i32)>> = pool.install(|| {
            (next..next + batch)
                .into_par_iter()
                .map_init(
                    || Searcher::new(Params::default(), 1),
                    |searcher, i| candidate(&args, searcher, i),
                )
                .collect()
        });
        next += batch;
        tried += batch;
        for (pos, score) in results.into_iter().flatten() {
            if kept.len() < args.count && seen.insert(position_key(&pos)) {
                kept.push((pos, score));
            }
        }
        eprint!(
            "\r{} / {} positions ({tried} tried)",
            kept.len(),
            args.count
        );
    }
    eprintln!();
    if let Some(parent) = args.out.parent() {
        std::fs::create_dir_all(parent).ok();
    }
    let file =
        File::create(&args.out).with_context(|| format!("cannot write {}", args.out.display()))?;
    let mut out = BufWriter::new(file);
    for (pos, score) in &kept {
        writeln!(
            out,
            "{} ce {score};",
            Epd::from_position(pos, EnPassantMode::Legal)
        )?;
    }
    out.flush()?;
    println!(
        "wrote {} positions to {} ({tried} candidates tried)",
        kept.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
