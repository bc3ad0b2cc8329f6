//! The `engine` binary: a UCI engine, or `engine bench [depth]` for OpenBench.
//!
//! `--all-options` makes the `uci` listing include the evaluation tables. `engine perft [depth]`
//! measures move generation on the start position: shakmaty's own perft, and the search's
//! move path (copy-make with incremental keys, checked at every node).

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
        [cmd, rest @ ..] if cmd.as_str() == "perft" => {
            let depth = rest
                .first()
                .and_then(|t| t.parse::<u32>().ok())
                .unwrap_or(5);
            perft_speed(depth.clamp(1, 7));
            return ExitCode::SUCCESS;
        }
        [other, ..] => {
            eprintln!(
                "engine: unknown command '{other}' (usage: engine [--all-options] | engine bench [depth] | engine perft [depth])"
            );
            return ExitCode::from(2);
        }
    }

    let mut session = Session::new(Box::new(io::stdout()), all_options);
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    // Bytes, not `lines()`: a line that is not UTF-8 is reported, not the end of input.
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if !session.handle_bytes(text) {
            break;
        }
    }
    session.shutdown();
    let _ = io::stdout().flush();
    ExitCode::SUCCESS
}

fn perft_speed(depth: u32) {
    use shakmaty::Chess;
    use std::time::Instant;
    let pos = Chess::default();
    let start = Instant::now();
    let nodes = shakmaty::perft(&pos, depth);
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    println!(
        "shakmaty perft {depth}: {nodes} nodes {:.0} nps",
        nodes as f64 / secs
    );
    let start = Instant::now();
    let nodes = engine::search::perft(&pos, depth);
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    println!(
        "search move path perft {depth}: {nodes} nodes {:.0} nps",
        nodes as f64 / secs
    );
}
