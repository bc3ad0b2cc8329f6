//! Listeners that show a run to people and tools: the progress bar ([`progress`]), the
//! fastchess report block ([`fastchess`]), per-game lines as cutechess and fastchess print
//! them ([`game_lines`]), the last three together under the bar as a person's console
//! ([`console`]), and a JSON-lines event stream ([`json_events`]). Each is a
//! [`crate::runner::Listener`]; commands choose which to attach.

pub mod console;
pub mod fastchess;
pub mod game_lines;
pub mod gauntlet;
pub mod json_events;
pub mod progress;

pub use console::Console;
pub use fastchess::{FastchessReport, bench_line, report_block};
pub use game_lines::GameLines;
pub use json_events::JsonEvents;
pub use progress::Progress;
