//! External engines spoken to over UCI: the process and its pipes ([`process`]), the text
//! protocol ([`protocol`]), the engine as the match sees it ([`engine`]) and its faults
//! ([`fault`]).

pub mod engine;
pub mod fault;
pub mod process;
pub mod protocol;

pub use engine::{SearchReply, UciEngine, UciEngineConfig};
pub use fault::{FaultKind, UciError, UciFault};
pub use process::EngineCommand;
