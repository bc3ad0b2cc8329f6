//! The network's weights, quantised, and their file format (little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `b"ENGNNUE3"`, or `b"ENGNNUR3"` for a residual network |
//! | 4 · 4 | `u32` inputs (768), hidden units ([`HIDDEN`]), output buckets (B) and king buckets (K, 1 or [`KING_BUCKETS`]) |
//! | 2 · K · 768 · H | `i16` feature weights, one row of H per input of each king bucket, scaled by [`QA`] |
//! | 2 · H | `i16` hidden biases, scaled by [`QA`] |
//! | B · 2 · 2H | `i16` output weights of each bucket (side to move's H, then the other side's), scaled by [`QB`] |
//! | B · 4 | `i32` output bias of each bucket, scaled by `QA · QB` |
//!
//! A residual network's output is added to the hand-written evaluation instead of replacing
//! it (`harness train-net --residual` fits it to what that evaluation misses). A network of
//! one king bucket reads the same inputs wherever the kings stand.
//!
//! Older files read as they evaluated: a file of fewer hidden units than [`HIDDEN`] (a
//! narrower network) is read with the missing units' weights zero, so that they add nothing
//! and `harness train-net --init` can widen it; a file of one output layer (B = 1, or the
//! first format, `ENGNNUE1`/`ENGNNUR1`, whose header has no B) gives every bucket that layer,
//! so that `train-net --init` lets the buckets part from there; the first two formats
//! (`ENGNNUE2`/`ENGNNUR2` have no K) hold one king bucket.

use super::{
    FEATURE_ROWS, HIDDEN, INPUTS, KING_BUCKETS, OUTPUT_BUCKETS, OutputBucket, QA, QB, WEIGHT_CLIP,
};

const MAGIC: &[u8; 8] = b"ENGNNUE3";
const MAGIC_RESIDUAL: &[u8; 8] = b"ENGNNUR3";
/// The second format's magics: no king bucket count, one king bucket.
const MAGIC_V2: &[u8; 8] = b"ENGNNUE2";
const MAGIC_RESIDUAL_V2: &[u8; 8] = b"ENGNNUR2";
/// The first format's magics: no bucket counts, one output layer, one king bucket.
const MAGIC_V1: &[u8; 8] = b"ENGNNUE1";
const MAGIC_RESIDUAL_V1: &[u8; 8] = b"ENGNNUR1";

/// A file format: what its header holds after the inputs and hidden units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Version {
    /// Nothing more: one output layer, one king bucket.
    V1,
    /// The output buckets; one king bucket.
    V2,
    /// The output buckets and the king buckets.
    V3,
}

/// Bytes of the header of `version`: the magic, the inputs, the hidden units and the counts.
const fn header_bytes(version: Version) -> usize {
    match version {
        Version::V1 => 16,
        Version::V2 => 20,
        Version::V3 => 24,
    }
}

/// Bytes of a network file of `hidden` units, `buckets` output layers and `king_buckets`
/// sets of inputs in `version`.
const fn file_bytes(hidden: usize, buckets: usize, king_buckets: usize, version: Version) -> usize {
    header_bytes(version)
        + 2 * king_buckets * INPUTS * hidden
        + 2 * hidden
        + buckets * (2 * 2 * hidden + 4)
}

/// Bytes of a file of this engine's full shape (king-bucketed).
pub const FILE_BYTES: usize = file_bytes(HIDDEN, OUTPUT_BUCKETS, KING_BUCKETS, Version::V3);

/// What a file's header says of the network in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Header {
    residual: bool,
    hidden: usize,
    buckets: usize,
    king_buckets: usize,
    /// Bytes of the header (the weights follow).
    len: usize,
}

/// Why bytes are not a network of this engine's shape.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    #[error(
        "not a network file (its first 8 bytes are none of ENGNNUE3, ENGNNUR3, ENGNNUE2, ENGNNUR2, ENGNNUE1, ENGNNUR1)"
    )]
    Magic,
    #[error(
        "network of {inputs} inputs and {hidden} hidden units; this engine takes {INPUTS} and 1 to {HIDDEN}"
    )]
    Shape { inputs: u32, hidden: u32 },
    #[error("network of {buckets} output buckets; this engine takes 1 or {OUTPUT_BUCKETS}")]
    Buckets { buckets: u32 },
    #[error("network of {king_buckets} king buckets; this engine takes 1 or {KING_BUCKETS}")]
    KingBuckets { king_buckets: u32 },
    #[error(
        "network file of {found} bytes; a {INPUTS}x{hidden} network of {buckets} output buckets and {king_buckets} king buckets has {expected}"
    )]
    Length {
        found: usize,
        hidden: usize,
        buckets: usize,
        king_buckets: usize,
        expected: usize,
    },
    /// A weight no trainer of this format writes, and with which the accumulators or the
    /// output sum could overflow.
    #[error("{what} {index} is {value}, beyond the accepted ±{limit}")]
    Weight {
        what: &'static str,
        index: usize,
        value: i64,
        limit: i64,
    },
}

/// Largest magnitude of a quantised feature weight or hidden bias: the clip at [`QA`]. With
/// at most 32 pieces the accumulators stay far within `i16`.
const MAX_FEATURE_WEIGHT: i64 = (WEIGHT_CLIP * QA as f32) as i64 + 1;
/// Largest magnitude of a quantised output weight: the clip at [`QB`].
const MAX_OUTPUT_WEIGHT: i64 = (WEIGHT_CLIP * QB as f32) as i64 + 1;
/// Largest magnitude of the output bias: 8 raw units (3,200 cp), above the clip plus the
/// largest `train-net --output-shift`.
const MAX_OUTPUT_BIAS: i64 = 8 * (QA * QB) as i64;

/// `values` each within ±`limit`, else the first that is not.
fn check_weights(
    what: &'static str,
    values: impl IntoIterator<Item = i64>,
    limit: i64,
) -> Result<(), NetError> {
    match values
        .into_iter()
        .enumerate()
        .find(|(_, v)| v.abs() > limit)
    {
        Some((index, value)) => Err(NetError::Weight {
            what,
            index,
            value,
            limit,
        }),
        None => Ok(()),
    }
}

/// Quantised weights, as the engine evaluates with them.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// `[king bucket · INPUTS + input][hidden]` ([`super::input_row`]), scaled by [`QA`]; of a
    /// network without king buckets only the first [`INPUTS`] rows are read.
    pub(super) feature_weights: Box<[[i16; HIDDEN]]>,
    /// Scaled by [`QA`].
    pub(super) feature_bias: [i16; HIDDEN],
    /// `[bucket]`: side to move's hidden units, then the other side's; scaled by [`QB`].
    pub(super) output_weights: [[i16; 2 * HIDDEN]; OUTPUT_BUCKETS],
    /// `[bucket]`, scaled by `QA · QB`.
    pub(super) output_bias: [i32; OUTPUT_BUCKETS],
    /// Whether the output is added to the hand-written evaluation.
    pub(super) residual: bool,
    /// Whether each perspective reads the inputs of its king's bucket ([`super::king_bucket`]).
    pub(super) king_bucketed: bool,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({}{INPUTS}x{HIDDEN}x{OUTPUT_BUCKETS}{}, output biases {:?})",
            if self.king_bucketed {
                format!("{KING_BUCKETS}x")
            } else {
                String::new()
            },
            if self.residual { ", residual" } else { "" },
            self.output_bias
        )
    }
}

/// The same network in floats, as the trainer fits it (row-major like [`Network`]).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// `FEATURE_ROWS · HIDDEN`, row-major by [`super::input_row`]; without king buckets only
    /// the first `INPUTS` rows are used (the rest stay zero).
    pub feature_weights: Vec<f32>,
    /// `HIDDEN`.
    pub feature_bias: Vec<f32>,
    /// `OUTPUT_BUCKETS · 2 · HIDDEN`, bucket-major: each bucket's side to move's, then the
    /// other side's ([`FloatNetwork::bucket_output_weights`]).
    pub output_weights: Vec<f32>,
    /// `OUTPUT_BUCKETS`.
    pub output_bias: Vec<f32>,
    /// Whether the output is added to the hand-written evaluation (see [`Network`]).
    pub residual: bool,
    /// Whether each perspective reads the inputs of its king's bucket (see [`Network`]).
    pub king_bucketed: bool,
}

impl FloatNetwork {
    /// All zeros, of this engine's shape; not residual, no king buckets.
    pub fn zeros() -> Self {
        FloatNetwork {
            feature_weights: vec![0.0; FEATURE_ROWS * HIDDEN],
            feature_bias: vec![0.0; HIDDEN],
            output_weights: vec![0.0; OUTPUT_BUCKETS * 2 * HIDDEN],
            output_bias: vec![0.0; OUTPUT_BUCKETS],
            residual: false,
            king_bucketed: false,
        }
    }

    /// All zeros, of this network's shape (its king buckets or none).
    pub fn zeros_like(&self) -> Self {
        FloatNetwork {
            king_bucketed: self.king_bucketed,
            ..FloatNetwork::zeros()
        }
    }

    /// How many of [`FloatNetwork::feature_weights`] the network reads: every king bucket's
    /// rows, or the first [`INPUTS`] without king buckets.
    pub fn feature_weights_in_use(&self) -> usize {
        let rows = if self.king_bucketed {
            FEATURE_ROWS
        } else {
            INPUTS
        };
        rows * HIDDEN
    }

    /// The `2 · HIDDEN` output weights of `bucket`.
    #[inline]
    pub fn bucket_output_weights(&self, bucket: OutputBucket) -> &[f32] {
        let start = bucket.index() * 2 * HIDDEN;
        &self.output_weights[start..start + 2 * HIDDEN]
    }

    /// The same network with king buckets: every bucket's inputs a copy of the one set, so
    /// that it evaluates as before and training lets the buckets part from there. A network
    /// with king buckets is returned as it is.
    pub fn with_king_buckets(mut self) -> Self {
        if !self.king_bucketed {
            let first = self.feature_weights[..INPUTS * HIDDEN].to_vec();
            for bucket in self.feature_weights.chunks_exact_mut(INPUTS * HIDDEN) {
                bucket.copy_from_slice(&first);
            }
            self.king_bucketed = true;
        }
        self
    }

    /// Rounded to the engine's integers. Weights beyond the clip are clipped first (the
    /// trainer keeps them within it; this guards the `i16`s).
    pub fn quantise(&self) -> Network {
        let q =
            |w: f32, scale: i32| (w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP) * scale as f32).round() as i16;
        let mut feature_weights = vec![[0i16; HIDDEN]; FEATURE_ROWS].into_boxed_slice();
        for (row, weights) in feature_weights
            .iter_mut()
            .zip(self.feature_weights.chunks_exact(HIDDEN))
        {
            for (to, w) in row.iter_mut().zip(weights) {
                *to = q(*w, QA);
            }
        }
        let mut feature_bias = [0i16; HIDDEN];
        for (to, w) in feature_bias.iter_mut().zip(&self.feature_bias) {
            *to = q(*w, QA);
        }
        let mut output_weights = [[0i16; 2 * HIDDEN]; OUTPUT_BUCKETS];
        for (to, w) in output_weights
            .iter_mut()
            .flatten()
            .zip(&self.output_weights)
        {
            *to = q(*w, QB);
        }
        let mut output_bias = [0i32; OUTPUT_BUCKETS];
        for (to, b) in output_bias.iter_mut().zip(&self.output_bias) {
            *to = (b * (QA * QB) as f32).round() as i32;
        }
        Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            residual: self.residual,
            king_bucketed: self.king_bucketed,
        }
    }
}

/// Reads a file's header and checks the file's length against it.
fn header(bytes: &[u8]) -> Result<Header, NetError> {
    let (residual, version) = match bytes.get(..8) {
        Some(m) if m == MAGIC => (false, Version::V3),
        Some(m) if m == MAGIC_RESIDUAL => (true, Version::V3),
        Some(m) if m == MAGIC_V2 => (false, Version::V2),
        Some(m) if m == MAGIC_RESIDUAL_V2 => (true, Version::V2),
        Some(m) if m == MAGIC_V1 => (false, Version::V1),
        Some(m) if m == MAGIC_RESIDUAL_V1 => (true, Version::V1),
        _ => return Err(NetError::Magic),
    };
    let len = header_bytes(version);
    if bytes.len() < len {
        return Err(NetError::Length {
            found: bytes.len(),
            hidden: HIDDEN,
            buckets: OUTPUT_BUCKETS,
            king_buckets: KING_BUCKETS,
            expected: FILE_BYTES,
        });
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let (inputs, hidden) = (word(8), word(12));
    if inputs as usize != INPUTS || hidden == 0 || hidden as usize > HIDDEN {
        return Err(NetError::Shape { inputs, hidden });
    }
    let buckets = if version == Version::V1 { 1 } else { word(16) };
    if buckets != 1 && buckets as usize != OUTPUT_BUCKETS {
        return Err(NetError::Buckets { buckets });
    }
    let king_buckets = if version == Version::V3 { word(20) } else { 1 };
    if king_buckets != 1 && king_buckets as usize != KING_BUCKETS {
        return Err(NetError::KingBuckets { king_buckets });
    }
    let (hidden, buckets, king_buckets) =
        (hidden as usize, buckets as usize, king_buckets as usize);
    let expected = file_bytes(hidden, buckets, king_buckets, version);
    if bytes.len() != expected {
        return Err(NetError::Length {
            found: bytes.len(),
            hidden,
            buckets,
            king_buckets,
            expected,
        });
    }
    Ok(Header {
        residual,
        hidden,
        buckets,
        king_buckets,
        len,
    })
}

/// The hidden units a network file holds (at most [`HIDDEN`]; fewer for a narrower network,
/// whose missing units [`Network::from_bytes`] leaves zero), from its header and length.
pub fn file_hidden_units(bytes: &[u8]) -> Result<usize, NetError> {
    header(bytes).map(|h| h.hidden)
}

impl Network {
    /// Reads a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let header = header(bytes)?;
        let width = header.hidden;
        let bias_bytes = 4 * header.buckets;
        let (weights, biases) = bytes[header.len..].split_at(bytes.len() - header.len - bias_bytes);
        let mut shorts = weights
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]));
        // Each run of `width` weights fills the first units; the rest stay zero.
        let mut fill =
            |units: &mut [i16]| units[..width].fill_with(|| shorts.next().unwrap_or_default());
        let mut feature_weights = vec![[0i16; HIDDEN]; FEATURE_ROWS].into_boxed_slice();
        for row in feature_weights
            .iter_mut()
            .take(header.king_buckets * INPUTS)
        {
            fill(row);
        }
        let mut feature_bias = [0i16; HIDDEN];
        fill(&mut feature_bias);
        let mut output_weights = [[0i16; 2 * HIDDEN]; OUTPUT_BUCKETS];
        for bucket in output_weights.iter_mut().take(header.buckets) {
            let (us, them) = bucket.split_at_mut(HIDDEN);
            fill(us);
            fill(them);
        }
        let mut output_bias = [0i32; OUTPUT_BUCKETS];
        for (to, b) in output_bias.iter_mut().zip(biases.chunks_exact(4)) {
            *to = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        if header.buckets == 1 {
            // One output layer: every bucket evaluates with it.
            output_weights = [output_weights[0]; OUTPUT_BUCKETS];
            output_bias = [output_bias[0]; OUTPUT_BUCKETS];
        }
        check_weights(
            "feature weight",
            feature_weights.iter().flatten().map(|&w| i64::from(w)),
            MAX_FEATURE_WEIGHT,
        )?;
        check_weights(
            "hidden bias",
            feature_bias.iter().map(|&w| i64::from(w)),
            MAX_FEATURE_WEIGHT,
        )?;
        check_weights(
            "output weight",
            output_weights.iter().flatten().map(|&w| i64::from(w)),
            MAX_OUTPUT_WEIGHT,
        )?;
        check_weights(
            "output bias",
            output_bias.iter().map(|&b| i64::from(b)),
            MAX_OUTPUT_BIAS,
        )?;
        Ok(Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            residual: header.residual,
            king_bucketed: header.king_buckets > 1,
        })
    }

    /// Whether the output is added to the hand-written evaluation instead of replacing it.
    #[inline]
    pub fn is_residual(&self) -> bool {
        self.residual
    }

    /// Whether each perspective reads the inputs of its king's bucket.
    #[inline]
    pub fn is_king_bucketed(&self) -> bool {
        self.king_bucketed
    }

    /// The king bucket whose inputs `perspective` reads with its king on `king`.
    #[inline(always)]
    pub fn king_bucket(&self, perspective: shakmaty::Color, king: shakmaty::Square) -> usize {
        super::king_bucket(self.king_bucketed, perspective, king)
    }

    /// The weights back in floats (each quantised integer over its scale): where a training
    /// run that starts from this network begins.
    pub fn dequantise(&self) -> FloatNetwork {
        let (qa, qb) = (QA as f32, QB as f32);
        FloatNetwork {
            feature_weights: self
                .feature_weights
                .iter()
                .flatten()
                .map(|&w| f32::from(w) / qa)
                .collect(),
            feature_bias: self
                .feature_bias
                .iter()
                .map(|&w| f32::from(w) / qa)
                .collect(),
            output_weights: self
                .output_weights
                .iter()
                .flatten()
                .map(|&w| f32::from(w) / qb)
                .collect(),
            output_bias: self
                .output_bias
                .iter()
                .map(|&b| b as f32 / (qa * qb))
                .collect(),
            residual: self.residual,
            king_bucketed: self.king_bucketed,
        }
    }

    /// Sets of inputs the file holds: [`KING_BUCKETS`], or one without king buckets.
    fn king_buckets(&self) -> usize {
        if self.king_bucketed { KING_BUCKETS } else { 1 }
    }

    /// The network file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let king_buckets = self.king_buckets();
        let mut out = Vec::with_capacity(file_bytes(
            HIDDEN,
            OUTPUT_BUCKETS,
            king_buckets,
            Version::V3,
        ));
        out.extend_from_slice(if self.residual { MAGIC_RESIDUAL } else { MAGIC });
        for word in [INPUTS, HIDDEN, OUTPUT_BUCKETS, king_buckets] {
            out.extend_from_slice(&(word as u32).to_le_bytes());
        }
        let shorts = self.feature_weights[..king_buckets * INPUTS]
            .iter()
            .flatten()
            .chain(&self.feature_bias)
            .chain(self.output_weights.iter().flatten());
        for w in shorts {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }
}

/// A network of small varied weights (a uniform spread of ±0.1, the output weights ±1)
/// drawn from `seed`, for tests.
#[cfg(test)]
pub(crate) fn sample(seed: u64) -> FloatNetwork {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.2
    };
    let mut net = FloatNetwork::zeros();
    // One king bucket: the inputs of the first only (the others stay zero, as read).
    net.feature_weights[..INPUTS * HIDDEN]
        .iter_mut()
        .for_each(|w| *w = next());
    net.feature_bias.iter_mut().for_each(|w| *w = next() + 0.2);
    net.output_weights
        .iter_mut()
        .for_each(|w| *w = next() * 10.0);
    for (bucket, b) in net.output_bias.iter_mut().enumerate() {
        *b = 0.05 - 0.01 * bucket as f32;
    }
    net
}

/// [`sample`] with king buckets, each bucket's inputs drawn apart.
#[cfg(test)]
pub(crate) fn sample_king_bucketed(seed: u64) -> FloatNetwork {
    let mut net = sample(seed);
    let mut state = seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1;
    for w in &mut net.feature_weights[INPUTS * HIDDEN..] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        *w = ((state >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.2;
    }
    net.king_bucketed = true;
    net
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_survives_its_file() {
        let net = sample_king_bucketed(1).quantise();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
        // Without king buckets the file holds one set of inputs.
        let plain = sample(1).quantise();
        let bytes = plain.to_bytes();
        assert_eq!(
            bytes.len(),
            file_bytes(HIDDEN, OUTPUT_BUCKETS, 1, Version::V3)
        );
        let back = Network::from_bytes(&bytes).unwrap();
        assert!(!back.is_king_bucketed());
        assert_eq!(back, plain);
    }

    #[test]
    fn king_buckets_added_evaluate_as_before() {
        let plain = sample(6);
        let bucketed = plain.clone().with_king_buckets();
        assert!(bucketed.king_bucketed);
        let (plain, bucketed) = (plain.quantise(), bucketed.quantise());
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r4rk1/8/8/8/8/8/8/2KR3R b - - 1 1",
        ] {
            let pos: shakmaty::Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .unwrap()
                .into_position(shakmaty::CastlingMode::Standard)
                .unwrap();
            let board = shakmaty::Position::board(&pos);
            let bucket = OutputBucket::of(board);
            for stm in shakmaty::Color::ALL {
                assert_eq!(
                    super::super::Accumulator::new(&plain, board).evaluate(&plain, stm, bucket),
                    super::super::Accumulator::new(&bucketed, board)
                        .evaluate(&bucketed, stm, bucket),
                    "{fen}"
                );
            }
        }
    }

    #[test]
    fn a_residual_network_says_so_in_its_file() {
        let mut float = sample(2);
        float.residual = true;
        let net = float.quantise();
        let bytes = net.to_bytes();
        assert_eq!(&bytes[..8], MAGIC_RESIDUAL);
        let back = Network::from_bytes(&bytes).unwrap();
        assert!(back.is_residual());
        assert!(back.dequantise().residual);
        assert!(
            !Network::from_bytes(&sample(2).quantise().to_bytes())
                .unwrap()
                .is_residual()
        );
    }

    #[test]
    fn bad_files_are_named() {
        let bytes = sample_king_bucketed(1).quantise().to_bytes();
        assert_eq!(Network::from_bytes(b"garbage!"), Err(NetError::Magic));
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::Length {
                found: FILE_BYTES - 1,
                hidden: HIDDEN,
                buckets: OUTPUT_BUCKETS,
                king_buckets: KING_BUCKETS,
                expected: FILE_BYTES
            })
        );
        let mut wide = bytes.clone();
        wide[12..16].copy_from_slice(&(2 * HIDDEN as u32).to_le_bytes());
        assert_eq!(
            Network::from_bytes(&wide),
            Err(NetError::Shape {
                inputs: 768,
                hidden: 2 * HIDDEN as u32
            })
        );
        assert_eq!(
            NetError::Shape {
                inputs: 768,
                hidden: 0
            }
            .to_string(),
            format!(
                "network of 768 inputs and 0 hidden units; this engine takes 768 and 1 to {HIDDEN}"
            )
        );
        let mut three = bytes.clone();
        three[16..20].copy_from_slice(&3u32.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&three).unwrap_err().to_string(),
            format!("network of 3 output buckets; this engine takes 1 or {OUTPUT_BUCKETS}")
        );
        let mut kings = bytes.clone();
        kings[20..24].copy_from_slice(&3u32.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&kings).unwrap_err().to_string(),
            format!("network of 3 king buckets; this engine takes 1 or {KING_BUCKETS}")
        );
        let mut narrow = bytes.clone();
        narrow[12..16].copy_from_slice(&(HIDDEN as u32 / 2).to_le_bytes());
        assert_eq!(
            Network::from_bytes(&narrow).unwrap_err().to_string(),
            format!(
                "network file of {FILE_BYTES} bytes; a 768x{} network of {OUTPUT_BUCKETS} output buckets and {KING_BUCKETS} king buckets has {}",
                HIDDEN / 2,
                file_bytes(HIDDEN / 2, OUTPUT_BUCKETS, KING_BUCKETS, Version::V3)
            )
        );
        // Weights beyond the clip, which no trainer writes and which could overflow.
        let set_short = |at: usize, value: i16| {
            let mut b = bytes.clone();
            let at = header_bytes(Version::V3) + 2 * at;
            b[at..at + 2].copy_from_slice(&value.to_le_bytes());
            Network::from_bytes(&b)
        };
        assert_eq!(
            set_short(5, 2000),
            Err(NetError::Weight {
                what: "feature weight",
                index: 5,
                value: 2000,
                limit: 505
            })
        );
        assert!(set_short(5, -505).is_ok());
        let output = FEATURE_ROWS * HIDDEN + HIDDEN;
        assert_eq!(
            set_short(output + 2 * HIDDEN + 3, -128)
                .unwrap_err()
                .to_string(),
            format!(
                "output weight {} is -128, beyond the accepted ±127",
                2 * HIDDEN + 3
            )
        );
        let mut bias = bytes.clone();
        bias[FILE_BYTES - 4..].copy_from_slice(&i32::MAX.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&bias),
            Err(NetError::Weight {
                what: "output bias",
                index: OUTPUT_BUCKETS - 1,
                value: i64::from(i32::MAX),
                limit: MAX_OUTPUT_BIAS
            })
        );
    }

    /// The file of `net` (one king bucket) cut to its first `width` hidden units, with
    /// `buckets` output layers (its first ones) in the second format, or its first layer in
    /// the first format (`None`).
    fn older_file(net: &Network, width: usize, buckets: Option<usize>) -> Vec<u8> {
        assert!(!net.king_bucketed);
        let magic: &[u8; 8] = match (buckets, net.residual) {
            (Some(_), false) => MAGIC_V2,
            (Some(_), true) => MAGIC_RESIDUAL_V2,
            (None, false) => MAGIC_V1,
            (None, true) => MAGIC_RESIDUAL_V1,
        };
        let mut out = magic.to_vec();
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(width as u32).to_le_bytes());
        if let Some(buckets) = buckets {
            out.extend_from_slice(&(buckets as u32).to_le_bytes());
        }
        let layers = buckets.unwrap_or(1);
        let outputs = net.output_weights[..layers].iter().flat_map(|bucket| {
            let (us, them) = bucket.split_at(HIDDEN);
            us[..width].iter().chain(&them[..width])
        });
        let shorts = net.feature_weights[..INPUTS]
            .iter()
            .flat_map(|row| &row[..width])
            .chain(&net.feature_bias[..width])
            .chain(outputs);
        for w in shorts {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &net.output_bias[..layers] {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    #[test]
    fn a_narrower_network_is_read_with_its_missing_units_zero() {
        let net = sample(4).quantise();
        let width = HIDDEN / 2;
        let bytes = older_file(&net, width, Some(OUTPUT_BUCKETS));
        assert_eq!(
            bytes.len(),
            file_bytes(width, OUTPUT_BUCKETS, 1, Version::V2)
        );
        assert_eq!(file_hidden_units(&bytes), Ok(width));
        assert_eq!(file_hidden_units(&net.to_bytes()), Ok(HIDDEN));
        let read = Network::from_bytes(&bytes).unwrap();
        for (row, full) in read.feature_weights.iter().zip(net.feature_weights.iter()) {
            assert_eq!(row[..width], full[..width]);
            assert!(row[width..].iter().all(|&w| w == 0));
        }
        assert_eq!(read.feature_bias[..width], net.feature_bias[..width]);
        assert!(read.feature_bias[width..].iter().all(|&w| w == 0));
        for (bucket, full) in read.output_weights.iter().zip(&net.output_weights) {
            for half in 0..2 {
                let units = &bucket[half * HIDDEN..(half + 1) * HIDDEN];
                assert_eq!(units[..width], full[half * HIDDEN..half * HIDDEN + width]);
                assert!(units[width..].iter().all(|&w| w == 0));
            }
        }
        assert_eq!(read.output_bias, net.output_bias);
        // Written back, it is a file of this engine's width that reads the same.
        assert_eq!(Network::from_bytes(&read.to_bytes()), Ok(read));
    }

    #[test]
    fn a_network_of_one_output_layer_gives_it_to_every_bucket() {
        let mut float = sample(5);
        float.residual = true;
        let net = float.quantise();
        assert_ne!(net.output_weights[0], net.output_weights[1]);
        let v1 = older_file(&net, HIDDEN, None);
        assert_eq!(&v1[..8], b"ENGNNUR1");
        assert_eq!(v1.len(), file_bytes(HIDDEN, 1, 1, Version::V1));
        let one = older_file(&net, HIDDEN, Some(1));
        for bytes in [v1, one] {
            let read = Network::from_bytes(&bytes).unwrap();
            assert!(read.is_residual());
            assert_eq!(read.feature_weights, net.feature_weights);
            assert!(
                read.output_weights
                    .iter()
                    .all(|w| *w == net.output_weights[0])
            );
            assert!(read.output_bias.iter().all(|b| *b == net.output_bias[0]));
        }
        // The engine's built-in network, whatever its format, reads.
        assert!(Network::from_bytes(include_bytes!("../../../nets/default.nnue")).is_ok());
    }

    #[test]
    fn dequantising_inverts_quantising() {
        let net = sample(3).quantise();
        let back = net.dequantise();
        assert_eq!(back.quantise(), net);
        assert!(
            (back.feature_weights[5] - f32::from(net.feature_weights[0][5]) / 255.0).abs() < 1e-9
        );
    }

    #[test]
    fn quantising_clips_and_rounds() {
        let mut net = FloatNetwork::zeros();
        net.output_weights[0] = 5.0;
        net.output_weights[1] = -0.5;
        net.feature_weights[3] = 0.1;
        let q = net.quantise();
        assert_eq!(
            q.output_weights[0][0],
            (WEIGHT_CLIP * QB as f32).round() as i16
        );
        assert_eq!(q.output_weights[0][1], -32);
        assert_eq!(q.feature_weights[0][3], 26);
    }
}
