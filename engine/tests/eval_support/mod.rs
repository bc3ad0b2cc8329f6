//! Positions for the evaluation tests: random legal playouts and the shared test book.

#![allow(dead_code)] // each test file uses its own subset

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use engine::params::{EVAL_PARAMS, Params, specs};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, FromSetup, Position};

/// xorshift64*: a tiny deterministic generator, so the tests see the same positions every run.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Uniform-ish in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Every position of `games` random games from the start position (up to `max_plies` each).
/// Captures are preferred half of the time so that the games reach endgames.
pub fn random_playouts(seed: u64, games: usize, max_plies: usize) -> Vec<Chess> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Chess::default();
        for _ in 0..max_plies {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
            let m = if !captures.is_empty() && rng.below(2) == 0 {
                *captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.play_unchecked(m);
            if pos.is_insufficient_material() {
                out.push(pos.clone());
                break;
            }
        }
    }
    out
}

/// The first `limit` positions of `../shared/data/lichess-test.book.xz`, or `None` (with the
/// reason printed) when the shared data or `xz` is missing.
pub fn shared_book_positions(limit: usize) -> Option<Vec<Chess>> {
    shared_book(limit).map(|rows| rows.into_iter().map(|(pos, _)| pos).collect())
}

/// Like [`shared_book_positions`], with each position's game result (White's view: 1, 0.5, 0).
pub fn shared_book(limit: usize) -> Option<Vec<(Chess, f64)>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/lichess-test.book.xz");
    if !path.exists() {
        engine::testing::skip(format!("../shared not found ({})", path.display()));
        return None;
    }
    let mut child = match Command::new("xz")
        .arg("-dc")
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => {
            engine::testing::skip(format!("cannot run xz: {e}"));
            return None;
        }
    };
    let stdout = child.stdout.take().expect("piped stdout");
    let mut out = Vec::with_capacity(limit.min(100_000));
    for (n, line) in BufReader::new(stdout).lines().enumerate() {
        if out.len() == limit {
            break;
        }
        let line = line.expect("read decompressed book");
        let (fen, result) = line.split_once('[').unwrap_or((&line, ""));
        let fen = fen.trim();
        let result: f64 = result
            .trim_end_matches(']')
            .trim()
            .parse()
            .unwrap_or_else(|e| panic!("{}:{}: bad result: {e}", path.display(), n + 1));
        let parsed: Fen = fen
            .parse()
            .unwrap_or_else(|e| panic!("{}:{}: bad FEN {fen:?}: {e}", path.display(), n + 1));
        let pos: Chess = parsed
            .into_position(CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("{}:{}: illegal position: {e}", path.display(), n + 1));
        out.push((pos, result));
    }
    let _ = child.kill();
    let _ = child.wait();
    Some(out)
}

/// Parameters with every evaluation weight random in `-range..=range` (search knobs default),
/// so that no two features share a weight by accident.
pub fn random_eval_params(seed: u64, range: i32) -> Params {
    let mut rng = Rng::new(seed);
    let mut p = Params::default();
    for (id, spec) in specs().iter().enumerate().take(EVAL_PARAMS) {
        let v = rng.below((2 * range + 1) as usize) as i32 - range;
        p.set_unchecked(id, v.clamp(spec.min, spec.max));
    }
    p
}

/// The position with the board flipped vertically and colours, side to move, castling rights
/// and en-passant square swapped accordingly.
pub fn mirrored(pos: &Chess) -> Chess {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    setup.mirror();
    Chess::from_setup(setup, CastlingMode::Standard).expect("mirror of a legal position")
}

/// A position from FEN (test-internal, trusted input).
pub fn from_fen(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("test FEN")
        .into_position(CastlingMode::Standard)
        .expect("legal test position")
}

/// Endings where the endgame scale classes apply (and a few where they do not), with both
/// sides to move.
pub fn scaled_endings() -> Vec<Chess> {
    [
        "8/5k2/5b2/1p3p2/5P2/1P1B4/5K2/8 w - - 0 1",
        "8/5k2/5b2/1pp2p2/5P2/1P1B4/5K2/8 w - - 0 1",
        "8/8/3k4/8/3b4/8/3RK3/8 w - - 0 1",
        "8/8/3k4/3n4/8/8/2BRK3/8 w - - 0 1",
        "8/8/3k4/3p4/8/8/3NK3/8 w - - 0 1",
        "8/8/3k4/2pp4/8/8/3BK3/8 w - - 0 1",
        "k7/8/8/P7/P7/2B5/8/6K1 w - - 0 1",
        "8/8/8/8/6k1/8/7p/7K w - - 0 1",
        "8/8/4k3/P7/P7/2B5/8/6K1 w - - 0 1",
        "8/8/3k4/3r4/8/8/3QK3/8 w - - 0 1",
    ]
    .iter()
    .flat_map(|fen| [from_fen(fen), from_fen(&fen.replace(" w ", " b "))])
    .collect()
}

/// `params` with every endgame scale factor set away from 100 % (not the defaults).
pub fn with_scales(params: Params) -> Params {
    set_scales(params, [40, 5, 30, 15])
}

/// `params` with endgame scaling off (every factor 100 %).
pub fn without_scales(params: Params) -> Params {
    set_scales(params, [100; 4])
}

fn set_scales(mut params: Params, percent: [i32; 4]) -> Params {
    let names = [
        "scale_opposite_bishops",
        "scale_lone_minor",
        "scale_pawnless_small_lead",
        "scale_rook_pawn_corner",
    ];
    for (name, value) in names.iter().zip(percent) {
        params.set_assignment(&format!("{name}={value}")).unwrap();
    }
    params
}
