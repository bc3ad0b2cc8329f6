//! How long each side may think: fixed nodes, depth or movetime, and a chess clock
//! (`base+inc` or `moves/base+inc`) that the harness keeps.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use engine::search::{Clock, Limits};
use serde::{Deserialize, Serialize};
use shakmaty::Color;

/// A chess clock: `base` seconds plus `increment` per move, and with `moves` set, `base`
/// added again every `moves` moves (cutechess's `40/60+0.5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub moves: Option<u32>,
    pub base: Duration,
    pub increment: Duration,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    // "90", "1.5" or "1:30" (minutes:seconds).
    let seconds = match text.split_once(':') {
        Some((m, s)) => {
            let m: f64 = m.parse().map_err(|_| format!("'{text}' is not a time"))?;
            let s: f64 = s.parse().map_err(|_| format!("'{text}' is not a time"))?;
            m * 60.0 + s
        }
        None => text
            .parse()
            .map_err(|_| format!("'{text}' is not a time"))?,
    };
    if !seconds.is_finite() || seconds < 0.0 {
        return Err(format!("'{text}' is not a time"));
    }
    Ok(Duration::from_secs_f64(seconds))
}

impl FromStr for TimeControl {
    type Err = String;
    /// `base`, `base+inc`, `moves/base` or `moves/base+inc`, in seconds.
    fn from_str(text: &str) -> Result<Self, String> {
        let context = |e: String| {
            format!("time control '{text}': {e} (expected base+inc or moves/base+inc, in seconds)")
        };
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => (
                Some(
                    m.parse::<u32>()
                        .ok()
                        .filter(|&m| m > 0)
                        .ok_or_else(|| context(format!("'{m}' is not a move count")))?,
                ),
                rest,
            ),
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((b, i)) => (
                parse_seconds(b).map_err(context)?,
                parse_seconds(i).map_err(context)?,
            ),
            None => (parse_seconds(rest).map_err(context)?, Duration::ZERO),
        };
        if base.is_zero() {
            return Err(context("the base time must be positive".into()));
        }
        Ok(TimeControl {
            moves,
            base,
            increment,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", self.base.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

impl Serialize for TimeControl {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for TimeControl {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// One engine's search limits for a match. Several may be set; the first reached stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineLimits {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Fixed time per move, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub movetime_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// How far past its clock (or movetime) a move may end before it loses on time, in ms.
    pub time_margin_ms: u64,
}

/// Default time margin: enough for thread scheduling on a busy machine.
pub const DEFAULT_TIME_MARGIN_MS: u64 = 50;

impl EngineLimits {
    /// Whether any limit is set (a match needs at least one).
    pub fn is_limited(&self) -> bool {
        self.nodes.is_some()
            || self.depth.is_some()
            || self.movetime_ms.is_some()
            || self.tc.is_some()
    }

    /// Whether the result depends only on the positions (no time limit), so games repeat exactly.
    pub fn is_deterministic(&self) -> bool {
        self.movetime_ms.is_none() && self.tc.is_none()
    }

    /// PGN `TimeControl` tag value: the clock in PGN style, or `-` for other limits.
    pub fn pgn_time_control(&self) -> String {
        match (&self.tc, self.movetime_ms) {
            (Some(tc), _) => match tc.moves {
                Some(m) if tc.increment.is_zero() => format!("{m}/{}", tc.base.as_secs_f64()),
                Some(m) => format!(
                    "{m}/{}+{}",
                    tc.base.as_secs_f64(),
                    tc.increment.as_secs_f64()
                ),
                None if tc.increment.is_zero() => format!("{}", tc.base.as_secs_f64()),
                None => format!("{}+{}", tc.base.as_secs_f64(), tc.increment.as_secs_f64()),
            },
            (None, Some(ms)) => format!("1/{}", ms as f64 / 1000.0),
            (None, None) => "-".to_string(),
        }
    }

    /// A short description such as `nodes=400` or `tc=10+0.1`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = &self.tc {
            parts.push(format!("tc={tc}"));
        }
        if let Some(ms) = self.movetime_ms {
            parts.push(format!("movetime={}", ms as f64 / 1000.0));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        parts.join(" ")
    }
}

/// Both sides' clocks during one game.
#[derive(Clone, Debug)]
pub struct GameClock {
    limits: [EngineLimits; 2],
    remaining: [Duration; 2],
    moves_in_period: [u32; 2],
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// A move was slower than allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged {
    pub allowed: Duration,
    pub used: Duration,
}

impl GameClock {
    pub fn new(white: EngineLimits, black: EngineLimits) -> Self {
        let base = |l: &EngineLimits| l.tc.map_or(Duration::ZERO, |tc| tc.base);
        GameClock {
            remaining: [base(&white), base(&black)],
            limits: [white, black],
            moves_in_period: [0, 0],
        }
    }

    /// The search limits for `side`'s next move, with the current clock readings.
    pub fn limits_for(&self, side: Color) -> Limits {
        let own = &self.limits[idx(side)];
        let clock = own.tc.map(|tc| {
            let inc = |c: Color| {
                self.limits[idx(c)]
                    .tc
                    .map_or(Duration::ZERO, |t| t.increment)
            };
            Clock {
                white_time: self.remaining[0],
                black_time: self.remaining[1],
                white_increment: inc(Color::White),
                black_increment: inc(Color::Black),
                moves_to_go: tc.moves.map(|m| m - self.moves_in_period[idx(side)]),
            }
        });
        Limits {
            depth: own.depth,
            nodes: own.nodes,
            movetime: own.movetime_ms.map(Duration::from_millis),
            clock,
            infinite: false,
        }
    }

    /// How long `side` may take for its next move before it loses on time, if limited.
    pub fn deadline(&self, side: Color) -> Option<Duration> {
        let own = &self.limits[idx(side)];
        let margin = Duration::from_millis(own.time_margin_ms);
        let by_clock = own.tc.map(|_| self.remaining[idx(side)] + margin);
        let by_movetime = own.movetime_ms.map(|ms| Duration::from_millis(ms) + margin);
        match (by_clock, by_movetime) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Charges `side` with `used`; an error when it went past its deadline.
    pub fn charge(&mut self, side: Color, used: Duration) -> Result<(), Flagged> {
        if let Some(allowed) = self.deadline(side)
            && used > allowed
        {
            return Err(Flagged { allowed, used });
        }
        let i = idx(side);
        if let Some(tc) = self.limits[i].tc {
            self.remaining[i] = self.remaining[i].saturating_sub(used) + tc.increment;
            if let Some(m) = tc.moves {
                self.moves_in_period[i] += 1;
                if self.moves_in_period[i] == m {
                    self.moves_in_period[i] = 0;
                    self.remaining[i] += tc.base;
                }
            }
        }
        Ok(())
    }

    /// Time left on `side`'s clock (zero without a clock).
    pub fn remaining(&self, side: Color) -> Duration {
        self.remaining[idx(side)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_time_controls() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        assert_eq!(tc.moves, None);
        let tc: TimeControl = "40/1:30+1".parse().unwrap();
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.base, Duration::from_secs(90));
        assert!("abc".parse::<TimeControl>().is_err());
        assert!("0/10".parse::<TimeControl>().is_err());
        assert!("0+1".parse::<TimeControl>().is_err());
    }

    #[test]
    fn clock_adds_increment_and_period_time_and_flags() {
        let limits = EngineLimits {
            tc: Some("2/1+0.5".parse().unwrap()),
            time_margin_ms: 10,
            ..Default::default()
        };
        let mut clock = GameClock::new(limits, limits);
        clock
            .charge(Color::White, Duration::from_millis(400))
            .unwrap();
        assert_eq!(clock.remaining(Color::White), Duration::from_millis(1100));
        assert_eq!(
            clock.limits_for(Color::White).clock.unwrap().moves_to_go,
            Some(1)
        );
        clock
            .charge(Color::White, Duration::from_millis(100))
            .unwrap();
        // Second move of the period: +0.5 increment and +1 s for the new period.
        assert_eq!(clock.remaining(Color::White), Duration::from_millis(2500));
        let err = clock
            .charge(Color::Black, Duration::from_millis(1011))
            .unwrap_err();
        assert_eq!(err.allowed, Duration::from_millis(1010));
    }

    #[test]
    fn movetime_overrun_flags() {
        let limits = EngineLimits {
            movetime_ms: Some(100),
            time_margin_ms: 0,
            ..Default::default()
        };
        let mut clock = GameClock::new(limits, limits);
        assert!(
            clock
                .charge(Color::White, Duration::from_millis(100))
                .is_ok()
        );
        assert!(
            clock
                .charge(Color::White, Duration::from_millis(101))
                .is_err()
        );
    }
}
