//! `harness match` options (also used by `harness bench match`, `datagen`, `spsa`): the clap
//! arguments and their translation into the typed [`MatchConfig`], in one place.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use engine::params::Params;

use super::external_engine::take_external_key;
use super::key_value::{check_range, key_values, parse_bool, parse_in_range, parse_value, usage};
use super::spellings::engine_groups;
use crate::book::{BookFormat, BookOrder, BookSpec, DEFAULT_BOOK, OnBadEntry, default_book_path};
use crate::game::time_control::DEFAULT_TIME_MARGIN_MS;
use crate::game::{DrawRule, EngineLimits, GameRules, ResignRule, TimeControl};
use crate::runner::config::DEFAULT_NODES;
use crate::runner::external::ExternalSpec;
use crate::runner::{EngineConfig, MatchConfig, SprtSettings};
use crate::stats::EloModel;
use crate::usage_bail;

/// Games of the no-argument match (the README's first command).
pub const DEFAULT_GAMES: u64 = 200;
/// Upper bound on games of an SPRT run without `--games`.
pub const SPRT_MAX_GAMES: u64 = 200_000;

#[derive(Debug, Clone, Default, clap::Args)]
#[command(after_help = "\
Engine and --each keys: name=NAME file=PARAMS.toml tc=[MOVES/]BASE[+INC] nodes=N depth=N \
st=SECONDS movetime=MS timemargin=MS, and any engine parameter as NAME=VALUE.
External UCI engines: cmd=PATH [args=\"A B\"] [dir=DIR] option.NAME=VALUE ..., or git=REF \
(a branch, tag or commit; git=WORKTREE for the work tree with its changes), built with cargo \
and cached under target/harness-builds/; their NAME=VALUE keys are sent with setoption. \
--recover restarts an engine after a crash, hang or stall; without it the match stops there.
Single-dash spellings of fastchess/cutechess-cli (-engine, -each, -openings, -games, -rounds, \
-concurrency, -sprt, -draw, -resign, -pgnout, -repeat, -maxmoves, -srand) are accepted.
Without arguments: the default engine against qsearch_check_plies=0, 200 games at 1000 nodes \
from the shipped book, written to results/<date>-<names>/.")]
pub struct MatchArgs {
    /// An engine: name=NAME [file=PARAMS.toml] [tc=|nodes=|depth=|st=|movetime=] [PARAM=VALUE ...]. Give two.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// Keys applied to both engines (an engine's own keys win).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Opening book: file=PATH [format=epd|pgn] [order=sequential|random] [plies=N] [start=N] [errors=fail|skip].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub openings: Vec<String>,
    /// Number of games (per round). Rounded up to an even number: openings are played in pairs.
    #[arg(long)]
    pub games: Option<u64>,
    /// Number of rounds; the match plays rounds × games games.
    #[arg(long)]
    pub rounds: Option<u64>,
    /// Accepted for fastchess compatibility: every opening is always played with both colours.
    #[arg(long, num_args = 0..=1, value_name = "N")]
    pub repeat: Option<Option<u32>>,
    /// Games played at the same time (default: all cores).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Stop when the SPRT decides: elo0=E elo1=E [alpha=0.05] [beta=0.05] [model=normalized|logistic|bayeselo].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Vec<String>,
    /// Draw adjudication: movenumber=N movecount=M score=CP.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Vec<String>,
    /// Resign adjudication: movecount=M score=CP [twosided=true].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Vec<String>,
    /// Adjudicate a draw after this many full moves.
    #[arg(long)]
    pub maxmoves: Option<u32>,
    /// Also copy games.pgn to this file at the end (PATH or file=PATH).
    #[arg(long, num_args = 1.., value_name = "PATH")]
    pub pgnout: Vec<String>,
    /// Seed of the random book order.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Results folder (default: results/<date>-<first>-vs-<second>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Print the report every N games (default 50).
    #[arg(long)]
    pub report_every: Option<u64>,
    /// Transposition table size per engine, in MiB.
    #[arg(long)]
    pub hash: Option<usize>,
    /// After an external engine's fault (crash, hang, stall), restart it and go on; without
    /// this the match stops after that game, keeping every result.
    #[arg(long)]
    pub recover: bool,
    /// fastchess's output style: format=fastchess (default) or format=cutechess (adds
    /// cutechess-cli's `Score of A vs B: W - L - D [ratio] N` line after every game).
    #[arg(long, num_args = 1.., value_name = "format=NAME")]
    pub output: Vec<String>,
    /// fastchess's engine log: not supported (see the error for what to use).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", hide = true)]
    pub log: Vec<String>,
    /// fastchess's autosave interval: accepted; every game is saved as it ends.
    #[arg(long, value_name = "N", hide = true)]
    pub autosaveinterval: Option<u64>,
    /// fastchess's tournament type: gauntlet or roundrobin, the same with two engines.
    #[arg(long, value_name = "TYPE", hide = true)]
    pub tournament: Option<String>,
    /// fastchess's report options: penta=true is what the harness always does.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", hide = true)]
    pub report: Vec<String>,
}

/// One `--engine` or `--each` as given.
#[derive(Debug, Default, Clone)]
struct EngineOptions {
    name: Option<String>,
    file: Option<PathBuf>,
    tc: Option<TimeControl>,
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime_ms: Option<u64>,
    time_margin_ms: Option<u64>,
    assignments: Vec<String>,
    /// `cmd=`, `git=`, `args=`, `dir=` and `option.NAME=` keys of an external engine.
    external: ExternalSpec,
}

/// Most nodes a move accepted (a trillion).
const MAX_NODES: u64 = 1_000_000_000_000;
/// Most games a match may have.
pub const MAX_GAMES: u64 = 1_000_000_000;
/// Most games played at once.
pub const MAX_CONCURRENCY: usize = 4096;
/// Largest hash table per engine, in MiB.
pub const MAX_HASH_MB: usize = 65_536;

/// An engine name: not empty, and no control characters (a newline would break the PGN).
fn checked_name(option: &str, name: &str) -> anyhow::Result<String> {
    if name.is_empty() {
        usage_bail!("{option}: name= is empty; give the engine a name");
    }
    if name.chars().any(char::is_control) {
        usage_bail!(
            "{option}: name={name:?} has a control character (newline, tab...); names are one line"
        );
    }
    Ok(name.to_string())
}

fn parse_engine_options(option: &str, tokens: &[String]) -> anyhow::Result<EngineOptions> {
    let mut o = EngineOptions::default();
    for (key, value) in key_values(option, tokens)? {
        match key.as_str() {
            "name" => o.name = Some(checked_name(option, &value)?),
            "file" | "params" => o.file = Some(PathBuf::from(value)),
            // fastchess's tc=inf: no clock (another limit, such as nodes=, applies).
            "tc" if value.eq_ignore_ascii_case("inf") => o.tc = None,
            "tc" => {
                o.tc = Some(
                    value
                        .parse()
                        .map_err(|e: String| usage(format!("{option}: {e}")))?,
                )
            }
            "nodes" => o.nodes = Some(parse_in_range(option, &key, &value, 1, MAX_NODES)?),
            "depth" | "plies" => o.depth = Some(parse_in_range(option, &key, &value, 1, 255)?),
            "st" => {
                let seconds: f64 = parse_in_range(option, &key, &value, 0.001, 1_000_000.0)?;
                o.movetime_ms = Some((seconds * 1000.0).round() as u64);
            }
            "movetime" => {
                o.movetime_ms = Some(parse_in_range(option, &key, &value, 1, 1_000_000_000)?)
            }
            "timemargin" => {
                o.time_margin_ms = Some(parse_in_range(option, &key, &value, 0, 10_000_000)?)
            }
            k if take_external_key(option, &mut o.external, k, &value)? => {}
            "proto" if value == "uci" => {}
            "proto" => usage_bail!("{option}: proto={value}: only UCI engines are supported"),
            "restart" => usage_bail!(
                "{option}: restart= is not supported; engines are restarted only after a fault, with --recover"
            ),
            _ => o.assignments.push(format!("{key}={value}")),
        }
    }
    Ok(o)
}

fn engine_config(
    index: usize,
    each: &EngineOptions,
    own: &EngineOptions,
) -> anyhow::Result<EngineConfig> {
    if own.external.is_external() {
        return external_engine_config(index, each, own);
    }
    if !own.external.options.is_empty() || own.external.args.is_some() || own.external.dir.is_some()
    {
        usage_bail!(
            "--engine #{}: option.NAME=, args= and dir= are for external engines (cmd= or git=); \
             for the built-in engine give parameters as NAME=VALUE",
            index + 1
        );
    }
    let name = own
        .name
        .clone()
        .ok_or_else(|| usage(format!("--engine #{}: give it a name= ", index + 1)))?;
    let option = format!("--engine name={name}");
    let mut params = Params::default();
    for file in [&each.file, &own.file].into_iter().flatten() {
        let text = std::fs::read_to_string(file)
            .map_err(|e| usage(format!("{option}: {}: {e}", file.display())))?;
        params
            .apply_toml_str(&text, &file.display().to_string())
            .map_err(|e| usage(format!("{option}: {e}")))?;
    }
    for a in each.assignments.iter().chain(&own.assignments) {
        params
            .set_assignment(a)
            .map_err(|e| usage(format!("{option}: {e}")))?;
    }
    let mut config = EngineConfig {
        name,
        external: None,
        param_file: own.file.clone().or_else(|| each.file.clone()),
        overrides: each
            .assignments
            .iter()
            .chain(&own.assignments)
            .cloned()
            .collect(),
        limits: engine_limits(each, own),
        params: BTreeMap::new(),
    };
    config.set_params(&params);
    Ok(config)
}

/// An engine's limits: its own keys, else those of `--each`.
fn engine_limits(each: &EngineOptions, own: &EngineOptions) -> EngineLimits {
    EngineLimits {
        nodes: own.nodes.or(each.nodes),
        depth: own.depth.or(each.depth),
        movetime_ms: own.movetime_ms.or(each.movetime_ms),
        tc: own.tc.or(each.tc),
        time_margin_ms: own
            .time_margin_ms
            .or(each.time_margin_ms)
            .unwrap_or(DEFAULT_TIME_MARGIN_MS),
    }
}

/// An external engine (`cmd=` or `git=`): its options are `option.NAME=VALUE` and plain
/// `NAME=VALUE` keys (those of `--each` first), sent with `setoption`. A `git=` revision is
/// built now, before any game.
fn external_engine_config(
    index: usize,
    each: &EngineOptions,
    own: &EngineOptions,
) -> anyhow::Result<EngineConfig> {
    let name = match (&own.name, &own.external.git) {
        (Some(name), _) => name.clone(),
        (None, Some(reference)) => reference.clone(),
        (None, None) => usage_bail!("--engine #{}: give it a name= ", index + 1),
    };
    if own.file.is_some() || each.file.is_some() {
        usage_bail!(
            "--engine name={name}: file= is for the built-in engine; give an external engine's \
             parameters as NAME=VALUE or option.NAME=VALUE"
        );
    }
    let mut spec = own.external.clone();
    let plain = |assignments: &[String]| -> Vec<(String, String)> {
        assignments
            .iter()
            .filter_map(|a| {
                a.split_once('=')
                    .map(|(k, v)| (k.to_string(), v.to_string()))
            })
            .collect()
    };
    let mut options = each.external.options.clone();
    options.extend(plain(&each.assignments));
    options.append(&mut spec.options);
    options.extend(plain(&own.assignments));
    spec.options = options;
    let external = spec.resolve(&name)?;
    Ok(EngineConfig {
        overrides: external
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect(),
        name,
        external: Some(external),
        param_file: None,
        limits: engine_limits(each, own),
        params: BTreeMap::new(),
    })
}

fn book_spec(tokens: &[String]) -> anyhow::Result<BookSpec> {
    let kv = key_values("--openings", tokens)?;
    let file = kv
        .iter()
        .find(|(k, _)| k == "file")
        .map(|(_, v)| PathBuf::from(v))
        .ok_or_else(|| usage("--openings: give file=PATH"))?;
    let mut spec = match BookSpec::for_file(&file) {
        Ok(spec) => spec,
        Err(e) if kv.iter().any(|(k, _)| k == "format") => {
            let _ = e;
            BookSpec {
                file: file.clone(),
                format: BookFormat::Epd,
                plies: None,
                order: BookOrder::Sequential,
                start: 1,
                on_bad_entry: OnBadEntry::Fail,
            }
        }
        Err(e) => return Err(e.into()),
    };
    for (key, value) in kv {
        match key.as_str() {
            "file" => {}
            "format" => {
                spec.format = value
                    .parse()
                    .map_err(|e: String| usage(format!("--openings: {e}")))?
            }
            "order" => {
                spec.order = value
                    .parse()
                    .map_err(|e: String| usage(format!("--openings: {e}")))?
            }
            "plies" => spec.plies = Some(parse_value("--openings", &key, &value)?),
            "start" => spec.start = parse_value("--openings", &key, &value)?,
            "errors" => {
                spec.on_bad_entry = match value.as_str() {
                    "fail" => OnBadEntry::Fail,
                    "skip" => OnBadEntry::Skip,
                    _ => usage_bail!("--openings: errors={value} (expected fail or skip)"),
                }
            }
            "policy" => {}
            _ => usage_bail!(
                "--openings: unknown key '{key}' (expected file, format, order, plies, start, errors)"
            ),
        }
    }
    Ok(spec)
}

fn sprt_settings(tokens: &[String]) -> anyhow::Result<SprtSettings> {
    let mut s = SprtSettings {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::default().name().to_string(),
    };
    for (key, value) in key_values("--sprt", tokens)? {
        match key.as_str() {
            "elo0" => s.elo0 = parse_value("--sprt", &key, &value)?,
            "elo1" => s.elo1 = parse_value("--sprt", &key, &value)?,
            "alpha" => s.alpha = parse_value("--sprt", &key, &value)?,
            "beta" => s.beta = parse_value("--sprt", &key, &value)?,
            "model" => {
                let m: EloModel = value
                    .parse()
                    .map_err(|e: String| usage(format!("--sprt: {e}")))?;
                s.model = m.name().to_string();
            }
            _ => {
                usage_bail!("--sprt: unknown key '{key}' (expected elo0, elo1, alpha, beta, model)")
            }
        }
    }
    if s.elo0.is_nan() || s.elo1.is_nan() {
        usage_bail!("--sprt: give both elo0= and elo1=");
    }
    s.config()?;
    Ok(s)
}

fn game_rules(args: &MatchArgs) -> anyhow::Result<GameRules> {
    let mut rules = GameRules {
        max_moves: args
            .maxmoves
            .map(|m| check_range("--maxmoves", m, 1, 100_000))
            .transpose()?,
        ..Default::default()
    };
    if !args.draw.is_empty() {
        let mut rule = DrawRule {
            movenumber: 0,
            movecount: 0,
            score: 0,
        };
        let mut seen = HashSet::new();
        for (key, value) in key_values("--draw", &args.draw)? {
            match key.as_str() {
                "movenumber" => {
                    rule.movenumber = parse_in_range("--draw", &key, &value, 0, 10_000)?
                }
                "movecount" => rule.movecount = parse_in_range("--draw", &key, &value, 1, 10_000)?,
                "score" => rule.score = parse_in_range("--draw", &key, &value, 0, 100_000)?,
                _ => usage_bail!(
                    "--draw: unknown key '{key}' (expected movenumber, movecount, score)"
                ),
            }
            seen.insert(key);
        }
        for needed in ["movenumber", "movecount", "score"] {
            if !seen.contains(needed) {
                usage_bail!("--draw: give {needed}=");
            }
        }
        rules.draw = Some(rule);
    }
    if !args.resign.is_empty() {
        let mut rule = ResignRule {
            movecount: 0,
            score: 0,
            twosided: false,
        };
        let mut seen = HashSet::new();
        for (key, value) in key_values("--resign", &args.resign)? {
            match key.as_str() {
                "movecount" => {
                    rule.movecount = parse_in_range("--resign", &key, &value, 1, 10_000)?
                }
                // A positive score: the side that many centipawns behind resigns.
                "score" => rule.score = parse_in_range("--resign", &key, &value, 1, 100_000)?,
                "twosided" => rule.twosided = parse_bool("--resign", &key, &value)?,
                _ => usage_bail!(
                    "--resign: unknown key '{key}' (expected movecount, score, twosided)"
                ),
            }
            seen.insert(key);
        }
        for needed in ["movecount", "score"] {
            if !seen.contains(needed) {
                usage_bail!("--resign: give {needed}=");
            }
        }
        rules.resign = Some(rule);
    }
    Ok(rules)
}

/// Refuses a match whose hash tables alone (two engines a worker) would not fit in the
/// machine's memory.
fn check_memory(hash_mb: usize, workers: usize) -> anyhow::Result<()> {
    let Some(total_mb) = physical_memory_mb() else {
        return Ok(());
    };
    let needed = 2u64 * hash_mb as u64 * workers as u64;
    if needed > total_mb * 9 / 10 {
        usage_bail!(
            "--hash {hash_mb} with {workers} games at once needs {needed} MiB of hash tables \
             (two engines a game), more than this machine's {total_mb} MiB: lower --hash or \
             --concurrency"
        );
    }
    Ok(())
}

/// The machine's memory in MiB (Linux), if it can be read.
fn physical_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A new folder `results/<date>-<a>-vs-<b>` (with `-2`, `-3`... if taken).
fn default_out_dir(config: &MatchConfig) -> PathBuf {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let base = format!(
        "{}-{}-vs-{}",
        chrono::Local::now().format("%Y-%m-%d"),
        clean(&config.engines[0].name),
        clean(&config.engines[1].name)
    );
    let mut dir = Path::new("results").join(&base);
    let mut n = 2;
    while dir.exists() {
        dir = Path::new("results").join(format!("{base}-{n}"));
        n += 1;
    }
    dir
}

/// How per-game results are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    #[default]
    Fastchess,
    /// Also cutechess-cli's `Score of` line after every game.
    Cutechess,
}

/// The output format of `--output format=...`, and the fastchess options that are accepted
/// for compatibility (`-autosaveinterval`, `-tournament`, `-report penta=true`) or refused
/// with what to use instead (`-log`).
pub fn output_format(args: &MatchArgs) -> anyhow::Result<OutputFormat> {
    if !args.log.is_empty() {
        usage_bail!(
            "-log {}: engine communication logs are not written; the games are in games.pgn, \
             every event in --events FILE (JSON lines), and an engine's last stderr lines are \
             quoted in its fault messages",
            args.log.join(" ")
        );
    }
    if let Some(kind) = &args.tournament
        && !matches!(kind.as_str(), "gauntlet" | "roundrobin" | "round-robin")
    {
        usage_bail!(
            "-tournament {kind}: expected gauntlet or roundrobin (the same with two engines)"
        );
    }
    for (key, value) in key_values("-report", &args.report)? {
        match (key.as_str(), value.as_str()) {
            ("penta", "true") => {}
            ("penta", _) => usage_bail!(
                "-report penta={value}: the harness always counts game pairs (pentanomial, as \
                 fishtest); give penta=true or leave -report out"
            ),
            _ => usage_bail!("-report: unknown key '{key}' (expected penta=true)"),
        }
    }
    let mut format = OutputFormat::default();
    for (key, value) in key_values("--output", &args.output)? {
        format = match (key.as_str(), value.as_str()) {
            ("format", "fastchess") => OutputFormat::Fastchess,
            ("format", "cutechess") => OutputFormat::Cutechess,
            ("format", _) => {
                usage_bail!("--output: format={value} (expected fastchess or cutechess)")
            }
            _ => usage_bail!("--output: unknown key '{key}' (expected format=fastchess|cutechess)"),
        };
    }
    Ok(format)
}

/// Turns the command line into a match configuration and its results folder.
pub fn build_config(args: &MatchArgs) -> anyhow::Result<(MatchConfig, PathBuf)> {
    output_format(args)?;
    let defaults_only = args.engine.is_empty();
    let engine_tokens: Vec<Vec<String>> = if defaults_only {
        vec![
            vec!["name=base".to_string()],
            vec![
                "name=noqchecks".to_string(),
                "qsearch_check_plies=0".to_string(),
            ],
        ]
    } else {
        engine_groups(&args.engine)
    };
    if engine_tokens.len() != 2 {
        usage_bail!(
            "give exactly two --engine options (got {})",
            engine_tokens.len()
        );
    }
    let each = parse_engine_options("--each", &args.each)?;
    if each.name.is_some() {
        usage_bail!("--each: name= belongs to an --engine");
    }
    if each.external.is_external() || each.external.args.is_some() || each.external.dir.is_some() {
        usage_bail!("--each: cmd=, git=, args= and dir= belong to an --engine");
    }
    let mut engines = Vec::new();
    for (i, tokens) in engine_tokens.iter().enumerate() {
        let own = parse_engine_options(&format!("--engine #{}", i + 1), tokens)?;
        engines.push(engine_config(i, &each, &own)?);
    }
    if engines[0].name == engines[1].name {
        usage_bail!(
            "the two engines need different names (both are '{}')",
            engines[0].name
        );
    }
    for e in &mut engines {
        if !e.limits.is_limited() {
            e.limits.nodes = Some(DEFAULT_NODES);
            if !defaults_only {
                eprintln!(
                    "note: no time control for '{}': using nodes={DEFAULT_NODES} (give tc=, nodes=, depth= or st=)",
                    e.name
                );
            }
        }
    }

    let sprt = if args.sprt.is_empty() {
        None
    } else {
        Some(sprt_settings(&args.sprt)?)
    };
    if let Some(g) = args.games {
        check_range("--games", g, 1, MAX_GAMES)?;
    }
    if let Some(r) = args.rounds {
        check_range("--rounds", r, 1, MAX_GAMES)?;
    }
    let per_round = args.games.unwrap_or(if args.rounds.is_some() {
        2
    } else {
        DEFAULT_GAMES
    });
    let mut games = match (args.games, args.rounds, &sprt) {
        (None, None, Some(_)) => SPRT_MAX_GAMES,
        _ => per_round.saturating_mul(args.rounds.unwrap_or(1)),
    };
    if games > MAX_GAMES {
        usage_bail!(
            "--games {per_round} × --rounds {} = {games} games is out of range (accepted: 1 to {MAX_GAMES})",
            args.rounds.unwrap_or(1)
        );
    }
    if games % 2 == 1 {
        games += 1;
        eprintln!("note: playing {games} games: each opening is played twice, colours reversed");
    }

    // The book's path is made absolute, so --resume from another folder reads the same book.
    let book = if !args.openings.is_empty() {
        let mut spec = book_spec(&args.openings)?;
        spec.file = std::path::absolute(&spec.file).unwrap_or(spec.file);
        Some(spec)
    } else {
        match default_book_path() {
            Some(path) => Some(BookSpec::for_file(
                &std::path::absolute(&path).unwrap_or(path),
            )?),
            None => {
                eprintln!(
                    "warning: no --openings and the shipped book {DEFAULT_BOOK} was not found: \
                     every game starts from the initial position"
                );
                None
            }
        }
    };
    let pgnout = match args.pgnout.first() {
        None => None,
        Some(first) => Some(PathBuf::from(first.strip_prefix("file=").unwrap_or(first))),
    };
    let concurrency = check_range(
        "--concurrency",
        args.concurrency.unwrap_or_else(default_threads),
        1,
        MAX_CONCURRENCY,
    )?;
    let hash_mb = check_range("--hash", args.hash.unwrap_or(16), 1, MAX_HASH_MB)?;
    check_memory(hash_mb, concurrency.min(games as usize))?;
    let config = MatchConfig {
        event: format!("{} vs {}", engines[0].name, engines[1].name),
        games,
        concurrency,
        seed: args.seed.unwrap_or(1),
        hash_mb,
        report_every: args.report_every.unwrap_or(50),
        book,
        book_sha256: None,
        rules: game_rules(args)?,
        sprt,
        pgnout,
        recover: args.recover,
        command: std::env::args().collect(),
        engines,
    };
    let dir = args.out.clone().unwrap_or_else(|| default_out_dir(&config));
    Ok((config, dir))
}
