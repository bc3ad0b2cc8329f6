//! The first engine's counts from games.csv rows: every finished game in the trinomial,
//! complete pairs in the pentanomial, from the rows [`super::csv_rows`] reads. `harness report`
//! and `harness elo --results` count through here.

use std::collections::HashMap;

use crate::game::GameResult;
use crate::output::GameRow;
use crate::stats::{Pentanomial, Trinomial};

/// Whose view the counts take: `declared` (from `--engine`, summary.json or the
/// configuration) when it played a game here, else White of the first game of the first pair
/// (the match runner gives the first engine White there, as fastchess does).
pub fn first_engine(rows: &[GameRow], declared: Option<&str>) -> Option<String> {
    if let Some(name) = declared
        && rows.iter().any(|r| r.white == name || r.black == name)
    {
        return Some(name.to_string());
    }
    rows.iter()
        .min_by_key(|r| (r.pair, r.game))
        .map(|r| r.white.clone())
}

/// `engine`'s points in a game it played with this result, doubled (0, 1 or 2).
pub fn points_x2(row: &GameRow, result: GameResult, engine: &str) -> u8 {
    let white = result.white_points_x2();
    if row.white == engine {
        white
    } else {
        2 - white
    }
}

/// The first engine's counts over the finished games of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FirstEngineCounts {
    pub first: String,
    /// The other engine (empty when no game was counted).
    pub second: String,
    pub trinomial: Trinomial,
    /// Pairs whose two games both finished.
    pub pentanomial: Pentanomial,
    /// Finished games of complete pairs.
    pub paired_games: u64,
    /// Rows left out because their game did not finish (result `*`).
    pub unfinished: u64,
}

impl FirstEngineCounts {
    /// Finished games counted.
    pub fn games(&self) -> u64 {
        self.trinomial.wins + self.trinomial.draws + self.trinomial.losses
    }
}

/// Counts `rows` from `first`'s view in file order; `after_game` sees the counts after each
/// finished game and whether it completed a pair (a pair is complete when exactly two of its
/// games finished; it counts when the second is read). A row not between `first` and the one
/// other engine is a [`UsageError`].
pub fn count_first_engine(
    rows: &[GameRow],
    first: &str,
    mut after_game: impl FnMut(&FirstEngineCounts, bool),
) -> anyhow::Result<FirstEngineCounts> {
    let mut counts = FirstEngineCounts {
        first: first.to_string(),
        second: rows
            .iter()
            .flat_map(|r| [&r.white, &r.black])
            .find(|name| *name != first)
            .cloned()
            .unwrap_or_default(),
        ..Default::default()
    };
    let mut finished_in_pair: HashMap<u64, u32> = HashMap::new();
    for row in rows.iter().filter(|r| r.outcome().is_some()) {
        *finished_in_pair.entry(row.pair).or_default() += 1;
    }
    let mut half_pairs: HashMap<u64, u8> = HashMap::new();
    for row in rows {
        let Some(result) = row.outcome() else {
            counts.unfinished += 1;
            continue;
        };
        let (a, b) = (counts.first.as_str(), counts.second.as_str());
        if !((row.white == a && row.black == b) || (row.white == b && row.black == a)) {
            crate::usage_bail!(
                "game {} is {} vs {}, but these games are {a} vs {b}; counts cover two engines",
                row.game,
                row.white,
                row.black
            );
        }
        let points = points_x2(row, result, first);
        counts.trinomial.add_game(points);
        let mut completed = false;
        if finished_in_pair[&row.pair] == 2 {
            match half_pairs.remove(&row.pair) {
                None => {
                    half_pairs.insert(row.pair, points);
                }
                Some(other) => {
                    counts.pentanomial.add_pair(other + points);
                    counts.paired_games += 2;
                    completed = true;
                }
            }
        }
        after_game(&counts, completed);
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::UsageError;

    fn game(game: u64, pair: u64, white: &str, black: &str, result: &str) -> GameRow {
        GameRow {
            game,
            pair,
            opening_index: 0,
            opening_fen: String::new(),
            white: white.into(),
            black: black.into(),
            result: result.into(),
            termination: String::new(),
            plies: 0,
            final_fen: String::new(),
            white_nodes: 0,
            black_nodes: 0,
            white_time_ms: 0,
            black_time_ms: 0,
        }
    }

    #[test]
    fn complete_pairs_only_in_the_pentanomial() {
        let rows = [
            game(1, 0, "b", "a", "0-1"),
            game(0, 0, "a", "b", "1-0"),
            game(2, 1, "a", "b", "1/2-1/2"),
            game(3, 1, "b", "a", "*"),
            game(4, 2, "a", "b", "0-1"),
        ];
        assert_eq!(first_engine(&rows, None).as_deref(), Some("a"));
        assert_eq!(first_engine(&rows, Some("b")).as_deref(), Some("b"));
        assert_eq!(first_engine(&rows, Some("z")).as_deref(), Some("a"));
        let mut completed = Vec::new();
        let c = count_first_engine(&rows, "a", |_, done| completed.push(done)).unwrap();
        assert_eq!(completed, [false, true, false, false]);
        assert_eq!(c.second, "b");
        assert_eq!(c.trinomial, Trinomial::new(2, 1, 1));
        assert_eq!(c.pentanomial.counts, [0, 0, 0, 0, 1]);
        assert_eq!((c.paired_games, c.unfinished, c.games()), (2, 1, 4));
        let c = count_first_engine(&rows, "b", |_, _| {}).unwrap();
        assert_eq!(c.pentanomial.counts, [1, 0, 0, 0, 0]);
    }

    #[test]
    fn a_third_engine_is_an_error() {
        let rows = [game(0, 0, "a", "b", "1-0"), game(1, 0, "c", "a", "1-0")];
        let err = count_first_engine(&rows, "a", |_, _| {}).unwrap_err();
        assert!(err.to_string().contains("game 1 is c vs a"), "{err}");
        assert!(err.downcast_ref::<UsageError>().is_some());
    }
}
