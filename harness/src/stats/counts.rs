//! Result counts: per game (trinomial) and per game pair (pentanomial).

use serde::{Deserialize, Serialize};

/// Game results from the first engine's point of view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trinomial {
    pub losses: u64,
    pub draws: u64,
    pub wins: u64,
}

impl Trinomial {
    /// Counts from wins, draws and losses (the order users say them in).
    pub fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Self {
            losses,
            draws,
            wins,
        }
    }

    /// Adds one game given the first engine's points doubled: 0 = loss, 1 = draw, 2 = win.
    ///
    /// # Panics
    /// If `points_x2 > 2` (a caller bug, not user input).
    pub fn add_game(&mut self, points_x2: u8) {
        match points_x2 {
            0 => self.losses += 1,
            1 => self.draws += 1,
            2 => self.wins += 1,
            _ => panic!("a game scores 0, 1 or 2 half-points, not {points_x2}"),
        }
    }

    /// Number of games (saturating at `u64::MAX` rather than overflowing).
    pub fn games(&self) -> u64 {
        self.losses
            .saturating_add(self.draws)
            .saturating_add(self.wins)
    }

    /// Points of the first engine (a draw is half a point).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Counts low to high (losses, draws, wins), the order of the statistics' support.
    pub fn low_to_high(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }
}

/// Game-pair results (both colours of one opening), first engine's view.
///
/// `counts` = `[LL, LD, WL+DD, WD, WW]`: pairs scoring 0, ½, 1, 1½ and 2 points, the order
/// fastchess prints as `Ptnml(0-2)`. WL and DD share a cell because they score the same.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Counts low to high: `[LL, LD, WL+DD, WD, WW]`.
    pub fn new(counts: [u64; 5]) -> Self {
        Self { counts }
    }

    /// Adds one pair given the first engine's points over both games doubled:
    /// 0 = LL, 1 = LD, 2 = WL or DD, 3 = WD, 4 = WW.
    ///
    /// # Panics
    /// If `pair_points_x2 > 4` (a caller bug, not user input).
    pub fn add_pair(&mut self, pair_points_x2: u8) {
        assert!(
            pair_points_x2 <= 4,
            "a game pair scores 0..=4 half-points, not {pair_points_x2}"
        );
        self.counts[usize::from(pair_points_x2)] += 1;
    }

    /// Number of pairs (saturating at `u64::MAX` rather than overflowing).
    pub fn pairs(&self) -> u64 {
        self.counts.iter().fold(0u64, |a, &c| a.saturating_add(c))
    }

    /// Number of games (two per pair, saturating).
    pub fn games(&self) -> u64 {
        self.pairs().saturating_mul(2)
    }

    /// Points of the first engine over all pairs.
    pub fn points(&self) -> f64 {
        self.counts
            .iter()
            .enumerate()
            .map(|(half_points, &n)| 0.5 * half_points as f64 * n as f64)
            .sum()
    }

    /// The game counts these pairs imply when every middle-cell pair is a draw-draw
    /// (the WL/DD split is not stored). Games and points are exact either way.
    pub fn trinomial_if_middle_drawn(&self) -> Trinomial {
        let [ll, ld, mid, wd, ww] = self.counts;
        Trinomial {
            losses: 2 * ll + ld,
            draws: ld + 2 * mid + wd,
            wins: wd + 2 * ww,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_and_points() {
        let mut p = Pentanomial::default();
        for x in [0, 1, 2, 2, 3, 4, 4] {
            p.add_pair(x);
        }
        assert_eq!(p.counts, [1, 1, 2, 1, 2]);
        assert_eq!(p.pairs(), 7);
        assert_eq!(p.games(), 14);
        assert_eq!(p.points(), 8.0);
        let t = p.trinomial_if_middle_drawn();
        assert_eq!(t.games(), 14);
        assert_eq!(t.points(), 8.0);
    }

    #[test]
    fn trinomial_add() {
        let mut t = Trinomial::default();
        for x in [0, 1, 1, 2, 2, 2] {
            t.add_game(x);
        }
        assert_eq!(t, Trinomial::new(3, 2, 1));
        assert_eq!(t.points(), 4.0);
    }
}
