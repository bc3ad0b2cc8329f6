//! One game of a committed pair as the store keeps it (the pair's `games` JSON is an array of
//! these, game order): the games.csv row, the moves, and the game's PGN text, so an export
//! writes the same files a local match writes.

use serde::{Deserialize, Serialize};

use crate::output::GameRow;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredGame {
    /// The games.csv row.
    pub row: GameRow,
    /// Moves in UCI notation from the opening position (book moves first).
    pub moves: Vec<String>,
    /// How the game ended, as cutechess words it.
    pub reason: String,
    /// The game as games.pgn records it.
    pub pgn: String,
}

impl StoredGame {
    /// The games of one stored pair, checked: two games, of that pair, in game order.
    pub fn pair_from_json(pair: u64, games: &serde_json::Value) -> anyhow::Result<Vec<StoredGame>> {
        let games: Vec<StoredGame> = serde_json::from_value(games.clone())
            .map_err(|e| anyhow::anyhow!("pair {pair}: stored games are malformed: {e}"))?;
        let expected = [2 * pair, 2 * pair + 1];
        let found: Vec<u64> = games.iter().map(|g| g.row.game).collect();
        if found != expected {
            anyhow::bail!("pair {pair}: stored games are {found:?}, expected games {expected:?}");
        }
        Ok(games)
    }
}
