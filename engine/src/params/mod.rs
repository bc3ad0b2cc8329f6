//! Every tunable knob of the engine, in one registry.
//!
//! A [`Params`] is a flat vector of integers; [`specs`] names each entry with its default and
//! range. The UCI options, the TOML files, the `name=value` overrides, the tuner and the match
//! reports all go through this module, so a knob exists exactly once.
//!
//! Layout of the flat vector:
//! 1. tapered evaluation features: feature `f` has its middlegame weight at `2f` and its endgame
//!    weight at `2f + 1` (names end in `_mg` / `_eg`);
//! 2. flat (untapered) evaluation features, one parameter each;
//! 3. search parameters (see [`search`]).
//!
//! ```
//! use engine::params::Params;
//! let mut p = Params::default();
//! p.set_assignment("delta_margin=150").unwrap();
//! assert_eq!(p.get_by_name("delta_margin"), Some(150));
//! assert!(p.set_assignment("delta_margin=-5").is_err());
//! ```

mod defaults;
pub mod feature;
pub mod search;

use std::fmt::Write as _;
use std::path::Path;
use std::sync::LazyLock;

use thiserror::Error;

pub use feature::{FLAT_FEATURES, FeatureId, TAPERED_FEATURES, TOTAL_FEATURES};

/// Index of a parameter in [`Params`] and [`specs`].
pub type ParamId = usize;

/// Whether a parameter weighs a term of the evaluation or steers the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamKind {
    Eval,
    Search,
}

/// How an evaluation weight is blended by game phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Taper {
    /// Counts fully in the middlegame, not at all in a pawn ending.
    Mg,
    /// Counts fully in a pawn ending, not at all in the middlegame.
    Eg,
    /// Counts the same in every phase (also every search parameter).
    Flat,
}

/// How a parameter shows as a UCI option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// An integer, UCI `type spin`.
    Spin,
    /// An on/off switch stored as 0 or 1, UCI `type check`.
    Check,
}

/// A parameter's SPSA step at the end of a tune, as in OpenBench's input format
/// (`docs/spsa.md`): the perturbation `c_end` and the learning rate `r_end`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpsaStep {
    pub c_end: f64,
    pub r_end: f64,
}

/// OpenBench's default `r_end`.
pub const DEFAULT_R_END: f64 = 0.002;

/// Name, default and range of one parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpec {
    pub name: String,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    pub kind: ParamKind,
    pub taper: Taper,
    pub value_type: ValueType,
    /// Part of a large table (piece-square, mobility): left out of the default UCI listing.
    pub table: bool,
    /// Group name for selecting parameters (`eval`, `search`, `switches`; see [`select`]).
    pub group: &'static str,
    /// Step of an SPSA tune of this parameter.
    pub spsa: SpsaStep,
}

/// Registry group of the evaluation weights (`--params eval`).
pub const EVAL_GROUP: &str = "eval";

/// Errors from setting or loading parameters. Each names the offending value.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParamError {
    #[error("unknown parameter '{name}'{}", suggest(.suggestions))]
    UnknownName {
        name: String,
        suggestions: Vec<String>,
    },
    #[error("parameter '{name}' = {value} is out of range [{min}, {max}]")]
    OutOfRange {
        name: String,
        value: i64,
        min: i32,
        max: i32,
    },
    #[error("parameter '{name}': '{value}' is not {expected}")]
    BadValue {
        name: String,
        value: String,
        expected: &'static str,
    },
    #[error("'{0}' is not of the form name=value")]
    BadAssignment(String),
    #[error("no parameter name starts with '{}'", .0.trim_end_matches('*'))]
    NoMatch(String),
    #[error(
        "'{0}' has an empty item (expected names, groups search|switches|eval|all, or prefix*, separated by commas)"
    )]
    EmptySelection(String),
    #[error("{path}: {message}")]
    File { path: String, message: String },
}

fn suggest(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        String::new()
    } else {
        format!(" (did you mean {}?)", suggestions.join(", "))
    }
}

struct Registry {
    specs: Vec<ParamSpec>,
    by_name: std::collections::HashMap<String, ParamId>,
}

static REGISTRY: LazyLock<Registry> = LazyLock::new(|| {
    let mut specs = Vec::with_capacity(search::END);
    for f in 0..TAPERED_FEATURES {
        let base = feature::name(f);
        let (default_mg, default_eg) = defaults::tapered(f);
        let (min, max) = feature::range(f);
        let table = feature::is_table(f);
        for (suffix, default, taper) in
            [("mg", default_mg, Taper::Mg), ("eg", default_eg, Taper::Eg)]
        {
            specs.push(ParamSpec {
                name: format!("{base}_{suffix}"),
                default,
                min,
                max,
                kind: ParamKind::Eval,
                taper,
                value_type: ValueType::Spin,
                table,
                group: EVAL_GROUP,
                spsa: eval_step(f),
            });
        }
    }
    for f in TAPERED_FEATURES..TOTAL_FEATURES {
        let (min, max) = feature::range(f);
        specs.push(ParamSpec {
            name: feature::name(f),
            default: defaults::flat(f),
            min,
            max,
            kind: ParamKind::Eval,
            taper: Taper::Flat,
            value_type: ValueType::Spin,
            table: feature::is_table(f),
            group: EVAL_GROUP,
            spsa: eval_step(f),
        });
    }
    debug_assert_eq!(specs.len(), search::BASE);
    specs.extend(search::specs());
    assert_eq!(
        specs.len(),
        search::END,
        "search parameter table out of sync"
    );
    let by_name = specs
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name.clone(), i))
        .collect();
    apply_tuned_defaults(&mut specs, &by_name);
    Registry { specs, by_name }
});

/// The evaluation weights of the last tune that won its SPRT against the defaults before it
/// (`docs/tuning-loop.md`), over the hand-written starting values in `defaults.rs`: only the
/// weights that tune changed, as `name = value` lines.
const TUNED_DEFAULTS: &str = include_str!("tuned.toml");

/// Sets the defaults named in [`TUNED_DEFAULTS`]. The file is compiled in, so a bad entry is a
/// bug caught by the tests, not user input.
fn apply_tuned_defaults(
    specs: &mut [ParamSpec],
    by_name: &std::collections::HashMap<String, ParamId>,
) {
    let table: toml::Table = TUNED_DEFAULTS
        .parse()
        .unwrap_or_else(|e| panic!("params/tuned.toml: {e}"));
    for (name, value) in table {
        let id = *by_name
            .get(&name)
            .unwrap_or_else(|| panic!("params/tuned.toml: no parameter '{name}'"));
        let spec = &mut specs[id];
        let value = value
            .as_integer()
            .and_then(|v| i32::try_from(v).ok())
            .filter(|v| (spec.min..=spec.max).contains(v) && spec.kind == ParamKind::Eval)
            .unwrap_or_else(|| panic!("params/tuned.toml: bad value for '{name}'"));
        spec.default = value;
    }
}

/// The SPSA step of evaluation feature `f`'s weights, by [`feature::spsa_c_end`].
fn eval_step(f: FeatureId) -> SpsaStep {
    SpsaStep {
        c_end: feature::spsa_c_end(f),
        r_end: DEFAULT_R_END,
    }
}

/// Every parameter's specification, indexed by [`ParamId`].
pub fn specs() -> &'static [ParamSpec] {
    &REGISTRY.specs
}

/// The id of the parameter called `name`, if any.
pub fn find(name: &str) -> Option<ParamId> {
    REGISTRY.by_name.get(name).copied()
}

/// The parameter ids holding the weights of evaluation feature `f`: `(mg, eg)`.
/// For a flat feature both are the same parameter.
pub const fn feature_params(f: FeatureId) -> (ParamId, ParamId) {
    if f < TAPERED_FEATURES {
        (2 * f, 2 * f + 1)
    } else {
        let id = 2 * TAPERED_FEATURES + (f - TAPERED_FEATURES);
        (id, id)
    }
}

/// The parameters named by a comma-separated list, in the order given, each once. An item is
/// a parameter name, a group (`search`, `switches`, `eval`, or `all`), or a name prefix ending
/// in `*` (`mate_edge_*`).
///
/// ```
/// let ids = engine::params::select("delta_margin, mate_edge_*").unwrap();
/// assert_eq!(ids.len(), 5);
/// assert!(engine::params::select("search").unwrap().len() > 5);
/// assert!(engine::params::select("delta_margn").is_err());
/// ```
pub fn select(list: &str) -> Result<Vec<ParamId>, ParamError> {
    let mut chosen = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for item in list.split(',').map(str::trim) {
        let ids: Vec<ParamId> = if item.is_empty() {
            return Err(ParamError::EmptySelection(list.to_string()));
        } else if item == "all" {
            (0..specs().len()).collect()
        } else if let Some(prefix) = item.strip_suffix('*') {
            (0..specs().len())
                .filter(|&id| specs()[id].name.starts_with(prefix))
                .collect()
        } else if let Some(id) = find(item) {
            vec![id]
        } else {
            (0..specs().len())
                .filter(|&id| specs()[id].group == item)
                .collect()
        };
        if ids.is_empty() {
            return Err(if item.ends_with('*') {
                ParamError::NoMatch(item.to_string())
            } else {
                unknown(item)
            });
        }
        chosen.extend(ids.into_iter().filter(|&id| seen.insert(id)));
    }
    Ok(chosen)
}

/// OpenBench's SPSA input for these parameters, one line each:
/// `name, int, start, min, max, c_end, r_end`, starting at the values in `params`.
pub fn spsa_input(ids: &[ParamId], params: &Params) -> String {
    let mut out = String::new();
    for &id in ids {
        let spec = &specs()[id];
        let _ = writeln!(
            out,
            "{}, int, {}, {}, {}, {}, {}",
            spec.name,
            params.get(id),
            spec.min,
            spec.max,
            spec.spsa.c_end,
            spec.spsa.r_end
        );
    }
    out
}

/// Number of evaluation parameters (they come first in the flat vector).
pub const EVAL_PARAMS: usize = search::BASE;

fn unknown(name: &str) -> ParamError {
    let mut scored: Vec<(f64, &str)> = specs()
        .iter()
        .map(|s| (strsim::jaro_winkler(name, &s.name), s.name.as_str()))
        .filter(|(score, _)| *score > 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    ParamError::UnknownName {
        name: name.to_string(),
        suggestions: scored.iter().take(3).map(|(_, n)| n.to_string()).collect(),
    }
}

/// A full set of parameter values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    values: Box<[i32]>,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            values: specs().iter().map(|s| s.default).collect(),
        }
    }
}

impl Params {
    /// The value of parameter `id`.
    #[inline]
    pub fn get(&self, id: ParamId) -> i32 {
        self.values[id]
    }

    /// All values, indexed by [`ParamId`].
    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// The value of the parameter called `name`.
    pub fn get_by_name(&self, name: &str) -> Option<i32> {
        find(name).map(|id| self.values[id])
    }

    /// Sets parameter `id`, checking its range.
    pub fn set(&mut self, id: ParamId, value: i64) -> Result<(), ParamError> {
        let spec = &specs()[id];
        if value < i64::from(spec.min) || value > i64::from(spec.max) {
            return Err(ParamError::OutOfRange {
                name: spec.name.clone(),
                value,
                min: spec.min,
                max: spec.max,
            });
        }
        self.values[id] = value as i32;
        Ok(())
    }

    /// Sets parameter `id` without a range check; for the tuner, whose results are clamped
    /// by [`Params::clamped`] before use.
    pub fn set_unchecked(&mut self, id: ParamId, value: i32) {
        self.values[id] = value;
    }

    /// A copy with every value clamped into its range.
    pub fn clamped(&self) -> Params {
        let values = self
            .values
            .iter()
            .zip(specs())
            .map(|(&v, s)| v.clamp(s.min, s.max))
            .collect();
        Params { values }
    }

    /// Sets the parameter called `name` from text: an integer, or for a check also
    /// `true`/`false`/`on`/`off`.
    pub fn set_by_name(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let id = find(name).ok_or_else(|| unknown(name))?;
        let spec = &specs()[id];
        let value = value.trim();
        let parsed = match (spec.value_type, value.to_ascii_lowercase().as_str()) {
            (ValueType::Check, "true" | "on" | "yes") => Some(1),
            (ValueType::Check, "false" | "off" | "no") => Some(0),
            _ => value.parse::<i64>().ok(),
        };
        let parsed = parsed.ok_or_else(|| ParamError::BadValue {
            name: name.to_string(),
            value: value.to_string(),
            expected: match spec.value_type {
                ValueType::Spin => "an integer",
                ValueType::Check => "true, false, 1 or 0",
            },
        })?;
        self.set(id, parsed)
    }

    /// Applies one `name=value` override.
    pub fn set_assignment(&mut self, assignment: &str) -> Result<(), ParamError> {
        let (name, value) = assignment
            .split_once('=')
            .ok_or_else(|| ParamError::BadAssignment(assignment.to_string()))?;
        self.set_by_name(name.trim(), value)
    }

    /// Reads values from TOML text (`name = value` lines, any subset of the parameters;
    /// tables are flattened so `[material]` + `knight_mg = 300` also works).
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Params, ParamError> {
        let mut params = Params::default();
        params.apply_toml_str(text, origin)?;
        Ok(params)
    }

    /// Overrides the values named in TOML text, leaving the others as they are.
    pub fn apply_toml_str(&mut self, text: &str, origin: &str) -> Result<(), ParamError> {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ParamError::File {
                path: origin.to_string(),
                message: e.to_string(),
            })?;
        let mut flat = Vec::new();
        flatten("", &table, &mut flat);
        for (name, value) in flat {
            let text = match &value {
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Boolean(b) => b.to_string(),
                toml::Value::Float(f) if f.fract() == 0.0 => format!("{}", *f as i64),
                other => other.to_string(),
            };
            self.set_by_name(&name, &text)
                .map_err(|e| ParamError::File {
                    path: origin.to_string(),
                    message: e.to_string(),
                })?;
        }
        Ok(())
    }

    /// Reads a parameter file.
    pub fn load(path: &Path) -> Result<Params, ParamError> {
        let text = std::fs::read_to_string(path).map_err(|e| ParamError::File {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Params::from_toml_str(&text, &path.display().to_string())
    }

    /// All values as TOML, one `name = value` line each, in registry order.
    pub fn to_toml_string(&self) -> String {
        let mut out = String::new();
        let mut section = None;
        for (spec, value) in specs().iter().zip(self.values.iter()) {
            let group = group_of(spec);
            if section != Some(group) {
                let _ = writeln!(
                    out,
                    "{}# {group}",
                    if section.is_some() { "\n" } else { "" }
                );
                section = Some(group);
            }
            match spec.value_type {
                ValueType::Check => {
                    let _ = writeln!(out, "{} = {}", spec.name, *value != 0);
                }
                ValueType::Spin => {
                    let _ = writeln!(out, "{} = {value}", spec.name);
                }
            }
        }
        out
    }

    /// Writes all values to a TOML file.
    pub fn save(&self, path: &Path) -> Result<(), ParamError> {
        std::fs::write(path, self.to_toml_string()).map_err(|e| ParamError::File {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }

    /// The parameters whose values differ: `(id, self's value, other's value)`.
    pub fn diff(&self, other: &Params) -> Vec<(ParamId, i32, i32)> {
        self.values
            .iter()
            .zip(other.values.iter())
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .map(|(id, (a, b))| (id, *a, *b))
            .collect()
    }

    /// Only material weights (pawn 100, knight 300, bishop 300, rook 500, queen 900, in both
    /// phases) and every other evaluation weight zero; endgame scaling off (the `scale_*`
    /// factors at 100); the other search parameters at their defaults.
    /// The usual starting point of a Texel tune from scratch.
    pub fn material_only() -> Params {
        let mut p = Params::default();
        for id in 0..EVAL_PARAMS {
            p.values[id] = 0;
        }
        for (i, value) in [100, 300, 300, 500, 900].into_iter().enumerate() {
            let (mg, eg) = feature_params(feature::MATERIAL + i);
            p.values[mg] = value;
            p.values[eg] = value;
        }
        // Material alone, unscaled in drawish endings too.
        for id in search::SCALE_FACTORS {
            p.values[id] = 100;
        }
        p
    }
}

fn group_of(spec: &ParamSpec) -> &'static str {
    match spec.kind {
        ParamKind::Search => "search",
        ParamKind::Eval => feature::group(&spec.name),
    }
}

fn flatten(prefix: &str, table: &toml::Table, out: &mut Vec<(String, toml::Value)>) {
    for (key, value) in table {
        let name = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}_{key}")
        };
        match value {
            toml::Value::Table(inner) => flatten(&name, inner, out),
            other => out.push((name, other.clone())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuned_defaults_each_change_a_hand_written_evaluation_default() {
        let base = |id: ParamId| {
            let f = id / 2;
            if f < TAPERED_FEATURES {
                let (mg, eg) = defaults::tapered(f);
                if id.is_multiple_of(2) { mg } else { eg }
            } else {
                defaults::flat(id - TAPERED_FEATURES)
            }
        };
        let changed: Vec<ParamId> = (0..EVAL_PARAMS)
            .filter(|&id| specs()[id].default != base(id))
            .collect();
        let lines = TUNED_DEFAULTS
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        assert_eq!(
            changed.len(),
            lines,
            "every line of tuned.toml changes one default"
        );
        for id in changed {
            assert_eq!(specs()[id].kind, ParamKind::Eval, "{}", specs()[id].name);
        }
    }

    #[test]
    fn named_knobs_exist_with_exact_names() {
        for name in [
            "delta_margin",
            "qsearch_depth",
            "king_distance_factor",
            "qsearch_check_plies",
            "see_pruning",
            "check_extension",
            "mate_distance_pruning",
            "null_move",
            "lmr",
            "material_knight_mg",
            "pst_knight_e4_eg",
            "tempo_mg",
        ] {
            assert!(find(name).is_some(), "missing {name}");
        }
    }

    #[test]
    fn names_are_unique_and_defaults_in_range() {
        let mut seen = std::collections::HashSet::new();
        for s in specs() {
            assert!(seen.insert(&s.name), "duplicate {}", s.name);
            assert!(
                s.min <= s.default && s.default <= s.max,
                "{} default out of range",
                s.name
            );
        }
    }

    #[test]
    fn unknown_name_suggests_near_names() {
        let err = Params::default()
            .set_assignment("delta_margn=100")
            .unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("delta_margn") && text.contains("delta_margin"),
            "{text}"
        );
    }

    #[test]
    fn out_of_range_and_bad_values_are_errors() {
        let mut p = Params::default();
        assert!(matches!(
            p.set_assignment("qsearch_depth=100000"),
            Err(ParamError::OutOfRange { .. })
        ));
        assert!(matches!(
            p.set_assignment("qsearch_depth=abc"),
            Err(ParamError::BadValue { .. })
        ));
        assert!(matches!(
            p.set_assignment("qsearch_depth"),
            Err(ParamError::BadAssignment(_))
        ));
        p.set_assignment("null_move=false").unwrap();
        assert_eq!(p.get_by_name("null_move"), Some(0));
    }

    #[test]
    fn toml_round_trip() {
        let mut p = Params::default();
        p.set_assignment("delta_margin=123").unwrap();
        p.set_assignment("pst_queen_d8_mg=-7").unwrap();
        p.set_assignment("lmr=off").unwrap();
        let back = Params::from_toml_str(&p.to_toml_string(), "test").unwrap();
        assert_eq!(p, back);
    }

    #[test]
    fn toml_errors_name_the_file() {
        let err = Params::from_toml_str("delta_margin = 'x'", "mine.toml").unwrap_err();
        assert!(err.to_string().starts_with("mine.toml:"), "{err}");
        let err = Params::from_toml_str("no_such = 1", "mine.toml").unwrap_err();
        assert!(err.to_string().contains("no_such"), "{err}");
    }

    #[test]
    fn select_takes_names_groups_and_prefixes_in_order() {
        let ids = select("qsearch_depth,delta_margin,mate_edge_*,delta_margin").unwrap();
        let names: Vec<&str> = ids.iter().map(|&id| specs()[id].name.as_str()).collect();
        assert_eq!(
            names,
            [
                "qsearch_depth",
                "delta_margin",
                "mate_edge_0",
                "mate_edge_1",
                "mate_edge_2",
                "mate_edge_3"
            ]
        );
        let search = select("search").unwrap();
        assert!(
            search
                .iter()
                .all(|&id| specs()[id].value_type == ValueType::Spin
                    && specs()[id].kind == ParamKind::Search)
        );
        assert!(search.contains(&find("lmr_divisor").unwrap()));
        let switches = select("switches").unwrap();
        assert!(switches.contains(&find("null_move").unwrap()));
        assert_eq!(
            switches.len(),
            specs()
                .iter()
                .filter(|s| s.value_type == ValueType::Check)
                .count()
        );
        assert_eq!(select("eval").unwrap().len(), EVAL_PARAMS);
        assert_eq!(select("all").unwrap().len(), specs().len());
        assert!(matches!(select("zzz_*"), Err(ParamError::NoMatch(_))));
        assert!(matches!(
            select("lmr,,null_move"),
            Err(ParamError::EmptySelection(_))
        ));
        let err = select("qsearch_dept").unwrap_err().to_string();
        assert!(err.contains("qsearch_depth"), "{err}");
    }

    #[test]
    fn spsa_input_lines_carry_the_registry_steps() {
        let mut params = Params::default();
        params.set_assignment("delta_margin=150").unwrap();
        let text = spsa_input(&select("delta_margin,material_knight_mg").unwrap(), &params);
        assert_eq!(
            text,
            format!(
                "delta_margin, int, 150, 0, 2000, 20, 0.002\nmaterial_knight_mg, int, {}, 0, 3000, 10, 0.002\n",
                Params::default().get_by_name("material_knight_mg").unwrap()
            )
        );
    }

    #[test]
    fn feature_params_match_names() {
        let (mg, eg) = feature_params(feature::MATERIAL + 1);
        assert_eq!(specs()[mg].name, "material_knight_mg");
        assert_eq!(specs()[eg].name, "material_knight_eg");
        let (a, b) = feature_params(feature::KING_DISTANCE);
        assert_eq!(a, b);
        assert_eq!(specs()[a].name, "king_distance_factor");
    }
}
