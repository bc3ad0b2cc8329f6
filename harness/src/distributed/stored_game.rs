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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::RowResult;

    fn game(index: u64) -> StoredGame {
        StoredGame {
            row: GameRow {
                game: index,
                pair: index / 2,
                opening_index: 3,
                opening_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
                white: "a".into(),
                black: "b".into(),
                result: RowResult::Draw,
                termination: Some(crate::game::Termination::Threefold),
                plies: 2,
                final_fen: "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".into(),
                white_nodes: 10,
                black_nodes: 12,
                white_time_ms: 1,
                black_time_ms: 2,
            },
            moves: vec!["e2e4".into(), "e7e5".into()],
            reason: "Draw by 3-fold repetition".into(),
            pgn: "[Event \"x\"]\n\n1. e4 e5 1/2-1/2\n\n".into(),
        }
    }

    #[test]
    fn a_pair_reads_back_and_wrong_games_are_refused() {
        let json = serde_json::to_value([game(6), game(7)]).unwrap();
        assert_eq!(
            StoredGame::pair_from_json(3, &json).unwrap(),
            vec![game(6), game(7)]
        );
        let err = StoredGame::pair_from_json(2, &json)
            .unwrap_err()
            .to_string();
        assert!(err.contains("pair 2") && err.contains("[6, 7]"), "{err}");
        let swapped = serde_json::to_value([game(7), game(6)]).unwrap();
        assert!(StoredGame::pair_from_json(3, &swapped).is_err());
        let err = StoredGame::pair_from_json(3, &serde_json::json!([{"row": 1}]))
            .unwrap_err()
            .to_string();
        assert!(err.contains("malformed"), "{err}");
    }
}
