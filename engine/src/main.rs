//! The `engine` binary: a UCI engine, or `engine bench [depth]` for OpenBench.
//!
//! `--all-options` makes the `uci` listing include the evaluation tables.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use engine::bench;
use engine::params::Params;
use engine::uci::Session;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let all_options = args.iter().any(|a| a == "--all-options");
    let positional: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    match positional.as_slice() {
        [] => {}
        [cmd, rest @ ..] if cmd.as_str() == "bench" => {
            let depth = match rest.first() {
                None => bench::DEFAULT_DEPTH,
                Some(text) => match text.parse::<u32>() {
                    Ok(d) if (1..=64).contains(&d) => d,
                    _ => {
                        eprintln!("engine bench: depth must be an integer in 1..=64, not '{text}'");
                        return ExitCode::from(2);
                    }
                },
            };
            let stdout = io::stdout();
            return match bench::run(&Params::default(), depth, &mut stdout.lock()) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("engine bench: {e}");
                    ExitCode::FAILURE
                }
            };
        }
        [other, ..] => {
            eprintln!(
                "engine: unknown command '{other}' (usage: engine [--all-options] | engine bench [depth])"
            );
            return ExitCode::from(2);
        }
    }

    let mut session = Session::new(Box::new(io::stdout()), all_options);
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if !session.handle_line(&line) {
            break;
        }
    }
    session.shutdown();
    let _ = io::stdout().flush();
    ExitCode::SUCCESS
}
