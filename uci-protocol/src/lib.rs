//! The UCI protocol, written once: typed messages from the GUI to the engine ([`GuiMessage`])
//! and from the engine to the GUI ([`EngineMessage`]). Each implements `FromStr` and
//! `Display`; `Display` writes the canonical line that `FromStr` reads back.
//!
//! Real GUIs and engines send extra tokens (`info ... wdl 38 925 37 ...`, `go ... bmc 0.5`):
//! `FromStr` skips unknown tokens in `go` and `info` and fails only on a known keyword with a
//! bad value. [`GuiMessage::parse_lenient`] and [`EngineMessage::parse_lenient`] never fail on
//! those either: they drop the bad field and list every skipped token and bad value as a
//! warning, for an engine to report with `info string`.
//!
//! ```
//! use uci_protocol::{GuiMessage, Go};
//! let go: GuiMessage = "go wtime 1000 btime 900 movestogo 20".parse().unwrap();
//! let GuiMessage::Go(limits) = &go else { unreachable!() };
//! assert_eq!(limits.wtime, Some(1000));
//! assert_eq!(go.to_string(), "go wtime 1000 btime 900 movestogo 20");
//! ```

mod engine_message;
mod error;
mod go;
mod gui_message;
mod info;
mod option;
mod tokens;

pub use engine_message::{EngineMessage, Status};
pub use error::ParseError;
pub use go::Go;
pub use gui_message::{GuiMessage, Registration, StartPosition};
pub use info::{Bound, Info, Score, ScoreValue};
pub use option::{OptionDecl, OptionKind};
pub use shakmaty::uci::UciMove;

/// A message read leniently, with what was skipped or dropped on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed<T> {
    pub message: T,
    /// Unknown tokens skipped and fields dropped for a bad value, in line order.
    pub warnings: Vec<ParseError>,
}
