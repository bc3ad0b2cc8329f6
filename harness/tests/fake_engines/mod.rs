//! The fake UCI engine of the fault tests: the workspace's `fake-uci` binary
//! (`harness/src/bin/fake_uci/`, see `fake-uci --help` for its modes).
#![allow(dead_code)]

use std::path::PathBuf;

use harness::uci::EngineCommand;

/// The `fake-uci` binary Cargo built for these tests.
pub fn fake_uci() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_fake-uci"))
}

/// `fake-uci --mode MODE EXTRA...`.
pub fn fake_command(mode: &str, extra: &[&str]) -> EngineCommand {
    let mut command = EngineCommand::new(fake_uci());
    command.args = ["--mode", mode]
        .iter()
        .chain(extra)
        .map(|s| s.to_string())
        .collect();
    command
}
