//! What a run writes: games.csv, games.pgn, the configuration and summary.json.
