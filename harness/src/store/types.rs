//! The records the store takes and gives back.

use std::sync::Arc;
use std::time::SystemTime;

use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use serde::Serialize;
use serde_json::Value;

use crate::stats::{Pentanomial, SprtConfig, Summary, Trinomial};

use super::error::StoreError;

/// Most pairs one test may have (a bound on mistakes: 20 million games).
pub const MAX_PAIRS: u64 = 10_000_000;

/// A test to create. The store keeps `spec` as given (JSONB) and never reads inside it.
#[derive(Debug, Clone, PartialEq)]
pub struct NewTest {
    /// The match specification, opaque to the store.
    pub spec: Value,
    /// Game pairs to play (pair indices `0..pair_count`).
    pub pair_count: u64,
    pub seed: u64,
    /// The SPRT decided centrally after each commit; `None` plays all pairs.
    pub sprt: Option<SprtConfig>,
    /// Expected `bench` node count per engine, in the spec's engine order.
    pub expected_bench: Vec<Option<u64>>,
    /// Lowercase hexadecimal SHA-256 of the opening book, if there is one.
    pub book_sha256: Option<String>,
    /// The book file's bytes (as given: compressed or not), kept with the test for workers
    /// that do not have the file; their SHA-256 must be `book_sha256`.
    pub book: Option<Vec<u8>>,
}

/// Largest book kept in the store.
pub const MAX_BOOK_BYTES: usize = 256 << 20;

/// Lowercase hexadecimal SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Where a test stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestStatus {
    /// Pairs are being handed out.
    Active,
    /// The SPRT accepted H1.
    Passed,
    /// The SPRT accepted H0.
    Failed,
    /// Stopped by a user.
    Stopped,
    /// Every pair played without an SPRT decision (or with no SPRT).
    Finished,
}

impl TestStatus {
    /// The word stored and shown.
    pub fn name(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Passed => "passed",
            Self::Failed => "failed",
            Self::Stopped => "stopped",
            Self::Finished => "finished",
        }
    }

    pub(crate) fn parse(s: &str) -> Result<Self, StoreError> {
        Ok(match s {
            "active" => Self::Active,
            "passed" => Self::Passed,
            "failed" => Self::Failed,
            "stopped" => Self::Stopped,
            "finished" => Self::Finished,
            other => {
                return Err(StoreError::Invalid(format!(
                    "unknown test status '{other}' in the store"
                )));
            }
        })
    }
}

impl std::fmt::Display for TestStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A stored test with its running totals.
#[derive(Debug, Clone, PartialEq)]
pub struct TestRecord {
    pub id: i64,
    pub status: TestStatus,
    pub spec: Value,
    pub pair_count: u64,
    pub seed: u64,
    pub sprt: Option<SprtConfig>,
    pub expected_bench: Vec<Option<u64>>,
    pub book_sha256: Option<String>,
    pub created_at: SystemTime,
    pub finished_at: Option<SystemTime>,
    /// Committed pairs by the first engine's half-points.
    pub pentanomial: Pentanomial,
    /// Committed games from the first engine's view.
    pub trinomial: Trinomial,
    /// The LLR of the committed pairs (`None` without SPRT or when it cannot be computed).
    pub llr: Option<f64>,
}

impl TestRecord {
    /// Sets `llr` from the counts and the SPRT.
    pub(crate) fn with_llr(mut self) -> Self {
        self.llr = self.sprt.and_then(|cfg| {
            cfg.llr(&self.trinomial, Some(&self.pentanomial))
                .ok()
                .filter(|l| l.is_finite())
        });
        self
    }
}

/// The two games of one pair from the first engine's view: wins + draws + losses = 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairOutcome {
    pub wins: u8,
    pub draws: u8,
    pub losses: u8,
}

impl PairOutcome {
    /// From the first engine's doubled points in each game (0 loss, 1 draw, 2 win).
    pub fn from_points_x2(games: [u8; 2]) -> Result<Self, StoreError> {
        let mut out = Self {
            wins: 0,
            draws: 0,
            losses: 0,
        };
        for p in games {
            match p {
                0 => out.losses += 1,
                1 => out.draws += 1,
                2 => out.wins += 1,
                _ => {
                    return Err(StoreError::Invalid(format!(
                        "a game scores 0, 1 or 2 half-points, not {p}"
                    )));
                }
            }
        }
        Ok(out)
    }

    /// The pentanomial cell: the first engine's half-points over the pair, 0..=4.
    pub fn ptnml(self) -> u8 {
        2 * self.wins + self.draws
    }

    pub(crate) fn check(self) -> Result<(), StoreError> {
        if u16::from(self.wins) + u16::from(self.draws) + u16::from(self.losses) != 2 {
            return Err(StoreError::Invalid(format!(
                "a pair has two games, got {} wins, {} draws, {} losses",
                self.wins, self.draws, self.losses
            )));
        }
        Ok(())
    }
}

/// One finished pair as a worker commits it.
#[derive(Debug, Clone, PartialEq)]
pub struct PairResult {
    pub pair_index: u64,
    pub outcome: PairOutcome,
    /// The pair's games (opaque to the store), compressed by the worker.
    pub games: PairGames,
}

/// A pair's games as the store keeps them: their JSON, deflated. A real pair (two games at
/// 1,000 nodes with their PGN, moves and rows) is about 10 KB of JSON and 3 KB deflated. The
/// worker compresses, so the server neither spends its CPU on it nor writes the 10 KB.
/// Clones share the bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct PairGames(Arc<[u8]>);

impl PairGames {
    /// Compresses `games` (serialized as JSON).
    pub fn compress<T: Serialize + ?Sized>(games: &T) -> Result<PairGames, StoreError> {
        let mut encoder = DeflateEncoder::new(Vec::new(), Compression::default());
        serde_json::to_writer(&mut encoder, games)
            .map_err(|e| StoreError::Invalid(format!("a pair's games: {e}")))?;
        let bytes = encoder
            .finish()
            .map_err(|e| StoreError::Invalid(format!("a pair's games: {e}")))?;
        Ok(PairGames(bytes.into()))
    }

    /// The games' JSON, inflated and parsed.
    pub fn decompress(&self) -> Result<Value, StoreError> {
        serde_json::from_reader(DeflateDecoder::new(&self.0[..]))
            .map_err(|e| StoreError::Invalid(format!("stored games are malformed: {e}")))
    }

    /// The compressed bytes, as stored.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    pub(crate) fn from_stored(bytes: Vec<u8>) -> PairGames {
        PairGames(bytes.into())
    }
}

impl std::fmt::Debug for PairGames {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PairGames({} bytes deflated)", self.0.len())
    }
}

/// A committed pair as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredPair {
    pub pair_index: u64,
    pub outcome: PairOutcome,
    pub games: Value,
    pub worker: String,
    pub committed_at: SystemTime,
}

/// Pairs leased to a worker until `expires_at` (the store's clock).
#[derive(Debug, Clone, PartialEq)]
pub struct Lease {
    pub test_id: i64,
    pub worker: String,
    /// Ascending.
    pub pairs: Vec<u64>,
    pub expires_at: SystemTime,
}

/// What a commit did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommitOutcome {
    /// Pairs newly stored and counted (the others were committed before, or the test
    /// had already ended and nothing was stored).
    pub inserted: u64,
    /// The test's status after the commit: anything but `Active` means stop claiming it.
    pub status: TestStatus,
}

/// One worker's share of a test.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkerThroughput {
    pub worker: String,
    pub pairs: u64,
    pub first_commit: SystemTime,
    pub last_commit: SystemTime,
    /// Pairs per minute between its first and last commit (`None` for a single commit).
    pub pairs_per_minute: Option<f64>,
}

/// A test's state for `harness test status`.
#[derive(Debug, Clone, PartialEq)]
pub struct TestReport {
    pub test: TestRecord,
    /// Pairs committed (`= test.pentanomial.pairs()`).
    pub pairs_done: u64,
    /// Pairs under an unexpired lease now.
    pub pairs_leased: u64,
    /// The statistics of the committed pairs (the fastchess report block).
    pub summary: Summary,
    pub workers: Vec<WorkerThroughput>,
}
