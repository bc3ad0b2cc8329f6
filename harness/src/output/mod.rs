//! What a run writes: games.csv, games.pgn, the configuration and summary.json.
//! Each game is written and flushed as it ends, so a crash loses nothing already played.

pub mod csv_rows;
pub mod folder;
pub mod pgn;
pub mod summary;

pub use csv_rows::{GameRow, GamesCsv, GamesCsvRows, RowResult, read_games_csv};
pub use folder::FolderWriter;
pub use pgn::{GamesPgn, PgnHeader, format_game};
pub use summary::{
    RunEnd, SummaryFile, check_writable, write_atomically, write_bytes_atomically, write_json,
};
