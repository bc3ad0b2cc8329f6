//! The network's weights, quantised, and their file format (little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `b"ENGNNUE1"`, or `b"ENGNNUR1"` for a residual network |
//! | 4 + 4 | `u32` inputs (768) and hidden units ([`HIDDEN`]) |
//! | 2 · 768 · H | `i16` feature weights, one row of H per input, scaled by [`QA`] |
//! | 2 · H | `i16` hidden biases, scaled by [`QA`] |
//! | 2 · 2H | `i16` output weights (side to move's H, then the other side's), scaled by [`QB`] |
//! | 4 | `i32` output bias, scaled by `QA · QB` |
//!
//! A residual network's output is added to the hand-written evaluation instead of replacing
//! it (`harness train-net --residual` fits it to what that evaluation misses).
//!
//! A file of fewer hidden units than [`HIDDEN`] (an older, narrower network) is read with the
//! missing units' weights zero: they add nothing, so it evaluates as it did at its own width,
//! and `harness train-net --init` can widen it.

use super::{HIDDEN, INPUTS, QA, QB, WEIGHT_CLIP};

const MAGIC: &[u8; 8] = b"ENGNNUE1";
const MAGIC_RESIDUAL: &[u8; 8] = b"ENGNNUR1";
/// Bytes of a network file of this engine's width.
pub const FILE_BYTES: usize = file_bytes(HIDDEN);

/// Bytes of a network file of `hidden` units.
const fn file_bytes(hidden: usize) -> usize {
    8 + 8 + 2 * INPUTS * hidden + 2 * hidden + 2 * 2 * hidden + 4
}

/// Why bytes are not a network of this engine's shape.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    #[error("not a network file (its first 8 bytes are neither ENGNNUE1 nor ENGNNUR1)")]
    Magic,
    #[error(
        "network of {inputs} inputs and {hidden} hidden units; this engine takes {INPUTS} and 1 to {HIDDEN}"
    )]
    Shape { inputs: u32, hidden: u32 },
    #[error("network file of {found} bytes; a {INPUTS}x{hidden} network has {expected}")]
    Length {
        found: usize,
        hidden: usize,
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
    /// `[input][hidden]`, scaled by [`QA`].
    pub(super) feature_weights: Box<[[i16; HIDDEN]; INPUTS]>,
    /// Scaled by [`QA`].
    pub(super) feature_bias: [i16; HIDDEN],
    /// Side to move's hidden units, then the other side's; scaled by [`QB`].
    pub(super) output_weights: [i16; 2 * HIDDEN],
    /// Scaled by `QA · QB`.
    pub(super) output_bias: i32,
    /// Whether the output is added to the hand-written evaluation.
    pub(super) residual: bool,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({INPUTS}x{HIDDEN}{}, output bias {})",
            if self.residual { ", residual" } else { "" },
            self.output_bias
        )
    }
}

/// The same network in floats, as the trainer fits it (row-major like [`Network`]).
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// `INPUTS · HIDDEN`, input-major.
    pub feature_weights: Vec<f32>,
    /// `HIDDEN`.
    pub feature_bias: Vec<f32>,
    /// `2 · HIDDEN`: side to move's, then the other side's.
    pub output_weights: Vec<f32>,
    pub output_bias: f32,
    /// Whether the output is added to the hand-written evaluation (see [`Network`]).
    pub residual: bool,
}

impl FloatNetwork {
    /// All zeros, of this engine's shape; not residual.
    pub fn zeros() -> Self {
        FloatNetwork {
            feature_weights: vec![0.0; INPUTS * HIDDEN],
            feature_bias: vec![0.0; HIDDEN],
            output_weights: vec![0.0; 2 * HIDDEN],
            output_bias: 0.0,
            residual: false,
        }
    }

    /// Rounded to the engine's integers. Weights beyond the clip are clipped first (the
    /// trainer keeps them within it; this guards the `i16`s).
    pub fn quantise(&self) -> Network {
        let q =
            |w: f32, scale: i32| (w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP) * scale as f32).round() as i16;
        let mut feature_weights = Box::new([[0i16; HIDDEN]; INPUTS]);
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
        let mut output_weights = [0i16; 2 * HIDDEN];
        for (to, w) in output_weights.iter_mut().zip(&self.output_weights) {
            *to = q(*w, QB);
        }
        Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias: (self.output_bias * (QA * QB) as f32).round() as i32,
            residual: self.residual,
        }
    }
}

/// The hidden units a network file holds (at most [`HIDDEN`]; fewer for a narrower network,
/// whose missing units [`Network::from_bytes`] leaves zero), from its header and length.
pub fn file_hidden_units(bytes: &[u8]) -> Result<usize, NetError> {
    match bytes.get(..8) {
        Some(magic) if magic == MAGIC || magic == MAGIC_RESIDUAL => {}
        _ => return Err(NetError::Magic),
    }
    if bytes.len() < 16 {
        return Err(NetError::Length {
            found: bytes.len(),
            hidden: HIDDEN,
            expected: FILE_BYTES,
        });
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let (inputs, hidden) = (word(8), word(12));
    if inputs as usize != INPUTS || hidden == 0 || hidden as usize > HIDDEN {
        return Err(NetError::Shape { inputs, hidden });
    }
    let width = hidden as usize;
    if bytes.len() != file_bytes(width) {
        return Err(NetError::Length {
            found: bytes.len(),
            hidden: width,
            expected: file_bytes(width),
        });
    }
    Ok(width)
}

impl Network {
    /// Reads a network file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let width = file_hidden_units(bytes)?;
        let residual = &bytes[..8] == MAGIC_RESIDUAL;
        let expected = file_bytes(width);
        let mut shorts = bytes[16..expected - 4]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]));
        // Each run of `width` weights fills the first units; the rest stay zero.
        let mut fill =
            |units: &mut [i16]| units[..width].fill_with(|| shorts.next().unwrap_or_default());
        let mut feature_weights = Box::new([[0i16; HIDDEN]; INPUTS]);
        for row in feature_weights.iter_mut() {
            fill(row);
        }
        let mut feature_bias = [0i16; HIDDEN];
        fill(&mut feature_bias);
        let mut output_weights = [0i16; 2 * HIDDEN];
        let (us, them) = output_weights.split_at_mut(HIDDEN);
        fill(us);
        fill(them);
        let output_bias = i32::from_le_bytes([
            bytes[expected - 4],
            bytes[expected - 3],
            bytes[expected - 2],
            bytes[expected - 1],
        ]);
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
            output_weights.iter().map(|&w| i64::from(w)),
            MAX_OUTPUT_WEIGHT,
        )?;
        check_weights("output bias", [i64::from(output_bias)], MAX_OUTPUT_BIAS)?;
        Ok(Network {
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            residual,
        })
    }

    /// Whether the output is added to the hand-written evaluation instead of replacing it.
    #[inline]
    pub fn is_residual(&self) -> bool {
        self.residual
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
                .map(|&w| f32::from(w) / qb)
                .collect(),
            output_bias: self.output_bias as f32 / (qa * qb),
            residual: self.residual,
        }
    }

    /// The network file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(if self.residual { MAGIC_RESIDUAL } else { MAGIC });
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let shorts = self
            .feature_weights
            .iter()
            .flatten()
            .chain(&self.feature_bias)
            .chain(&self.output_weights);
        for w in shorts {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
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
    net.feature_weights.iter_mut().for_each(|w| *w = next());
    net.feature_bias.iter_mut().for_each(|w| *w = next() + 0.2);
    net.output_weights
        .iter_mut()
        .for_each(|w| *w = next() * 10.0);
    net.output_bias = 0.05;
    net
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_survives_its_file() {
        let net = sample(1).quantise();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), FILE_BYTES);
        assert_eq!(Network::from_bytes(&bytes), Ok(net));
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
        let bytes = sample(1).quantise().to_bytes();
        assert_eq!(Network::from_bytes(b"garbage!"), Err(NetError::Magic));
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::Length {
                found: FILE_BYTES - 1,
                hidden: HIDDEN,
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
        let mut narrow = bytes.clone();
        narrow[12..16].copy_from_slice(&(HIDDEN as u32 / 2).to_le_bytes());
        assert_eq!(
            Network::from_bytes(&narrow).unwrap_err().to_string(),
            format!(
                "network file of {FILE_BYTES} bytes; a 768x{} network has {}",
                HIDDEN / 2,
                file_bytes(HIDDEN / 2)
            )
        );
        // Weights beyond the clip, which no trainer writes and which could overflow.
        let set_short = |at: usize, value: i16| {
            let mut b = bytes.clone();
            b[16 + 2 * at..18 + 2 * at].copy_from_slice(&value.to_le_bytes());
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
        let output = INPUTS * HIDDEN + HIDDEN;
        assert_eq!(
            set_short(output + 3, -128).unwrap_err().to_string(),
            "output weight 3 is -128, beyond the accepted ±127"
        );
        let mut bias = bytes.clone();
        bias[FILE_BYTES - 4..].copy_from_slice(&i32::MAX.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&bias),
            Err(NetError::Weight {
                what: "output bias",
                ..
            })
        ));
    }

    /// The file of `net` cut to its first `width` hidden units.
    fn narrowed_file(net: &Network, width: usize) -> Vec<u8> {
        let mut out = net.to_bytes()[..8].to_vec();
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(width as u32).to_le_bytes());
        let halves = net.output_weights.split_at(HIDDEN);
        let shorts = net
            .feature_weights
            .iter()
            .flat_map(|row| &row[..width])
            .chain(&net.feature_bias[..width])
            .chain(&halves.0[..width])
            .chain(&halves.1[..width]);
        for w in shorts {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&net.output_bias.to_le_bytes());
        out
    }

    #[test]
    fn a_narrower_network_is_read_with_its_missing_units_zero() {
        let net = sample(4).quantise();
        let width = HIDDEN / 2;
        let bytes = narrowed_file(&net, width);
        assert_eq!(bytes.len(), file_bytes(width));
        assert_eq!(file_hidden_units(&bytes), Ok(width));
        assert_eq!(file_hidden_units(&net.to_bytes()), Ok(HIDDEN));
        let read = Network::from_bytes(&bytes).unwrap();
        for (row, full) in read.feature_weights.iter().zip(net.feature_weights.iter()) {
            assert_eq!(row[..width], full[..width]);
            assert!(row[width..].iter().all(|&w| w == 0));
        }
        assert_eq!(read.feature_bias[..width], net.feature_bias[..width]);
        assert!(read.feature_bias[width..].iter().all(|&w| w == 0));
        for half in 0..2 {
            let units = &read.output_weights[half * HIDDEN..(half + 1) * HIDDEN];
            assert_eq!(
                units[..width],
                net.output_weights[half * HIDDEN..half * HIDDEN + width]
            );
            assert!(units[width..].iter().all(|&w| w == 0));
        }
        assert_eq!(read.output_bias, net.output_bias);
        // Written back, it is a file of this engine's width that reads the same.
        assert_eq!(Network::from_bytes(&read.to_bytes()), Ok(read));
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
            q.output_weights[0],
            (WEIGHT_CLIP * QB as f32).round() as i16
        );
        assert_eq!(q.output_weights[1], -32);
        assert_eq!(q.feature_weights[0][3], 26);
    }
}
