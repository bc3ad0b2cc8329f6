//! A synthetic results folder in the format `harness match` writes, for the report tests.

use std::fmt::Write as _;
use std::path::Path;

use rand::{RngExt as _, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub const HEADER: &str = "game,pair,opening_index,opening_fen,white,black,result,termination,plies,final_fen,white_nodes,black_nodes,white_time_ms,black_time_ms";

const OPENINGS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2",
    "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "rnbqkbnr/pppp1ppp/4p3/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq - 0 2",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
];

/// Writes games.csv (`pairs` complete pairs, `base` vs `dev`), config.toml and, when
/// `with_summary`, summary.json computed with `harness::stats`. Returns the first engine's
/// trinomial counts (losses, draws, wins).
pub fn write_synthetic_run(dir: &Path, pairs: u64, seed: u64, with_summary: bool) -> [u64; 3] {
    std::fs::create_dir_all(dir).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut csv = format!("{HEADER}\n");
    let mut counts = [0u64; 3];
    let mut tri = harness::stats::Trinomial::default();
    let mut ptnml = harness::stats::Pentanomial::default();
    let mut terminations = std::collections::BTreeMap::<String, u64>::new();
    let mut game = 0u64;
    for pair in 0..pairs {
        // A book of 200 openings, cycled as a long run does.
        let opening = pair % 200;
        let mut pair_points = 0u8;
        for first_is_white in [true, false] {
            // 'base' scores a little over 50%.
            let roll: f64 = rng.random();
            let base_points = if roll < 0.30 {
                2
            } else if roll < 0.74 {
                1
            } else {
                0
            };
            pair_points += base_points;
            counts[base_points as usize] += 1;
            match base_points {
                2 => tri.wins += 1,
                1 => tri.draws += 1,
                _ => tri.losses += 1,
            }
            let white_points = if first_is_white {
                base_points
            } else {
                2 - base_points
            };
            let result = ["0-1", "1/2-1/2", "1-0"][white_points as usize];
            let termination = if base_points == 1 {
                ["threefold", "fifty_moves", "adjudication_draw", "stalemate"]
                    [rng.random_range(0..4)]
            } else {
                [
                    "checkmate",
                    "adjudication_resign",
                    "checkmate",
                    "time_forfeit",
                ][rng.random_range(0..4)]
            };
            *terminations.entry(termination.to_string()).or_default() += 1;
            let plies: u32 = rng.random_range(30..220);
            let (white, black) = if first_is_white {
                ("base", "dev")
            } else {
                ("dev", "base")
            };
            let white_moves = u64::from(plies.div_ceil(2));
            let black_moves = u64::from(plies / 2);
            let nodes = |moves: u64, rng: &mut ChaCha8Rng| moves * rng.random_range(380..460);
            let (wn, bn) = (nodes(white_moves, &mut rng), nodes(black_moves, &mut rng));
            let (wt, bt) = (wn / 900, bn / 1000);
            writeln!(
                csv,
                "{game},{pair},{opening},{},{white},{black},{result},{termination},{plies},8/8/8/8/8/8/8/K1k5 w - - 0 1,{wn},{bn},{wt},{bt}",
                OPENINGS[opening as usize % OPENINGS.len()]
            )
            .unwrap();
            game += 1;
        }
        ptnml.add_pair(pair_points);
    }
    std::fs::write(dir.join("games.csv"), csv).unwrap();
    let mut base = harness::runner::EngineConfig::builtin("base", &[]).unwrap();
    let mut dev = harness::runner::EngineConfig::builtin(
        "dev",
        &[("qsearch_depth", 2), ("delta_margin", 400)],
    )
    .unwrap();
    base.limits.nodes = Some(400);
    dev.limits.nodes = Some(400);
    let mut config = harness::runner::MatchConfig::new(base, dev, 2 * pairs);
    config.seed = 7;
    config.concurrency = 2;
    config.book = Some(harness::book::BookSpec {
        file: "openings/balanced.epd".into(),
        format: harness::book::BookFormat::Epd,
        plies: None,
        order: harness::book::BookOrder::Sequential,
        start: 1,
        on_bad_entry: harness::book::OnBadEntry::Fail,
    });
    config.sprt = Some(harness::runner::SprtSettings {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
        model: "normalized".into(),
    });
    config.save(dir).unwrap();
    if with_summary {
        let (board, _) = harness::runner::count_folder(&config, dir).unwrap();
        assert_eq!(*board.pentanomial(), ptnml);
        assert_eq!(*board.trinomial(), tri);
        assert_eq!(board.terminations().len(), terminations.len());
        let sprt = config.sprt.as_ref().unwrap().config().unwrap();
        let end = harness::output::RunEnd {
            games_requested: config.games,
            wall_seconds: 12.5,
            ..Default::default()
        };
        harness::output::SummaryFile::new(&board, Some(&sprt), &config.engines, end)
            .save(dir)
            .unwrap();
    }
    counts
}
