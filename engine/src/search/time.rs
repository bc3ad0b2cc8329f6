//! Time management: how long to think, from `go movetime` or the clock.

use std::time::{Duration, Instant};

use shakmaty::Color;

use super::Limits;

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
        TimeManager { start, soft, hard }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the time for starting another iteration is over.
    pub(crate) fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| self.elapsed() >= s)
    }

    pub(crate) fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

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
