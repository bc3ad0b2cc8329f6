//! Ending games early on the engines' scores, as cutechess-cli and fastchess do.

use engine::search::Score;
use serde::{Deserialize, Serialize};
use shakmaty::Color;

/// Draw when both sides' scores stay within `score` cp of zero for `movecount` consecutive
/// moves each, once the game has reached full move `movenumber`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

/// A side loses when its own score stays at or below `-score` cp for `movecount` consecutive
/// moves; with `twosided`, only while the opponent's score is at least `score` too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    pub movecount: u32,
    pub score: i32,
    pub twosided: bool,
}

/// What the adjudicator decided after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Draw,
    Resigns(Color),
}

/// Mate scores count as very large centipawn scores.
pub fn score_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => 32_000 - n,
        Score::Mate(n) => -32_000 - n,
    }
}

/// Tracks the score streaks of one game.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    draw_plies: u32,
    resign_moves: [u32; 2],
    last_score: [Option<i32>; 2],
}

impl Adjudicator {
    pub fn new(draw: Option<DrawRule>, resign: Option<ResignRule>) -> Self {
        Adjudicator {
            draw,
            resign,
            ..Default::default()
        }
    }

    /// Records the score `mover` reported (its own view) for the move that led to a position
    /// at full move `fullmove`, and says whether the game ends here.
    pub fn record(&mut self, mover: Color, score: Option<Score>, fullmove: u32) -> Option<Verdict> {
        let i = mover as usize;
        let cp = score.map(score_cp);
        self.last_score[i] = cp;
        let opponent = self.last_score[1 - i];

        if let Some(rule) = self.resign {
            let losing = cp.is_some_and(|s| s <= -rule.score)
                && (!rule.twosided || opponent.is_some_and(|s| s >= rule.score));
            self.resign_moves[i] = if losing { self.resign_moves[i] + 1 } else { 0 };
            if rule.movecount > 0 && self.resign_moves[i] >= rule.movecount {
                return Some(Verdict::Resigns(mover));
            }
        }
        if let Some(rule) = self.draw {
            let quiet = cp.is_some_and(|s| s.abs() <= rule.score);
            self.draw_plies = if quiet { self.draw_plies + 1 } else { 0 };
            if fullmove >= rule.movenumber && self.draw_plies >= 2 * rule.movecount.max(1) {
                return Some(Verdict::Draw);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_needs_both_sides_quiet_for_movecount_moves() {
        let rule = DrawRule {
            movenumber: 10,
            movecount: 2,
            score: 10,
        };
        let mut a = Adjudicator::new(Some(rule), None);
        assert_eq!(a.record(Color::White, Some(Score::Cp(5)), 10), None);
        assert_eq!(a.record(Color::Black, Some(Score::Cp(-50)), 11), None);
        assert_eq!(a.record(Color::White, Some(Score::Cp(5)), 11), None);
        assert_eq!(a.record(Color::Black, Some(Score::Cp(0)), 12), None);
        assert_eq!(a.record(Color::White, Some(Score::Cp(-10)), 12), None);
        assert_eq!(
            a.record(Color::Black, Some(Score::Cp(10)), 13),
            Some(Verdict::Draw)
        );
    }

    #[test]
    fn draw_waits_for_movenumber() {
        let rule = DrawRule {
            movenumber: 40,
            movecount: 1,
            score: 10,
        };
        let mut a = Adjudicator::new(Some(rule), None);
        for n in 1..40 {
            assert_eq!(a.record(Color::White, Some(Score::Cp(0)), n), None);
            assert_eq!(a.record(Color::Black, Some(Score::Cp(0)), n), None);
        }
        assert_eq!(
            a.record(Color::White, Some(Score::Cp(0)), 40),
            Some(Verdict::Draw)
        );
    }

    #[test]
    fn resign_one_and_two_sided() {
        let rule = ResignRule {
            movecount: 2,
            score: 500,
            twosided: false,
        };
        let mut a = Adjudicator::new(None, Some(rule));
        assert_eq!(a.record(Color::Black, Some(Score::Cp(-600)), 1), None);
        assert_eq!(a.record(Color::White, Some(Score::Cp(0)), 2), None);
        assert_eq!(
            a.record(Color::Black, Some(Score::Mate(-3)), 2),
            Some(Verdict::Resigns(Color::Black))
        );

        let rule = ResignRule {
            movecount: 2,
            score: 500,
            twosided: true,
        };
        let mut a = Adjudicator::new(None, Some(rule));
        // The opponent does not agree: no resignation.
        for n in 1..5 {
            assert_eq!(a.record(Color::White, Some(Score::Cp(100)), n), None);
            assert_eq!(a.record(Color::Black, Some(Score::Cp(-600)), n), None);
        }
        assert_eq!(a.record(Color::White, Some(Score::Cp(600)), 5), None);
        assert_eq!(a.record(Color::Black, Some(Score::Cp(-600)), 5), None);
        assert_eq!(a.record(Color::White, Some(Score::Cp(600)), 6), None);
        assert_eq!(
            a.record(Color::Black, Some(Score::Cp(-600)), 6),
            Some(Verdict::Resigns(Color::Black))
        );
    }

    #[test]
    fn missing_score_breaks_streaks() {
        let rule = ResignRule {
            movecount: 2,
            score: 500,
            twosided: false,
        };
        let mut a = Adjudicator::new(None, Some(rule));
        assert_eq!(a.record(Color::Black, Some(Score::Cp(-600)), 1), None);
        assert_eq!(a.record(Color::Black, None, 2), None);
        assert_eq!(a.record(Color::Black, Some(Score::Cp(-600)), 3), None);
    }
}
