use std::process::ExitCode;

use clap::Parser;
use harness::cli::{self, Cli};

fn main() -> ExitCode {
    // fastchess-style single-dash options and grouped --engine keys (see normalize_args).
    let cli = Cli::parse_from(harness::cli::spellings::normalize_args(
        std::env::args().collect(),
    ));
    match cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            if err.downcast_ref::<harness::UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
