//! Time management: how long to think, from `go movetime` or the clock.

use std::time::{Duration, Instant};

use shakmaty::{Color, Move};

use super::Limits;
use super::knobs::Knobs;

/// Safety margin for the GUI's and the operating system's delays.
const OVERHEAD: Duration = Duration::from_millis(15);
/// Moves assumed left in the game when the GUI does not say (`movestogo`).
const DEFAULT_MOVES_TO_GO: u32 = 25;

/// Deadlines of one search.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TimeManager {
    start: Instant,
    /// Start no new iteration after this much time.
    soft: Option<Duration>,
    /// Abort the search at this time.
    hard: Option<Duration>,
    /// Whether `soft` is the clock's share (then [`SoftScale`] may move it); with `movetime`
    /// the soft deadline is the given time and stays.
    scalable: bool,
}

impl TimeManager {
    pub(crate) fn new(limits: &Limits, turn: Color, start: Instant) -> Self {
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        if let Some(movetime) = limits.movetime {
            let margin = OVERHEAD.min(movetime / 10);
            let t = movetime.saturating_sub(margin);
            soft = Some(t);
            hard = Some(t);
        }
        if let Some(clock) = limits.clock.filter(|_| !limits.infinite) {
            let (time, inc) = match turn {
                Color::White => (clock.white_time, clock.white_increment),
                Color::Black => (clock.black_time, clock.black_increment),
            };
            let moves_to_go = clock
                .moves_to_go
                .unwrap_or(DEFAULT_MOVES_TO_GO)
                .clamp(1, 50);
            let available = time.saturating_sub(OVERHEAD);
            let base = available / moves_to_go + inc * 3 / 4;
            let cap = if moves_to_go == 1 {
                available * 9 / 10
            } else {
                available * 3 / 4
            };
            let h = (base * 5 / 2).min(cap).max(Duration::from_millis(1));
            let s = (base * 6 / 10).min(h);
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        }
        if limits.infinite {
            soft = None;
            hard = None;
        }
        let scalable = soft.is_some() && limits.movetime.is_none();
        TimeManager {
            start,
            soft,
            hard,
            scalable,
        }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the time for starting another iteration is over.
    pub(crate) fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| self.elapsed() >= s)
    }

    /// Whether the time for starting another iteration is over, the clock's soft deadline
    /// scaled to `percent` (never beyond the hard one).
    pub(crate) fn soft_expired_scaled(&self, percent: u32) -> bool {
        if !self.scalable {
            return self.soft_expired();
        }
        self.soft.is_some_and(|s| {
            let scaled = s * percent / 100;
            self.elapsed() >= self.hard.map_or(scaled, |h| scaled.min(h))
        })
    }

    pub(crate) fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }
}

/// The soft deadline's scale from how the iterations went: the best move's stability and the
/// score's fall (the `time_*` knobs).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SoftScale {
    best: Option<Move>,
    /// Completed iterations since the best move last changed.
    stable: i32,
    score: Option<i32>,
}

impl SoftScale {
    /// Takes a completed iteration's best move and score (centipawns, mover's view) and
    /// returns the soft deadline's scale in percent.
    pub(crate) fn update(&mut self, knobs: &Knobs, best: Move, score: i32) -> u32 {
        if !knobs.time_stability {
            return 100;
        }
        if self.best == Some(best) {
            self.stable += 1;
        } else {
            self.best = Some(best);
            self.stable = 0;
        }
        let full = knobs.time_stable_iterations.max(1);
        let (unstable, stable) = (knobs.time_unstable_percent, knobs.time_stable_percent);
        let stability = unstable - (unstable - stable) * self.stable.min(full) / full;
        // Mate scores are not a fall in centipawns: clamp the change to 100 cp.
        let fall = self
            .score
            .map_or(0, |previous| (previous - score).clamp(0, 100));
        self.score = Some(score);
        let extra = 100 + knobs.time_score_drop_percent * fall / 100;
        (stability.max(1) * extra / 100).max(1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Params;
    use crate::params::search::TIME_STABILITY;
    use crate::search::Clock;
    use shakmaty::Role;
    use shakmaty::Square;

    fn quiet(from: Square, to: Square) -> Move {
        Move::Normal {
            role: Role::Knight,
            from,
            capture: None,
            to,
            promotion: None,
        }
    }

    fn knobs(stability: bool) -> Knobs {
        let mut params = Params::default();
        params.set(TIME_STABILITY, i64::from(stability)).unwrap();
        Knobs::new(&params)
    }

    #[test]
    fn soft_deadline_shrinks_with_a_stable_best_move_and_grows_when_it_changes_or_the_score_falls()
    {
        let knobs = knobs(true);
        let (a, b) = (quiet(Square::G1, Square::F3), quiet(Square::B1, Square::C3));
        let mut scale = SoftScale::default();
        assert_eq!(
            scale.update(&knobs, a, 20),
            150,
            "a new best move: unstable"
        );
        let mut last = 150;
        for _ in 0..6 {
            let now = scale.update(&knobs, a, 20);
            assert!(now < last, "{now} after {last}");
            last = now;
        }
        assert_eq!(last, 65, "stable for six iterations");
        assert_eq!(scale.update(&knobs, a, 20), 65, "stays at the floor");
        assert_eq!(scale.update(&knobs, b, 20), 150, "the best move changed");
        let mut fall = SoftScale::default();
        fall.update(&knobs, a, 50);
        assert_eq!(fall.update(&knobs, a, -50), (150 - 85 / 6) * 160 / 100);
        assert_eq!(
            SoftScale::default().update(&self::knobs(false), a, 0),
            100,
            "switched off: the clock's share as it was"
        );
    }

    #[test]
    fn only_the_clocks_soft_deadline_is_scaled() {
        let now = Instant::now();
        let clock = Limits {
            clock: Some(Clock {
                white_time: Duration::from_secs(10),
                black_time: Duration::from_secs(10),
                white_increment: Duration::ZERO,
                black_increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let started_long_ago = now - Duration::from_millis(300);
        let manager = TimeManager::new(&clock, Color::White, started_long_ago);
        // soft = 0.6 · (10 s − 15 ms) / 25 ≈ 240 ms: 300 ms is past it, not past 150 % of it.
        assert!(manager.soft_expired_scaled(100));
        assert!(!manager.soft_expired_scaled(150));
        let movetime = Limits {
            movetime: Some(Duration::from_millis(250)),
            ..clock
        };
        let manager = TimeManager::new(&movetime, Color::White, started_long_ago);
        assert!(
            manager.soft_expired_scaled(150),
            "movetime is not stretched"
        );
        let manager = TimeManager::new(&movetime, Color::White, now);
        assert!(!manager.soft_expired_scaled(10), "nor shortened");
    }

    #[test]
    fn clock_budget_is_a_fraction_of_the_remaining_time() {
        let limits = Limits {
            clock: Some(Clock {
                white_time: Duration::from_secs(60),
                black_time: Duration::from_secs(1),
                white_increment: Duration::from_secs(1),
                black_increment: Duration::ZERO,
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let now = Instant::now();
        let white = TimeManager::new(&limits, Color::White, now);
        let black = TimeManager::new(&limits, Color::Black, now);
        let (ws, wh) = (white.soft.unwrap(), white.hard.unwrap());
        assert!(ws < wh && wh <= Duration::from_secs(45), "{ws:?} {wh:?}");
        assert!(ws >= Duration::from_secs(1), "{ws:?}");
        assert!(black.hard.unwrap() < Duration::from_millis(200));
        let movetime = Limits {
            movetime: Some(Duration::from_millis(500)),
            ..Limits::default()
        };
        let m = TimeManager::new(&movetime, Color::White, now);
        assert!(m.hard.unwrap() <= Duration::from_millis(500));
        let infinite = Limits {
            infinite: true,
            ..movetime
        };
        assert!(
            TimeManager::new(&infinite, Color::White, now)
                .hard
                .is_none()
        );
    }
}
