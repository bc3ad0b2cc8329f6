//! The validation split: positions held out in runs of consecutive ones.
//!
//! `harness datagen` writes a game's positions together, and a game's positions share its
//! result and much of their material and structure. Held out one by one, nearly every
//! validation position has neighbours from its own game in the training set, and the
//! validation loss rewards a network that has learnt those games (row 181 of
//! docs/strength.md: a network that fitted the held-out positions better lost in play).
//! Held out in runs longer than a game, most validation positions come from games the
//! training never saw.

use rand::Rng;
use rand::seq::SliceRandom;

/// Positions in a run: several games of self-play (about a hundred positions each).
pub const RUN: usize = 512;

/// Splits the indices `0..len` into training and validation positions, `validation` of them
/// held out: whole runs of consecutive positions (of [`RUN`], or shorter when there are fewer
/// than a hundred runs' worth, so that a small set still splits finely), the last run drawn
/// cut to give exactly `validation`. Both lists are in increasing order.
///
/// # Panics
///
/// If `validation` exceeds `len`, or `len` exceeds `u32::MAX` (the trainer checks both
/// before it splits, with an error naming the limit).
///
/// ```
/// use rand::SeedableRng;
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
/// let (train, validation) = harness::nnue::split::by_runs(10_000, 200, &mut rng);
/// assert_eq!((train.len(), validation.len()), (9_800, 200));
/// ```
pub fn by_runs<R: Rng>(len: usize, validation: usize, rng: &mut R) -> (Vec<u32>, Vec<u32>) {
    assert!(
        validation <= len,
        "cannot hold out {validation} of {len} positions"
    );
    assert!(u32::try_from(len).is_ok(), "at most {} positions", u32::MAX);
    let run = (len / 100).clamp(1, RUN);
    let mut runs: Vec<usize> = (0..len.div_ceil(run)).collect();
    runs.shuffle(rng);
    let mut held = vec![false; len];
    let mut left = validation;
    for start in runs.into_iter().map(|r| r * run) {
        if left == 0 {
            break;
        }
        let end = (start + run).min(len).min(start + left);
        held[start..end].fill(true);
        left -= end - start;
    }
    let (mut train, mut held_out) = (Vec::with_capacity(len - validation), Vec::new());
    for (i, &h) in held.iter().enumerate() {
        if h { &mut held_out } else { &mut train }.push(i as u32);
    }
    (train, held_out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn split(len: usize, validation: usize, seed: u64) -> (Vec<u32>, Vec<u32>) {
        by_runs(len, validation, &mut ChaCha8Rng::seed_from_u64(seed))
    }

    #[test]
    fn every_position_lands_on_exactly_one_side() {
        for (len, validation) in [(1, 0), (2, 1), (99, 7), (4000, 400), (100_003, 2_000)] {
            let (train, held) = split(len, validation, 3);
            assert_eq!(held.len(), validation, "{len} positions");
            let mut all: Vec<u32> = train.iter().chain(&held).copied().collect();
            all.sort_unstable();
            assert_eq!(all, (0..len as u32).collect::<Vec<_>>(), "{len} positions");
        }
    }

    #[test]
    fn positions_are_held_out_in_runs() {
        let (_, held) = split(1_000_000, 20_000, 5);
        // Breaks between consecutive held-out positions: at most one per run held.
        let breaks = held.windows(2).filter(|w| w[1] != w[0] + 1).count();
        assert!(breaks < 20_000 / RUN + 1, "{breaks} breaks");
        // And the runs are spread over the file, not one block at its end.
        assert!(held[0] < 500_000 && *held.last().unwrap() > 500_000);
    }

    #[test]
    fn the_seed_draws_the_runs() {
        assert_eq!(split(50_000, 1_000, 9), split(50_000, 1_000, 9));
        assert_ne!(split(50_000, 1_000, 9).1, split(50_000, 1_000, 10).1);
    }
}
