//! The `engine` binary: a UCI engine, or `engine bench [depth]` for OpenBench.
//!
//! `engine spsa-input [--params LIST]` prints OpenBench's SPSA input for the registry's
//! parameters (default: the `search` group), with their registry ranges and steps.
//!
//! `--all-options` makes the `uci` listing include the evaluation tables. `engine perft [depth]`
//! measures move generation on the start position: shakmaty's own perft, and the search's
//! move path (copy-make with incremental keys, checked at every node).

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::process::ExitCode;

use engine::bench;
use engine::params::Params;
use engine::uci::Session;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "spsa-input") {
        return spsa_input(&args[1..]);
    }
    let all_options = args.iter().any(|a| a == "--all-options");
    let positional: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    match positional.as_slice() {
        [] => {}
        [cmd, rest @ ..] if cmd.as_str() == "bench" => {
            // `engine bench [depth] [name=value ...]`: the assignments measure a variant
            // (OpenBench sends plain `bench`, whose count is the defaults'); `EvalFile=PATH`
            // measures another network, as the UCI option of that name loads it.
            let (assignments, rest): (Vec<&&String>, Vec<&&String>) =
                rest.iter().partition(|a| a.contains('='));
            let mut params = Params::default();
            let mut network = None;
            for assignment in assignments {
                let loaded = match assignment.split_once('=') {
                    Some((name, path)) if name.eq_ignore_ascii_case("EvalFile") => {
                        engine::eval::nnue::load(Path::new(path))
                            .map(|net| network = Some(net))
                            .map_err(|e| format!("EvalFile {e}"))
                    }
                    _ => params.set_assignment(assignment).map_err(|e| e.to_string()),
                };
                if let Err(e) = loaded {
                    eprintln!("engine bench: {e}");
                    return ExitCode::from(2);
                }
            }
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
            return match bench::run_with_network(&params, network, depth, &mut stdout.lock()) {
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
                "engine: unknown command '{other}' (usage: engine [--all-options] | engine bench [depth] [name=value ...] [EvalFile=PATH] | engine perft [depth] | engine spsa-input [--params LIST])"
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

/// `engine spsa-input [--params LIST]`: one OpenBench input line per selected parameter.
fn spsa_input(args: &[String]) -> ExitCode {
    let mut list = engine::params::search::GROUP.to_string();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let value = match arg.strip_prefix("--params") {
            Some("") => rest.next().cloned(),
            Some(inline) if inline.starts_with('=') => Some(inline[1..].to_string()),
            _ => {
                eprintln!(
                    "engine spsa-input: unexpected argument '{arg}' (usage: engine spsa-input [--params NAME,GROUP,PREFIX*,...])"
                );
                return ExitCode::from(2);
            }
        };
        let Some(value) = value else {
            eprintln!(
                "engine spsa-input: --params needs a value (names, groups search|switches|eval|all, or prefix*, separated by commas)"
            );
            return ExitCode::from(2);
        };
        list = value;
    }
    match engine::params::select(&list) {
        Ok(ids) => {
            print!("{}", engine::params::spsa_input(&ids, &Params::default()));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("engine spsa-input: --params {list}: {e}");
            ExitCode::from(2)
        }
    }
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
