//! Self-play games for training data: our engine against itself, in-process, at a fixed node
//! count, from a book opening plus a few random plies, on the match runner's game loop.
//!
//! Game `i` depends only on the seed and `i` (its opening, its random plies, and the
//! deterministic node-limited search with tables cleared before each game), and finished games
//! are handed on in index order. So a run's output does not depend on the number of threads.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use engine::params::Params;
use engine::search::Searcher;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Position};

use super::filter::{self, Candidate, FilterStats};
use crate::book::{Book, Opening};
use crate::game::{
    DrawRule, EngineLimits, GameRecord, GameRules, InProcessPlayer, Player, ResignRule, play_game,
};

/// How to play the self-play games.
#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// The engine's parameters (both sides).
    pub params: Params,
    /// Nodes per move.
    pub nodes: u64,
    /// Hash table per player, MiB.
    pub hash_mb: usize,
    /// Uniformly random legal moves played after the book line, before the engines take over.
    pub random_plies: usize,
    /// Random lines whose end position scores beyond this (quiescence, centipawns) are drawn
    /// again; `None` keeps every line.
    pub max_opening_score: Option<i32>,
    pub seed: u64,
    /// Games played at once (one thread each).
    pub concurrency: usize,
    pub rules: GameRules,
}

/// Adjudication for data generation: resign once both sides agree one is 10 pawns down for
/// 4 moves, draw after move 40 when both say within 0.10 for 8 moves, and stop at move 400.
/// These keep games short without changing many results.
pub fn default_rules() -> GameRules {
    GameRules {
        draw: Some(DrawRule {
            movenumber: 40,
            movecount: 8,
            score: 10,
        }),
        resign: Some(ResignRule {
            movecount: 4,
            score: 1000,
            twosided: true,
        }),
        max_moves: Some(400),
    }
}

/// A finished game and the positions kept from it (before duplicate removal).
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// 0-based index of the game in the run.
    pub index: u64,
    pub record: GameRecord,
    pub positions: Vec<Candidate>,
    pub stats: FilterStats,
}

/// Whether the consumer wants more games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Stop,
}

/// A seed for game `index` of a run seeded with `seed` (SplitMix64 of the pair, so that
/// neighbouring games get unrelated streams).
fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The opening of game `index`: the book's opening for that index (or the start position),
/// followed by random legal moves: `random_plies` in even-numbered games, one more in odd ones
/// (when `random_plies > 0`). The side to move after the random moves is the first to punish
/// the other side's last random move, so with a fixed count one colour would always get that
/// chance and win far more often (measured: 4 plies from 8moves_v3 at 1000 nodes gave 266
/// White wins to 145 Black wins). The random moves count as book moves, so the engines take
/// over after them and the filter skips them. A random line that ends the game, or whose end
/// position `balanced` rejects, is redrawn; after 100 rejected lines the book opening is played
/// without random moves.
pub fn opening_for(
    index: u64,
    book: Option<&Book>,
    random_plies: usize,
    seed: u64,
    balanced: &mut dyn FnMut(&Chess) -> bool,
) -> Opening {
    let base = match book {
        Some(book) => book.for_pair(index as usize).1.clone(),
        None => Opening::startpos(),
    };
    let random_plies = if random_plies > 0 {
        random_plies + (index % 2) as usize
    } else {
        0
    };
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed(seed, index));
    for _attempt in 0..100 {
        let mut position = base.position.clone();
        let mut moves = base.moves.clone();
        for _ in 0..random_plies {
            let legal = position.legal_moves();
            let Some(&m) = legal.choose(&mut rng) else {
                break;
            };
            position.play_unchecked(m);
            moves.push(m);
        }
        if !position.legal_moves().is_empty() && balanced(&position) {
            return Opening {
                start: base.start.clone(),
                moves,
                position,
            };
        }
    }
    base
}

/// Plays games `first`, `first + 1`, ... on `config.concurrency` threads and hands each
/// finished game, in index order, to `on_game` on the calling thread, until `on_game` says stop
/// or `stop` is set. Games still running then are abandoned (not handed on); games already
/// finished and next in order are still handed on, so a stop may come one game or more late.
pub fn run(
    config: &SelfPlayConfig,
    book: Option<&Book>,
    first: u64,
    stop: &AtomicBool,
    mut on_game: impl FnMut(PlayedGame) -> anyhow::Result<Flow>,
) -> anyhow::Result<()> {
    let threads = config.concurrency.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("datagen-{i}"))
        .build()?;
    let next_index = AtomicU64::new(first);
    let (sender, receiver) = mpsc::channel::<PlayedGame>();
    let mut outcome = Ok(());
    pool.in_place_scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let next_index = &next_index;
            scope.spawn(move |_| play_games(config, book, stop, next_index, &sender));
        }
        drop(sender);
        // Games finish out of order; hand them on in index order.
        let mut pending = BTreeMap::new();
        let mut expected = first;
        for game in receiver {
            if stop.load(Ordering::Relaxed) {
                continue;
            }
            pending.insert(game.index, game);
            while let Some(game) = pending.remove(&expected) {
                expected += 1;
                let flow = on_game(game);
                if !matches!(flow, Ok(Flow::Continue)) {
                    stop.store(true, Ordering::Relaxed);
                    if let Err(e) = flow {
                        outcome = Err(e);
                    }
                    break;
                }
            }
        }
    });
    outcome
}

/// One thread's loop: take the next game index, play it, filter it, send it.
fn play_games(
    config: &SelfPlayConfig,
    book: Option<&Book>,
    stop: &AtomicBool,
    next_index: &AtomicU64,
    sender: &mpsc::Sender<PlayedGame>,
) {
    let mut white = InProcessPlayer::new("white", config.params.clone(), config.hash_mb);
    let mut black = InProcessPlayer::new("black", config.params.clone(), config.hash_mb);
    // The quiescence search keeps no table, so a tiny hash is enough.
    let mut resolver = Searcher::new(config.params.clone(), 1);
    let limits = EngineLimits {
        nodes: Some(config.nodes),
        ..Default::default()
    };
    while !stop.load(Ordering::Relaxed) {
        let index = next_index.fetch_add(1, Ordering::Relaxed);
        // A random move that hangs a piece decides the game before it starts, and labels its
        // positions with the blunder instead of the evaluation.
        let opening = opening_for(
            index,
            book,
            config.random_plies,
            config.seed,
            &mut |position| match config.max_opening_score {
                Some(limit) => resolver.quiet_leaf(position).0.abs() <= limit,
                None => true,
            },
        );
        let players: [&mut dyn Player; 2] = [&mut white, &mut black];
        let Ok(record) = play_game(players, [limits, limits], &opening, &config.rules, stop) else {
            return;
        };
        resolver.new_game();
        let (positions, stats) = filter::record_positions(&record, &mut resolver);
        let game = PlayedGame {
            index,
            record,
            positions,
            stats,
        };
        if sender.send(game).is_err() {
            return;
        }
    }
}
