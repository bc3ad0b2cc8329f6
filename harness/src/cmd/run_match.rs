//! `harness match`: options in the style of fastchess/cutechess-cli, the live report and
//! the summary. The games themselves are played by [`crate::tournament`].

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use engine::params::Params;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::book::{Book, BookFormat, BookOrder, BookSpec, OnBadEntry};
use crate::game::time_control::DEFAULT_TIME_MARGIN_MS;
use crate::game::{
    DrawRule, EngineLimits, GameResult, GameRules, ResignRule, Termination, TimeControl,
};
use crate::output::{read_summary_wall_seconds, write_summary};
use crate::stats::{EloModel, Pentanomial, SprtConfig, SprtState, Summary, Trinomial, summarize};
use crate::tournament::external::ExternalSpec;
use crate::tournament::{self, Control, EngineConfig, MatchConfig, SprtSettings};
use crate::{UsageError, usage_bail};

/// Games of the no-argument match (the README's first command).
pub const DEFAULT_GAMES: u64 = 200;
/// Node limit when no time control is given.
pub const DEFAULT_NODES: u64 = 1000;
/// Upper bound on games of an SPRT run without `--games`.
pub const SPRT_MAX_GAMES: u64 = 200_000;
/// The book shipped in `openings/`.
pub const DEFAULT_BOOK: &str = "openings/balanced-8ply.epd";

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
    /// Continue the match in this results folder.
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Test hook: behave as if interrupted after this many games were written in this run.
    #[arg(long, hide = true)]
    pub stop_after: Option<u64>,
}

/// fastchess/cutechess single-dash options and their names here.
const SINGLE_DASH: &[(&str, &str)] = &[
    ("-engine", "--engine"),
    ("-each", "--each"),
    ("-openings", "--openings"),
    ("-games", "--games"),
    ("-rounds", "--rounds"),
    ("-repeat", "--repeat"),
    ("-concurrency", "--concurrency"),
    ("-sprt", "--sprt"),
    ("-draw", "--draw"),
    ("-resign", "--resign"),
    ("-maxmoves", "--maxmoves"),
    ("-pgnout", "--pgnout"),
    ("-srand", "--seed"),
    ("-seed", "--seed"),
    ("-ratinginterval", "--report-every"),
    ("-out", "--out"),
    ("-resume", "--resume"),
    ("-recover", "--recover"),
];

/// Separates the keys of one `--engine` after [`normalize_args`] has grouped them.
const ENGINE_KEY_SEPARATOR: char = '\u{1f}';

/// Prepares `harness match` arguments for clap: fastchess's single-dash options become `--`
/// options, and the keys of each `--engine` are grouped into one value (clap cannot keep
/// the occurrences of a multi-value option apart).
pub fn normalize_args(args: Vec<String>) -> Vec<String> {
    let Some(pos) = args.iter().position(|a| a == "match") else {
        return args;
    };
    // Only when "match" is the subcommand (the first non-option argument).
    if args[1..pos].iter().any(|a| !a.starts_with('-')) {
        return args;
    }
    let mut out: Vec<String> = args[..=pos].to_vec();
    let mut engine_group: Option<Vec<String>> = None;
    for a in args.into_iter().skip(pos + 1) {
        let a = SINGLE_DASH
            .iter()
            .find(|(single, _)| *single == a)
            .map_or(a, |(_, double)| double.to_string());
        let is_option = a.starts_with("--") || (a.starts_with('-') && a.len() == 2);
        if is_option {
            if let Some(group) = engine_group.take() {
                out.push(group_value(&group));
            }
            if a == "--engine" {
                engine_group = Some(Vec::new());
            }
            out.push(a);
        } else if let Some(group) = engine_group.as_mut() {
            group.push(a);
        } else {
            out.push(a);
        }
    }
    if let Some(group) = engine_group.take() {
        out.push(group_value(&group));
    }
    out
}

/// One engine's keys as one value; it starts with the separator so that even a single key
/// marks a new engine.
pub(crate) fn group_value(keys: &[String]) -> String {
    keys.iter().fold(String::new(), |mut acc, k| {
        acc.push(ENGINE_KEY_SEPARATOR);
        acc.push_str(k);
        acc
    })
}

/// The keys of each `--engine`, grouped per engine.
fn engine_groups(values: &[String]) -> Vec<Vec<String>> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    for v in values {
        if v.contains(ENGINE_KEY_SEPARATOR) || groups.is_empty() || v.starts_with("name=") {
            groups.push(Vec::new());
        }
        if let Some(last) = groups.last_mut() {
            last.extend(
                v.split(ENGINE_KEY_SEPARATOR)
                    .filter(|s| !s.is_empty())
                    .map(String::from),
            );
        }
    }
    groups
}

fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(message.into()))
}

/// `key=value` tokens of an option.
fn key_values(option: &str, tokens: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    tokens
        .iter()
        .map(|t| {
            t.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| usage(format!("{option}: '{t}' is not of the form key=value")))
        })
        .collect()
}

fn parse_value<T: std::str::FromStr>(option: &str, key: &str, value: &str) -> anyhow::Result<T> {
    value
        .parse()
        .map_err(|_| usage(format!("{option}: {key}={value} is not a valid value")))
}

fn parse_bool(option: &str, key: &str, value: &str) -> anyhow::Result<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(usage(format!(
            "{option}: {key}={value} is not true or false"
        ))),
    }
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

fn parse_engine_options(option: &str, tokens: &[String]) -> anyhow::Result<EngineOptions> {
    let mut o = EngineOptions::default();
    for (key, value) in key_values(option, tokens)? {
        match key.as_str() {
            "name" => o.name = Some(value),
            "file" | "params" => o.file = Some(PathBuf::from(value)),
            "tc" => {
                o.tc = Some(
                    value
                        .parse()
                        .map_err(|e: String| usage(format!("{option}: {e}")))?,
                )
            }
            "nodes" => o.nodes = Some(parse_value(option, &key, &value)?),
            "depth" | "plies" => o.depth = Some(parse_value(option, &key, &value)?),
            "st" => {
                let seconds: f64 = parse_value(option, &key, &value)?;
                if !(seconds > 0.0 && seconds.is_finite()) {
                    usage_bail!("{option}: st={value} must be a positive number of seconds");
                }
                o.movetime_ms = Some((seconds * 1000.0).round() as u64);
            }
            "movetime" => o.movetime_ms = Some(parse_value(option, &key, &value)?),
            "timemargin" => o.time_margin_ms = Some(parse_value(option, &key, &value)?),
            "cmd" => o.external.cmd = Some(PathBuf::from(value)),
            "git" => o.external.git = Some(value),
            "args" => o.external.args = Some(value.split_whitespace().map(String::from).collect()),
            "dir" => o.external.dir = Some(PathBuf::from(value)),
            "proto" if value == "uci" => {}
            "proto" => usage_bail!("{option}: proto={value}: only UCI engines are supported"),
            "restart" => usage_bail!(
                "{option}: restart= is not supported; engines are restarted only after a fault, with --recover"
            ),
            k if k.starts_with("option.") => {
                let name = &k["option.".len()..];
                if name.is_empty() {
                    usage_bail!("{option}: '{key}={value}' names no option");
                }
                o.external.options.push((name.to_string(), value));
            }
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
    sprt_config(&s)?;
    Ok(s)
}

/// The statistics module's SPRT configuration, checked.
pub fn sprt_config(s: &SprtSettings) -> anyhow::Result<SprtConfig> {
    let config = SprtConfig {
        elo0: s.elo0,
        elo1: s.elo1,
        alpha: s.alpha,
        beta: s.beta,
        model: s
            .model
            .parse()
            .map_err(|e: String| usage(format!("--sprt: {e}")))?,
    };
    config
        .validate()
        .map_err(|e| usage(format!("--sprt: {e}")))?;
    Ok(config)
}

fn game_rules(args: &MatchArgs) -> anyhow::Result<GameRules> {
    let mut rules = GameRules {
        max_moves: args.maxmoves,
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
                "movenumber" => rule.movenumber = parse_value("--draw", &key, &value)?,
                "movecount" => rule.movecount = parse_value("--draw", &key, &value)?,
                "score" => rule.score = parse_value("--draw", &key, &value)?,
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
                "movecount" => rule.movecount = parse_value("--resign", &key, &value)?,
                "score" => rule.score = parse_value("--resign", &key, &value)?,
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
        if rule.movecount == 0 {
            usage_bail!("--resign: movecount must be at least 1");
        }
        rules.resign = Some(rule);
    }
    Ok(rules)
}

/// The shipped book, looked up from the current folder and from the source tree.
pub fn default_book_path() -> Option<PathBuf> {
    [
        PathBuf::from(DEFAULT_BOOK),
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(DEFAULT_BOOK),
    ]
    .into_iter()
    .find(|p| p.is_file())
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

/// Turns the command line into a match configuration and its results folder.
pub fn build_config(args: &MatchArgs) -> anyhow::Result<(MatchConfig, PathBuf)> {
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
    let per_round = args.games.unwrap_or(if args.rounds.is_some() {
        2
    } else {
        DEFAULT_GAMES
    });
    let mut games = match (args.games, args.rounds, &sprt) {
        (None, None, Some(_)) => SPRT_MAX_GAMES,
        _ => per_round.saturating_mul(args.rounds.unwrap_or(1)),
    };
    if games == 0 {
        usage_bail!("--games must be at least 1");
    }
    if games % 2 == 1 {
        games += 1;
        eprintln!("note: playing {games} games: each opening is played twice, colours reversed");
    }

    let book = if !args.openings.is_empty() {
        Some(book_spec(&args.openings)?)
    } else {
        match default_book_path() {
            Some(path) => Some(BookSpec::for_file(&path)?),
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
    let concurrency = args.concurrency.unwrap_or_else(default_threads);
    if concurrency == 0 {
        usage_bail!("--concurrency must be at least 1");
    }
    let config = MatchConfig {
        event: format!("{} vs {}", engines[0].name, engines[1].name),
        games,
        concurrency,
        seed: args.seed.unwrap_or(1),
        hash_mb: args.hash.unwrap_or(16),
        report_every: args.report_every.unwrap_or(50),
        book,
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

/// Counts of a match so far, from the first engine's view. Only complete pairs count.
#[derive(Default)]
pub struct Tally {
    half_pairs: HashMap<u64, u8>,
    pub trinomial: Trinomial,
    pub pentanomial: Pentanomial,
    pub terminations: BTreeMap<String, u64>,
    /// Per engine: games lost by each fault ("disconnects", "time forfeit", ...).
    pub faults: BTreeMap<String, BTreeMap<String, u64>>,
    pub games: u64,
}

impl Tally {
    /// Counts the fault that ended `row`'s game, if one did, against the engine at fault.
    pub fn add_fault(&mut self, row: &crate::output::GameRow) {
        let Some(kind) = Termination::from_name(&row.termination).and_then(Termination::fault)
        else {
            return;
        };
        // The faulting side lost; a flag against a bare king is a draw, and then the flagged
        // side is still to move in the final position.
        let white_at_fault = match row.outcome() {
            Some(GameResult::WhiteWins) => false,
            Some(GameResult::BlackWins) => true,
            _ => row.final_fen.split_whitespace().nth(1) == Some("w"),
        };
        let engine = if white_at_fault {
            &row.white
        } else {
            &row.black
        };
        *self
            .faults
            .entry(engine.clone())
            .or_default()
            .entry(kind.termination().to_string())
            .or_default() += 1;
    }

    /// `Faults: sf disconnects 1, time forfeit 2; ours none`
    pub fn faults_line(&self, engines: &[EngineConfig]) -> String {
        let parts: Vec<String> = engines
            .iter()
            .map(|e| match self.faults.get(&e.name) {
                Some(kinds) if !kinds.is_empty() => {
                    let counts: Vec<String> =
                        kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
                    format!("{} {}", e.name, counts.join(", "))
                }
                _ => format!("{} none", e.name),
            })
            .collect();
        format!("Faults: {}", parts.join("; "))
    }

    /// Adds game `game` with the first engine's doubled points; returns true when it completed a pair.
    pub fn add(&mut self, game: u64, points_x2: u8, termination: &str) -> bool {
        self.games += 1;
        *self
            .terminations
            .entry(termination.to_string())
            .or_default() += 1;
        match self.half_pairs.remove(&(game / 2)) {
            None => {
                self.half_pairs.insert(game / 2, points_x2);
                false
            }
            Some(other) => {
                self.trinomial.add_game(other);
                self.trinomial.add_game(points_x2);
                self.pentanomial.add_pair(other + points_x2);
                true
            }
        }
    }

    /// The statistics of the complete pairs.
    pub fn summary(&self, sprt: Option<&SprtConfig>) -> Summary {
        summarize(&self.trinomial, Some(&self.pentanomial), sprt)
    }

    /// `checkmate 12, threefold 3, ...`
    pub fn terminations_line(&self) -> String {
        let parts: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        format!(
            "Terminations: {}",
            if parts.is_empty() {
                "none".into()
            } else {
                parts.join(", ")
            }
        )
    }
}

/// What a finished (or interrupted) match run reports back.
pub struct MatchReport {
    pub dir: PathBuf,
    pub summary: Summary,
    pub tally_games: u64,
    pub interrupted: bool,
    pub stopped_by_sprt: bool,
    /// The match stopped because an engine faulted (without `--recover`).
    pub fault_stop: Option<String>,
    pub wall_seconds: f64,
    /// Time spent inside the players' searches in this run (for `harness bench match`).
    pub search_seconds: f64,
    /// Games played in this run.
    pub games_played: u64,
}

/// How the run shows itself.
#[derive(Clone, Copy, Debug)]
pub struct Display {
    pub progress_bar: bool,
    pub reports: bool,
}

/// The terminations line, and the faults line when an engine is external or has faulted.
fn faults_and_terminations(config: &MatchConfig, tally: &Tally) -> String {
    let terminations = tally.terminations_line();
    if config.engines.iter().any(|e| e.external.is_some()) || !tally.faults.is_empty() {
        format!("{terminations}\n{}", tally.faults_line(&config.engines))
    } else {
        terminations
    }
}

fn report_text(config: &MatchConfig, tally: &Tally, sprt: Option<&SprtConfig>) -> String {
    let limits: Vec<String> = config.engines.iter().map(|e| e.limits.describe()).collect();
    let limits = if limits[0] == limits[1] {
        limits[0].clone()
    } else {
        limits.join(" / ")
    };
    let book = config
        .book
        .as_ref()
        .map_or("no book".to_string(), |b| b.file.display().to_string());
    let rule = "-".repeat(50);
    format!(
        "{rule}\nResults of {} vs {} ({limits}, {}MB, {book}):\n{}\n{}\n{rule}",
        config.engines[0].name,
        config.engines[1].name,
        config.hash_mb,
        tally.summary(sprt).fastchess_text().trim_end(),
        faults_and_terminations(config, tally)
    )
}

/// `Bench: main 2285564 nodes, dev 2290011 nodes` for engines built from git revisions, so
/// the user sees whether a change is functional.
fn bench_line(config: &MatchConfig) -> Option<String> {
    let benches: Vec<(&str, Option<u64>)> = config
        .engines
        .iter()
        .filter_map(|e| {
            Some((
                e.name.as_str(),
                e.external.as_ref()?.git.as_ref()?.bench_nodes,
            ))
        })
        .collect();
    if benches.is_empty() {
        return None;
    }
    let parts: Vec<String> = benches
        .iter()
        .map(|(name, nodes)| match nodes {
            Some(n) => format!("{name} {n} nodes"),
            None => format!("{name} unknown"),
        })
        .collect();
    let same = match benches.as_slice() {
        [(_, Some(a)), (_, Some(b))] if a == b => " (equal: the change is not functional)",
        [(_, Some(_)), (_, Some(_))] => " (different: the change is functional)",
        _ => "",
    };
    Some(format!("Bench: {}{same}", parts.join(", ")))
}

/// Runs (or, with `resume`, continues) `config` in `dir`. `stop` interrupts cleanly.
pub fn run_config(
    config: &MatchConfig,
    dir: &Path,
    resume: bool,
    stop: &AtomicBool,
    display: Display,
    stop_after: Option<u64>,
) -> anyhow::Result<MatchReport> {
    let started = Instant::now();
    let sprt = config.sprt.as_ref().map(sprt_config).transpose()?;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let book = config
        .book
        .as_ref()
        .map(|spec| Book::load(spec, config.seed))
        .transpose()?;
    if let Some(b) = &book
        && b.skipped > 0
    {
        eprintln!(
            "note: skipped {} malformed entries of {}",
            b.skipped,
            config
                .book
                .as_ref()
                .map_or(String::new(), |s| s.to_string())
        );
    }

    let mut tally = Tally::default();
    let mut done = HashSet::new();
    let previous_wall = if resume {
        read_summary_wall_seconds(dir)
    } else {
        0.0
    };
    if resume && dir.join("games.csv").exists() {
        // A row cut short by SIGKILL is cut off by GamesCsv::open; its game is played again.
        let found = crate::output::GamesCsv::open(dir, true)?.1;
        if let Some(cut_off) = &found.cut_off {
            eprintln!("note: {}; its game is played again", cut_off.note);
        }
        for row in found.rows {
            if !done.insert(row.game) {
                continue;
            }
            let Some(result) = row.outcome() else {
                return Err(usage(format!(
                    "{}: game {} has no result ({}); harness match writes only finished games",
                    dir.join("games.csv").display(),
                    row.game,
                    row.result
                )));
            };
            tally.add(
                row.game,
                tournament::first_engine_points_x2(row.game, result),
                &row.termination,
            );
            tally.add_fault(&row);
        }
    } else {
        config.save(dir)?;
    }

    let progress = if display.progress_bar {
        ProgressBar::with_draw_target(Some(config.games), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    progress.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games, {per_sec}, ETA {eta} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    progress.set_position(done.len() as u64);
    progress.reset_eta();
    if display.reports {
        progress.suspend(|| {
            println!(
                "{} vs {}: {} games ({} done), {} workers, results in {}",
                config.engines[0].name,
                config.engines[1].name,
                config.games,
                done.len(),
                config.concurrency,
                dir.display()
            );
            if let Some(line) = bench_line(config) {
                println!("{line}");
            }
        });
    }

    let mut search_time = Duration::ZERO;
    let mut played_here = 0u64;
    // The game count at which the LLR first crossed a bound in this run.
    let mut crossed_at: Option<u64> = None;
    let outcome = tournament::run(config, book.as_ref(), dir, &done, stop, &mut |g| {
        progress.inc(1);
        played_here += 1;
        search_time += g.record.search_time();
        let pair_done = tally.add(g.row.game, g.first_engine_points_x2, &g.row.termination);
        tally.add_fault(g.row);
        // The final report follows at the end; do not print it twice.
        let last = tally.games >= config.games;
        if display.reports
            && config.report_every > 0
            && tally.games % config.report_every == 0
            && !last
        {
            progress.suspend(|| println!("{}", report_text(config, &tally, sprt.as_ref())));
        }
        if stop_after.is_some_and(|n| played_here >= n) {
            stop.store(true, Ordering::Relaxed);
        }
        match &sprt {
            Some(s) if pair_done && tally.summary(Some(s)).state() != SprtState::Continue => {
                crossed_at.get_or_insert(tally.games);
                Control::FinishStartedPairs
            }
            _ => Control::Continue,
        }
    })?;
    progress.finish_and_clear();

    let summary = tally.summary(sprt.as_ref());
    let wall = previous_wall + started.elapsed().as_secs_f64();
    let mut extra = serde_json::Map::new();
    extra.insert(
        "engines".into(),
        serde_json::to_value(
            config
                .engines
                .iter()
                .map(|e| match &e.external {
                    None => serde_json::json!({
                        "name": e.name, "limits": e.limits.describe(), "params": e.params
                    }),
                    Some(x) => serde_json::json!({
                        "name": e.name, "limits": e.limits.describe(), "command": x.command,
                        "args": x.args, "options": x.options, "git": x.git
                    }),
                })
                .collect::<Vec<_>>(),
        )?,
    );
    extra.insert("games_played".into(), tally.games.into());
    extra.insert("games_requested".into(), config.games.into());
    extra.insert(
        "wall_seconds".into(),
        serde_json::json!((wall * 1000.0).round() / 1000.0),
    );
    extra.insert(
        "terminations".into(),
        serde_json::to_value(&tally.terminations)?,
    );
    let faults: BTreeMap<&str, BTreeMap<String, u64>> = config
        .engines
        .iter()
        .map(|e| {
            (
                e.name.as_str(),
                tally.faults.get(&e.name).cloned().unwrap_or_default(),
            )
        })
        .collect();
    extra.insert("faults".into(), serde_json::to_value(&faults)?);
    extra.insert("interrupted".into(), outcome.interrupted.into());
    extra.insert("fault_stop".into(), outcome.fault_stop.clone().into());
    // Stopped by a decision that still holds once the pairs under way are counted.
    let stopped_by_sprt = outcome.stopped_early && summary.state() != SprtState::Continue;
    extra.insert("stopped_by_sprt".into(), stopped_by_sprt.into());
    write_summary(dir, &summary, extra)?;
    // The games and summary are already safe on disk; a report failure only warns.
    match crate::report::write_reports(dir) {
        Ok(()) if display.reports => println!("Report: {}", dir.join("report.html").display()),
        Ok(()) => {}
        Err(err) => eprintln!("warning: could not write the report: {err:#}"),
    }
    if let Some(path) = &config.pgnout {
        std::fs::copy(dir.join("games.pgn"), path)
            .with_context(|| format!("cannot copy games.pgn to {}", path.display()))?;
    }
    if display.reports {
        println!("{}", report_text(config, &tally, sprt.as_ref()));
        match crossed_at {
            // The pairs already started when the LLR crossed a bound count too, and brought it
            // back inside: the test goes on.
            Some(at) if summary.state() == SprtState::Continue => println!(
                "SPRT: the LLR crossed a bound after {at} games, but the pairs already under way \
                 brought it back to {:.2}: no decision yet; continue with\n  harness match --resume {}",
                summary.llr.unwrap_or(f64::NAN),
                shell_quote(&dir.display().to_string())
            ),
            _ if outcome.stopped_early => println!(
                "SPRT: {} after {} games",
                summary.state().name(),
                summary.games
            ),
            _ => {}
        }
    }
    Ok(MatchReport {
        dir: dir.to_path_buf(),
        summary,
        tally_games: tally.games,
        interrupted: outcome.interrupted,
        stopped_by_sprt,
        fault_stop: outcome.fault_stop.clone(),
        wall_seconds: wall,
        search_seconds: search_time.as_secs_f64(),
        games_played: played_here,
    })
}

static INTERRUPT: AtomicBool = AtomicBool::new(false);
static HANDLER: Once = Once::new();

/// Ctrl-C / SIGTERM: the first asks for a clean stop, the second exits at once (every
/// finished game is already on disk).
fn install_interrupt_handler() {
    HANDLER.call_once(|| {
        let result = ctrlc::set_handler(|| {
            if INTERRUPT.swap(true, Ordering::SeqCst) {
                eprintln!("\nsecond interrupt: exiting now");
                std::process::exit(130);
            }
            eprintln!(
                "\ninterrupt: stopping after writing the finished games (Ctrl-C again to exit now)"
            );
        });
        if let Err(e) = result {
            eprintln!("warning: cannot catch Ctrl-C: {e}");
        }
    });
}

fn shell_quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./=+:".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let (config, dir, resume) = match &args.resume {
        Some(dir) => {
            let mut config = MatchConfig::load(dir)?;
            for engine in &mut config.engines {
                if let Some(external) = engine.external.as_mut() {
                    tournament::external::ensure_built(&engine.name, external)?;
                }
            }
            if let Some(c) = args.concurrency {
                config.concurrency = c.max(1);
            }
            if !args.engine.is_empty() || args.games.is_some() || !args.sprt.is_empty() {
                eprintln!(
                    "note: --resume uses the configuration saved in {}; other options are ignored",
                    dir.join("config.toml").display()
                );
            }
            (config, dir.clone(), true)
        }
        None => {
            let (config, dir) = build_config(&args)?;
            if dir.join("games.csv").exists() {
                usage_bail!(
                    "{} already holds a match; continue it with --resume {} or choose another --out",
                    dir.display(),
                    shell_quote(&dir.display().to_string())
                );
            }
            (config, dir, false)
        }
    };
    install_interrupt_handler();
    INTERRUPT.store(false, Ordering::SeqCst);
    let display = Display {
        progress_bar: true,
        reports: true,
    };
    let report = run_config(&config, &dir, resume, &INTERRUPT, display, args.stop_after)?;
    println!("Results in {}", report.dir.display());
    if let Some(why) = &report.fault_stop {
        println!("Stopped: {why}");
        println!(
            "{} games written; continue with:\n  harness match --resume {}",
            report.tally_games,
            shell_quote(&report.dir.display().to_string())
        );
        return Ok(ExitCode::FAILURE);
    }
    if report.interrupted {
        println!(
            "Interrupted: {} games written; continue with:\n  harness match --resume {}",
            report.tally_games,
            shell_quote(&report.dir.display().to_string())
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}
