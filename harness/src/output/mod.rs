//! What a run writes: games.csv, games.pgn, the configuration and summary.json.
//! Each game is written and flushed as it ends, so a crash loses nothing already played.

pub mod counts;
pub mod csv_rows;
pub mod pgn;
pub mod summary;

pub use csv_rows::{GameRow, GamesCsv, GamesCsvRows, read_games_csv};
pub use pgn::{GamesPgn, PgnHeader, format_game};
pub use summary::{read_summary_wall_seconds, write_json, write_summary};
