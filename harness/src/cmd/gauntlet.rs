//! `harness gauntlet`: one engine against a series of opponents that differ in one key
//! (e.g. Stockfish at `option.UCI_Elo=1800,2000,...`). Each opponent is an ordinary match in
//! its own subfolder, played by the runner library; the command prints and writes the table.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::cli::match_options::{MatchArgs, build_config};
use crate::cli::spellings::{engine_groups, group_value};
use crate::cli::{exit, shell_quote};
use crate::reporters::gauntlet::{GauntletRow, markdown_table};
use crate::reporters::{Console, FastchessReport, GameLines, Progress};
use crate::runner::{Listeners, MatchConfig, Start, run_match};
use crate::{UsageError, usage_bail};

#[derive(Debug, Clone, clap::Args)]
#[command(after_help = "\
Each value of --vary is added to the second --engine (renamed NAME-VALUE) and played as its \
own match in OUT/KEY-VALUE/, with every other option as given. Running the same command again \
continues the matches not finished; with a larger --games it extends each match (its first \
games stay the same). The table (Elo from the first engine's view, 95 % \
intervals; for a key ending in Elo, the performance rating) is printed and written to \
OUT/gauntlet.md. Example: --engine name=ours --engine cmd=/usr/games/stockfish name=sf \
option.UCI_LimitStrength=true --vary option.UCI_Elo=1800,2000,2200,2400,2600")]
pub struct GauntletArgs {
    #[command(flatten)]
    pub options: MatchArgs,
    /// The key whose values make the opponents: KEY=V1,V2,... (applied to the second engine).
    #[arg(long, value_name = "KEY=V1,V2,...")]
    pub vary: String,
    /// Leave out the per-game `Started game` / `Finished game` lines.
    #[arg(long)]
    pub no_game_lines: bool,
}

/// `--vary KEY=V1,V2,...` split into the key and its values.
fn parse_vary(vary: &str) -> anyhow::Result<(String, Vec<String>)> {
    let Some((key, values)) = vary.split_once('=') else {
        usage_bail!("--vary {vary}: expected KEY=V1,V2,... (e.g. option.UCI_Elo=1800,2000)");
    };
    let key = key.trim();
    if key.is_empty() || key == "name" {
        usage_bail!("--vary {vary}: give the key that changes (not name=), e.g. option.UCI_Elo");
    }
    let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
    if let Some(empty) = values.iter().position(String::is_empty) {
        usage_bail!("--vary {vary}: value {} is empty", empty + 1);
    }
    for (i, v) in values.iter().enumerate() {
        if values[..i].contains(v) {
            usage_bail!("--vary {vary}: {v} is given twice");
        }
    }
    Ok((key.to_string(), values))
}

/// A folder name from a key and value: letters, digits, `-` and `_`.
fn folder_name(key: &str, value: &str) -> String {
    format!("{key}-{value}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// One opponent's match: the options with `key=value` added to the second engine.
struct Leg {
    opponent: String,
    value: String,
    config: MatchConfig,
    dir: PathBuf,
    start: Start,
}

fn legs(args: &GauntletArgs) -> anyhow::Result<(Vec<Leg>, PathBuf, String)> {
    let (key, values) = parse_vary(&args.vary)?;
    let groups = engine_groups(&args.options.engine);
    let [first, second] = groups.as_slice() else {
        usage_bail!(
            "harness gauntlet: give two --engine options, the engine and the opponent whose \
             {key} varies (got {})",
            groups.len()
        );
    };
    let first_name = first
        .iter()
        .find_map(|k| k.strip_prefix("name="))
        .unwrap_or("engine")
        .to_string();
    let second_name = second
        .iter()
        .find_map(|k| k.strip_prefix("name="))
        .unwrap_or("opponent")
        .to_string();
    let root = args.options.out.clone().unwrap_or_else(|| {
        Path::new("results").join(format!(
            "{}-gauntlet-{}",
            chrono::Local::now().format("%Y-%m-%d"),
            folder_name(&first_name, "").trim_end_matches('-')
        ))
    });
    let mut legs = Vec::new();
    for value in values {
        let mut keys: Vec<String> = second
            .iter()
            .filter(|k| !k.starts_with("name=") && !k.starts_with(&format!("{key}=")))
            .cloned()
            .collect();
        let opponent = format!("{second_name}-{value}");
        keys.insert(0, format!("name={opponent}"));
        keys.push(format!("{key}={value}"));
        let mut options = args.options.clone();
        options.engine = vec![group_value(first), group_value(&keys)];
        options.out = Some(root.join(folder_name(&key, &value)));
        let (config, dir) = build_config(&options)?;
        let start = if dir.join("games.csv").exists() {
            let saved = MatchConfig::load(&dir)?;
            if !same_match(&saved, &config) {
                usage_bail!(
                    "{} holds another match than this gauntlet's {opponent} (engines, limits, \
                     book, games or seed differ); choose another --out",
                    dir.display()
                );
            }
            Start::Resume
        } else {
            Start::Fresh
        };
        legs.push(Leg {
            opponent,
            value,
            config,
            dir,
            start,
        });
    }
    Ok((legs, root, key))
}

/// Whether two configurations play the same games (what may change between runs of the same
/// gauntlet: the number of games, concurrency, the command line, the report interval, the
/// recorded book hash, which the runner checks itself).
fn same_match(saved: &MatchConfig, new: &MatchConfig) -> bool {
    let mut new = new.clone();
    // More games extend the match (the runner saves the new count); fewer are refused there.
    new.games = saved.games;
    new.concurrency = saved.concurrency;
    new.command = saved.command.clone();
    new.report_every = saved.report_every;
    new.book_sha256 = saved.book_sha256.clone();
    *saved == new
}

pub fn run(args: GauntletArgs) -> anyhow::Result<ExitCode> {
    if !args.options.sprt.is_empty() {
        usage_bail!("--sprt: a gauntlet measures each opponent with a fixed number of games");
    }
    let (legs, root, key) = legs(&args)?;
    std::fs::create_dir_all(&root)
        .map_err(|e| UsageError(format!("--out {}: {e}", root.display())))?;
    let stop = crate::interrupt::stop_flag();
    let engine = legs[0].config.engines[0].name.clone();
    println!(
        "Gauntlet: {engine} against {} opponents ({key} = {}), results in {}",
        legs.len(),
        legs.iter()
            .map(|l| l.value.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        root.display()
    );
    let mut rows = Vec::new();
    let mut code = ExitCode::SUCCESS;
    for (k, leg) in legs.iter().enumerate() {
        println!(
            "\n=== opponent {} of {}: {} ({key} = {})",
            k + 1,
            legs.len(),
            leg.opponent,
            leg.value
        );
        let progress = Progress::new(std::io::stderr().is_terminal());
        let mut bar = &progress;
        let report = FastchessReport::new(
            &leg.config,
            None,
            leg.config.report_every,
            std::io::stdout(),
        );
        let lines = (!args.no_game_lines).then(|| GameLines::new(std::io::stdout()));
        let mut console = Console::new(&progress, leg.dir.clone(), lines, report);
        let mut listeners = Listeners::new();
        listeners.push(&mut bar);
        listeners.push(&mut console);
        let outcome = run_match(&leg.config, &leg.dir, leg.start, stop, &mut listeners)?;
        drop(listeners);
        rows.push(GauntletRow {
            opponent: leg.opponent.clone(),
            value: leg.value.clone(),
            summary: outcome.summary.clone(),
            dir: leg.dir.clone(),
        });
        if let Some(why) = &outcome.run.fault_stop {
            println!("Stopped: {why}");
            code = ExitCode::from(exit::FAULT_STOP);
            break;
        }
        if outcome.run.interrupted {
            code = ExitCode::from(exit::INTERRUPTED);
            break;
        }
    }
    let table = markdown_table(&engine, &key, &rows);
    println!("\n{table}");
    let command: Vec<String> = std::env::args().map(|a| shell_quote(&a)).collect();
    let text = format!(
        "# Gauntlet of {engine}\n\n{table}\nCommand: `{}`\n",
        command.join(" ")
    );
    let path = root.join("gauntlet.md");
    std::fs::File::create(&path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
    println!("Table in {}", path.display());
    if rows.len() < legs.len() {
        println!(
            "{} of {} opponents played; run the same command again to continue",
            rows.len(),
            legs.len()
        );
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vary_is_a_key_and_distinct_values() {
        let (key, values) = parse_vary("option.UCI_Elo=1800, 2000,2200").unwrap();
        assert_eq!(key, "option.UCI_Elo");
        assert_eq!(values, ["1800", "2000", "2200"]);
        for bad in ["1800", "=1800", "name=a,b", "x=1,,2", "x=1,1"] {
            let err = parse_vary(bad).unwrap_err().to_string();
            assert!(err.starts_with(&format!("--vary {bad}")), "{bad}: {err}");
        }
    }

    #[test]
    fn folder_names_are_plain() {
        assert_eq!(folder_name("option.UCI_Elo", "1800"), "option_UCI_Elo-1800");
    }
}
