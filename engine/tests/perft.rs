//! The search's move path (legal generation, copy-make, incremental Zobrist keys checked
//! against full recomputation at every node) against known perft counts.

use std::path::Path;

use engine::search::perft;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, PositionError};

fn pos(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        // The suite has positions with checks no legal game reaches; perft is still defined.
        .or_else(PositionError::ignore_impossible_check)
        .unwrap()
}

#[test]
fn known_positions() {
    for (fen, depth, nodes) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            4,
            197_281,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
            97_862,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43_238),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            3,
            9_467,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            3,
            62_379,
        ),
    ] {
        assert_eq!(perft(&pos(fen), depth), nodes, "{fen}");
    }
}

/// `../shared/data/perftsuite.epd` (`FEN ;D1 n ;D2 n ...`) to depth 2 (3 for a few).
#[test]
fn shared_perft_suite_shallow() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/perftsuite.epd");
    let Ok(text) = std::fs::read_to_string(&path) else {
        engine::testing::skip(format!("{} not found", path.display()));
        return;
    };
    let mut checked = 0;
    for (index, line) in text.lines().enumerate() {
        let mut fields = line.split(';');
        let Some(fen) = fields.next().map(str::trim).filter(|f| !f.is_empty()) else {
            continue;
        };
        let position = pos(fen);
        for field in fields {
            let mut parts = field.split_whitespace();
            let (Some(d), Some(n)) = (parts.next(), parts.next()) else {
                continue;
            };
            let depth: u32 = d.trim_start_matches('D').parse().unwrap();
            let limit = if index % 16 == 0 { 3 } else { 2 };
            if depth <= limit {
                let expected: u64 = n.parse().unwrap();
                assert_eq!(
                    perft(&position, depth),
                    expected,
                    "line {}: {fen} depth {depth}",
                    index + 1
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} counts checked");
}
