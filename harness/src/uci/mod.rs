//! External engines spoken to over UCI: the process and its pipes ([`process`]), the engine as
//! the match sees it ([`engine`]) and its faults ([`fault`]). The text protocol itself is the
//! `uci-protocol` crate, shared with our engine; [`commands`] builds the messages a match sends.

pub mod commands;
pub mod engine;
pub mod fault;
pub mod process;

pub use engine::{InfoLine, SearchReply, UciEngine, UciEngineConfig};
pub use fault::{FaultKind, UciError, UciFault};
pub use process::EngineCommand;
pub use uci_protocol::{OptionDecl as UciOptionSpec, OptionKind};
