//! What was run: the engines and how they differ, time control, book and SPRT settings, read
//! from the run's configuration file. Parameter differences come from the engine's registry
//! ([`engine::params`]), never from a list of our own.

use engine::params::{Params, specs};
use serde_json::{Map, Value};

use crate::stats::{EloModel, SprtConfig};

use super::load::RunFolder;

/// One engine of the run.
#[derive(Clone, Debug, Default)]
pub struct EngineSetup {
    pub name: String,
    /// Its parameters, when the configuration gives them (file and/or overrides).
    pub params: Option<Params>,
    /// Why the parameters could not be rebuilt, if they could not.
    pub params_problem: Option<String>,
    /// Git revision, bench signature and command line, for external engines.
    pub revision: Option<String>,
    pub bench: Option<String>,
    pub command: Option<String>,
    /// Engine-specific limits or options, as written in the configuration.
    pub limits: Option<String>,
}

/// One parameter that differs between the two engines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamDifference {
    pub name: String,
    pub first: i32,
    pub second: i32,
    pub default: i32,
}

/// The settings of a run that a reader needs to judge it.
#[derive(Clone, Debug, Default)]
pub struct RunSetup {
    pub engines: Vec<EngineSetup>,
    pub time_control: Option<String>,
    pub book: Option<String>,
    pub sprt: Option<SprtConfig>,
    /// Other scalar settings worth a line (seed, concurrency, adjudication...).
    pub other: Vec<(String, String)>,
}

impl RunSetup {
    /// Engine names in configuration order.
    pub fn engine_names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
    }

    /// The parameters in which the first two engines differ, in registry order; None when
    /// either engine's parameters are unknown.
    pub fn param_differences(&self) -> Option<Vec<ParamDifference>> {
        let [a, b, ..] = self.engines.as_slice() else {
            return None;
        };
        let (pa, pb) = (a.params.as_ref()?, b.params.as_ref()?);
        Some(
            pa.diff(pb)
                .into_iter()
                .map(|(id, first, second)| ParamDifference {
                    name: specs()[id].name.clone(),
                    first,
                    second,
                    default: specs()[id].default,
                })
                .collect(),
        )
    }
}

const ENGINE_LIST_KEYS: [&str; 3] = ["engines", "engine", "players"];
const OVERRIDE_KEYS: [&str; 4] = ["overrides", "assignments", "set", "options"];
const PARAM_FILE_KEYS: [&str; 4] = ["params_file", "param_file", "parameters_file", "file"];
const LIMIT_KEYS: [&str; 8] = [
    "limits",
    "limit",
    "tc",
    "time_control",
    "nodes",
    "depth",
    "movetime",
    "clock",
];
const TIME_CONTROL_KEYS: [&str; 5] = ["each", "limits", "limit", "tc", "time_control"];
const BOOK_KEYS: [&str; 4] = ["openings", "book", "opening_book", "openings_file"];
const HIDDEN_KEYS: [&str; 4] = ["engines", "engine", "players", "sprt"];

/// Reads the run's settings from its configuration, falling back to summary.json's engine
/// names. Missing pieces stay `None`; nothing here fails the report.
pub fn read_setup(run: &RunFolder) -> RunSetup {
    let mut setup = RunSetup::default();
    if let Some(config) = run.config.as_ref().and_then(|c| c.value.as_object()) {
        if let Some(list) = first_key(config, &ENGINE_LIST_KEYS).and_then(Value::as_array) {
            setup.engines = list
                .iter()
                .enumerate()
                .map(|(i, e)| engine_setup(e, i, run))
                .collect();
        }
        setup.time_control = first_key(config, &TIME_CONTROL_KEYS).map(compact);
        // Limits given per engine: one time control when they agree (then not repeated per
        // engine), else each engine keeps its own.
        if setup.time_control.is_none()
            && let [first, rest @ ..] = setup.engines.as_slice()
            && first.limits.is_some()
            && rest.iter().all(|e| e.limits == first.limits)
        {
            setup.time_control = first.limits.clone();
            for engine in &mut setup.engines {
                engine.limits = None;
            }
        }
        setup.book = first_key(config, &BOOK_KEYS).map(compact);
        setup.sprt = config.get("sprt").and_then(sprt_config);
        for (key, value) in config {
            let shown = TIME_CONTROL_KEYS
                .iter()
                .chain(BOOK_KEYS.iter())
                .chain(HIDDEN_KEYS.iter())
                .any(|k| k == key);
            if shown || value.is_null() {
                continue;
            }
            let text = match (key.as_str(), value) {
                // The command line that started the run, as one line.
                ("command", Value::Array(words)) => {
                    words.iter().map(compact).collect::<Vec<_>>().join(" ")
                }
                _ => compact(value),
            };
            if !text.is_empty() {
                setup.other.push((key.clone(), text));
            }
        }
    }
    if setup.engines.is_empty()
        && let Some(summary) = &run.summary
    {
        setup.engines = summary
            .engines
            .iter()
            .map(|name| EngineSetup {
                name: name.clone(),
                ..Default::default()
            })
            .collect();
    }
    setup
}

fn first_key<'a>(map: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a Value> {
    keys.iter()
        .find_map(|k| map.get(*k).filter(|v| !v.is_null()))
}

fn engine_setup(value: &Value, index: usize, run: &RunFolder) -> EngineSetup {
    let fallback_name = format!("engine {}", index + 1);
    let Some(map) = value.as_object() else {
        return EngineSetup {
            name: value.as_str().map_or(fallback_name, str::to_string),
            ..Default::default()
        };
    };
    let text = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| map.get(*k).filter(|v| !v.is_null()).map(compact))
    };
    let mut setup = EngineSetup {
        name: map
            .get("name")
            .and_then(Value::as_str)
            .map_or(fallback_name, str::to_string),
        revision: text(&["revision", "git_revision", "rev", "commit", "git"]),
        bench: text(&["bench", "bench_signature", "bench_nodes"]),
        command: text(&["command", "cmd", "path"]),
        limits: text(&LIMIT_KEYS),
        ..Default::default()
    };
    // The match runner records every parameter that differs from the defaults in a `params`
    // table; that table is the truth. Without it, rebuild from the file and the overrides.
    // An external (UCI) engine has a command and no parameters of ours.
    let recorded = map.get("params").filter(|v| v.is_object());
    let param_file = PARAM_FILE_KEYS
        .iter()
        .find_map(|k| map.get(*k).and_then(Value::as_str))
        .or_else(|| map.get("params").and_then(Value::as_str));
    let overrides: Vec<String> = OVERRIDE_KEYS
        .iter()
        .filter_map(|k| map.get(*k))
        .flat_map(assignments)
        .collect();
    let built = if let Some(table) = recorded {
        Some(build_params(None, &assignments(table), run))
    } else if setup.command.is_none() || param_file.is_some() || !overrides.is_empty() {
        Some(build_params(param_file, &overrides, run))
    } else {
        None
    };
    match built {
        Some(Ok(params)) => setup.params = Some(params),
        Some(Err(problem)) => setup.params_problem = Some(problem),
        None => {}
    }
    setup
}

/// `name=value` assignments from a list of strings, a table of values, or one string.
fn assignments(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .filter(|s| s.contains('='))
            .collect(),
        Value::Object(map) => map
            .iter()
            .filter_map(|(k, v)| match v {
                Value::Number(n) => Some(format!("{k}={n}")),
                Value::Bool(b) => Some(format!("{k}={b}")),
                Value::String(s) => Some(format!("{k}={s}")),
                _ => None,
            })
            .collect(),
        Value::String(s) if s.contains('=') => s.split_whitespace().map(str::to_string).collect(),
        _ => Vec::new(),
    }
}

fn build_params(
    param_file: Option<&str>,
    overrides: &[String],
    run: &RunFolder,
) -> Result<Params, String> {
    let mut params = Params::default();
    if let Some(file) = param_file {
        let path = std::path::Path::new(file);
        let candidates = [run.dir.join(path), path.to_path_buf()];
        let found = candidates.iter().find(|p| p.is_file());
        let Some(found) = found else {
            return Err(format!("parameter file {file} not found"));
        };
        params = Params::load(found).map_err(|e| e.to_string())?;
    }
    for assignment in overrides {
        params
            .set_assignment(assignment)
            .map_err(|e| e.to_string())?;
    }
    Ok(params)
}

fn sprt_config(value: &Value) -> Option<SprtConfig> {
    let map = value.as_object()?;
    let num = |k: &str| map.get(k).and_then(Value::as_f64);
    let model = match map
        .get("model")
        .and_then(Value::as_str)
        .map(str::to_ascii_lowercase)
    {
        None => EloModel::Normalized,
        Some(m) if m.starts_with("norm") => EloModel::Normalized,
        Some(m) if m.starts_with("logistic") => EloModel::Logistic,
        Some(m) if m.starts_with("bayes") => EloModel::BayesElo,
        Some(_) => return None,
    };
    Some(SprtConfig {
        elo0: num("elo0")?,
        elo1: num("elo1")?,
        alpha: num("alpha").unwrap_or(0.05),
        beta: num("beta").unwrap_or(0.05),
        model,
    })
}

/// A configuration value on one line: `key=value` pairs for tables, items joined for lists.
pub fn compact(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => "none".into(),
        Value::Bool(_) | Value::Number(_) => value.to_string(),
        Value::Array(items) => items.iter().map(compact).collect::<Vec<_>>().join(", "),
        Value::Object(map) => map
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| match v {
                Value::Object(_) | Value::Array(_) => format!("{k}=[{}]", compact(v)),
                _ => format!("{k}={}", compact(v)),
            })
            .collect::<Vec<_>>()
            .join(" "),
    }
}
