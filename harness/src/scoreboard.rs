//! The one scoreboard: every place that shows or uses the counts of a match (the live report,
//! `--resume`, `harness elo --results`, summary.json, the report, SPSA, workers) feeds its
//! game rows through a [`Scoreboard`], so they cannot disagree.
//!
//! Counts are from the first engine's view and cover complete pairs only: a game counts when
//! the other game of its pair has finished too, so `Games` is always twice the pentanomial
//! pairs and the trinomial, pentanomial and terminations describe the same games. Faults are
//! diagnostics, not statistics: they count from the game that had them. A
//! row is skipped, with a note naming it, when it repeats a game already counted, belongs to
//! a pair outside the match, is not between the two engines, does not agree with its pair, or
//! did not finish.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::game::{GameResult, Termination};
use std::path::Path;

use crate::output::{GameRow, GamesCsvRows};
use crate::stats::{Pentanomial, SprtConfig, Summary, Trinomial, summarize};
use crate::uci::FaultKind;

/// What happened to a row given to [`Scoreboard::add`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Counted {
    /// Counted; the other game of its pair has not finished yet.
    HalfPair,
    /// Counted, and it completed pair `pair`, in which the first engine scored
    /// `points_x2` (0 to 4: the pentanomial index).
    PairComplete { pair: u64, points_x2: u8 },
    /// Not counted: why, as a note naming the game (and the file line when known).
    Skipped(String),
}

/// One counted game of a pair still waiting for its partner.
#[derive(Clone, Debug)]
struct HalfPair {
    points_x2: u8,
    termination: Termination,
}

/// Counts of a match from the first engine's view.
#[derive(Clone, Debug)]
pub struct Scoreboard {
    first: String,
    second: String,
    /// Pairs in the match: rows of pairs at or beyond it are skipped. `None`: any pair.
    pairs_in_match: Option<u64>,
    /// Every game index counted (complete or half pairs).
    games_seen: HashSet<u64>,
    half_pairs: HashMap<u64, HalfPair>,
    trinomial: Trinomial,
    pentanomial: Pentanomial,
    terminations: BTreeMap<Termination, u64>,
    faults: BTreeMap<String, BTreeMap<FaultKind, u64>>,
    skipped: Vec<String>,
}

impl Scoreboard {
    /// An empty scoreboard of `first` against `second` for a match of `pairs_in_match` pairs
    /// (`None` when unknown).
    pub fn new(first: &str, second: &str, pairs_in_match: Option<u64>) -> Scoreboard {
        Scoreboard {
            first: first.to_string(),
            second: second.to_string(),
            pairs_in_match,
            games_seen: HashSet::new(),
            half_pairs: HashMap::new(),
            trinomial: Trinomial::default(),
            pentanomial: Pentanomial::default(),
            terminations: BTreeMap::new(),
            faults: BTreeMap::new(),
            skipped: Vec::new(),
        }
    }

    /// The first engine, whose view the counts take.
    pub fn first(&self) -> &str {
        &self.first
    }

    /// The second engine.
    pub fn second(&self) -> &str {
        &self.second
    }

    /// Counts one game row. `where_from` names its origin in a skip note (`games.csv:12`).
    pub fn add(&mut self, row: &GameRow, where_from: Option<&str>) -> Counted {
        match self.check(row) {
            Err(why) => {
                let note = match where_from {
                    Some(at) => format!("{at}: game {} skipped: {why}", row.game),
                    None => format!("game {} skipped: {why}", row.game),
                };
                self.skipped.push(note.clone());
                Counted::Skipped(note)
            }
            Ok(result) => {
                self.games_seen.insert(row.game);
                let termination = row.termination.unwrap_or(Termination::Checkmate);
                if let Some(kind) = termination.fault() {
                    let engine = faulting_engine(row, result).to_string();
                    *self
                        .faults
                        .entry(engine)
                        .or_default()
                        .entry(kind)
                        .or_default() += 1;
                }
                let this = HalfPair {
                    points_x2: self.points_x2(row, result),
                    termination,
                };
                match self.half_pairs.remove(&row.pair) {
                    None => {
                        self.half_pairs.insert(row.pair, this);
                        Counted::HalfPair
                    }
                    Some(other) => {
                        let points_x2 = other.points_x2 + this.points_x2;
                        for game in [other, this] {
                            self.trinomial.add_game(game.points_x2);
                            *self.terminations.entry(game.termination).or_default() += 1;
                        }
                        self.pentanomial.add_pair(points_x2);
                        Counted::PairComplete {
                            pair: row.pair,
                            points_x2,
                        }
                    }
                }
            }
        }
    }

    /// Counts the rows read from the games.csv at `path`, each skip note naming its line;
    /// returns the rows counted (complete and half pairs), in file order.
    pub fn add_csv_rows(&mut self, found: &GamesCsvRows, path: &Path) -> Vec<GameRow> {
        let mut counted = Vec::new();
        for (row, line) in found.rows.iter().zip(&found.lines) {
            let at = format!("{}:{line}", path.display());
            if !matches!(self.add(row, Some(&at)), Counted::Skipped(_)) {
                counted.push(row.clone());
            }
        }
        counted
    }

    /// Whether both games of pair `pair` have been counted.
    pub fn pair_complete(&self, pair: u64) -> bool {
        self.has_game(2 * pair) && self.has_game(2 * pair + 1)
    }

    /// Why `row` cannot count, or its result.
    fn check(&self, row: &GameRow) -> Result<GameResult, String> {
        let Some(result) = row.outcome() else {
            return Err("the game did not finish (result *)".into());
        };
        if row.pair != row.game / 2 {
            return Err(format!(
                "it names pair {}, but game {} belongs to pair {}",
                row.pair,
                row.game,
                row.game / 2
            ));
        }
        if let Some(pairs) = self.pairs_in_match
            && row.pair >= pairs
        {
            return Err(format!(
                "pair {} is not in this match of {pairs} pairs",
                row.pair
            ));
        }
        let (a, b) = (self.first.as_str(), self.second.as_str());
        if !((row.white == a && row.black == b) || (row.white == b && row.black == a)) {
            return Err(format!(
                "it is {} vs {}, but this match is {a} vs {b}",
                row.white, row.black
            ));
        }
        if self.games_seen.contains(&row.game) {
            return Err("it was counted already (a repeated row)".into());
        }
        Ok(result)
    }

    /// The first engine's doubled points in `row`'s game.
    fn points_x2(&self, row: &GameRow, result: GameResult) -> u8 {
        let white = result.white_points_x2();
        if row.white == self.first {
            white
        } else {
            2 - white
        }
    }

    /// Games of complete pairs (twice the pairs).
    pub fn games(&self) -> u64 {
        self.trinomial.games()
    }

    /// Complete pairs.
    pub fn pairs(&self) -> u64 {
        self.pentanomial.pairs()
    }

    /// Games counted whose pair partner has not finished.
    pub fn half_pair_games(&self) -> u64 {
        self.half_pairs.len() as u64
    }

    /// Whether game `game` has been counted (in a complete or a half pair).
    pub fn has_game(&self, game: u64) -> bool {
        self.games_seen.contains(&game)
    }

    /// Every game index counted.
    pub fn games_counted(&self) -> &HashSet<u64> {
        &self.games_seen
    }

    pub fn trinomial(&self) -> &Trinomial {
        &self.trinomial
    }

    pub fn pentanomial(&self) -> &Pentanomial {
        &self.pentanomial
    }

    /// Games of complete pairs by how they ended.
    pub fn terminations(&self) -> &BTreeMap<Termination, u64> {
        &self.terminations
    }

    /// Per engine: games it lost by each fault (every game counted, half pairs included).
    pub fn faults(&self) -> &BTreeMap<String, BTreeMap<FaultKind, u64>> {
        &self.faults
    }

    /// Notes on the rows that were not counted, in the order given.
    pub fn skipped(&self) -> &[String] {
        &self.skipped
    }

    /// The statistics of the complete pairs.
    pub fn summary(&self, sprt: Option<&SprtConfig>) -> Summary {
        summarize(&self.trinomial, Some(&self.pentanomial), sprt)
    }

    /// `Terminations: checkmate 12, threefold 3` (complete pairs).
    pub fn terminations_line(&self) -> String {
        let parts: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, v)| format!("{} {v}", k.as_str()))
            .collect();
        format!(
            "Terminations: {}",
            if parts.is_empty() {
                "none".into()
            } else {
                parts.join(", ")
            }
        )
    }

    /// `Faults: sf disconnect 1, time_forfeit 2; ours none`
    pub fn faults_line(&self) -> String {
        let parts: Vec<String> = [&self.first, &self.second]
            .into_iter()
            .map(|name| match self.faults.get(name) {
                Some(kinds) if !kinds.is_empty() => {
                    let counts: Vec<String> = kinds
                        .iter()
                        .map(|(k, n)| format!("{} {n}", k.termination()))
                        .collect();
                    format!("{name} {}", counts.join(", "))
                }
                _ => format!("{name} none"),
            })
            .collect();
        format!("Faults: {}", parts.join("; "))
    }
}

/// The engine that lost `row`'s game by a fault: the loser, or on a draw (a flag against a
/// bare king) the side to move in the final position.
fn faulting_engine(row: &GameRow, result: GameResult) -> &str {
    let white_at_fault = match result {
        GameResult::WhiteWins => false,
        GameResult::BlackWins => true,
        GameResult::Draw => row.final_fen.split_whitespace().nth(1) == Some("w"),
    };
    if white_at_fault {
        &row.white
    } else {
        &row.black
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::RowResult;

    fn row(game: u64, white: &str, black: &str, result: RowResult) -> GameRow {
        GameRow {
            game,
            pair: game / 2,
            opening_index: 0,
            opening_fen: String::new(),
            white: white.into(),
            black: black.into(),
            result,
            termination: (result != RowResult::Unfinished).then_some(Termination::Checkmate),
            plies: 0,
            final_fen: "8/8/8/8/8/8/8/K1k5 w - - 0 1".into(),
            white_nodes: 0,
            black_nodes: 0,
            white_time_ms: 0,
            black_time_ms: 0,
        }
    }

    #[test]
    fn complete_pairs_only_and_pentanomial_index() {
        let mut board = Scoreboard::new("a", "b", Some(3));
        assert_eq!(
            board.add(&row(1, "b", "a", RowResult::BlackWins), None),
            Counted::HalfPair
        );
        assert_eq!(board.games(), 0);
        assert_eq!(
            board.add(&row(0, "a", "b", RowResult::Draw), None),
            Counted::PairComplete {
                pair: 0,
                points_x2: 3
            }
        );
        assert_eq!(board.games(), 2);
        assert_eq!(board.pentanomial().counts, [0, 0, 0, 1, 0]);
        assert_eq!(*board.trinomial(), Trinomial::new(1, 1, 0));
        board.add(&row(2, "a", "b", RowResult::WhiteWins), None);
        assert_eq!((board.games(), board.half_pair_games()), (2, 1));
        assert!(board.has_game(2) && !board.has_game(3));
    }

    #[test]
    fn damaged_rows_are_skipped_and_named() {
        let mut board = Scoreboard::new("a", "b", Some(2));
        board.add(&row(0, "a", "b", RowResult::WhiteWins), Some("games.csv:2"));
        let again = board.add(&row(0, "a", "b", RowResult::BlackWins), Some("games.csv:3"));
        assert!(
            matches!(&again, Counted::Skipped(n) if n.contains("games.csv:3") && n.contains("repeated")),
            "{again:?}"
        );
        let outside = board.add(&row(4, "a", "b", RowResult::WhiteWins), None);
        assert!(
            matches!(&outside, Counted::Skipped(n) if n.contains("pair 2 is not in this match"))
        );
        let stranger = board.add(&row(1, "c", "a", RowResult::WhiteWins), None);
        assert!(matches!(&stranger, Counted::Skipped(n) if n.contains("c vs a")));
        let unfinished = board.add(&row(1, "b", "a", RowResult::Unfinished), None);
        assert!(matches!(&unfinished, Counted::Skipped(n) if n.contains("did not finish")));
        let mut wrong_pair = row(1, "b", "a", RowResult::Draw);
        wrong_pair.pair = 5;
        assert!(matches!(board.add(&wrong_pair, None), Counted::Skipped(_)));
        assert_eq!(board.skipped().len(), 5);
        assert_eq!(board.games(), 0);
        board.add(&row(1, "b", "a", RowResult::Draw), None);
        assert_eq!(board.games(), 2);
        assert_eq!(board.pentanomial().counts, [0, 0, 0, 1, 0]);
    }

    #[test]
    fn faults_count_against_the_engine_at_fault() {
        let mut board = Scoreboard::new("ours", "sf", None);
        let mut lost = row(0, "ours", "sf", RowResult::WhiteWins);
        lost.termination = Some(Termination::Disconnect);
        let mut flagged = row(1, "sf", "ours", RowResult::Draw);
        flagged.termination = Some(Termination::TimeForfeit);
        board.add(&lost, None);
        board.add(&flagged, None);
        assert_eq!(
            board.faults_line(),
            "Faults: ours none; sf disconnects 1, time forfeit 1"
        );
        assert_eq!(
            board.terminations_line(),
            "Terminations: time_forfeit 1, disconnect 1"
        );
    }
}
