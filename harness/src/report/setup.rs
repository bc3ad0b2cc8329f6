//! What was run: the engines and how they differ, time control, book and SPRT settings, read
//! from the run's configuration file. Parameter differences come from the engine's registry
//! ([`engine::params`]), never from a list of our own.

use engine::params::{Params, specs};

use crate::runner::EngineConfig;
use crate::stats::SprtConfig;

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

/// Reads the run's settings from its configuration (the [`MatchConfig`] the runner saved),
/// falling back to summary.json's engines. Missing pieces stay `None`; nothing here fails the
/// report.
pub fn read_setup(run: &RunFolder) -> RunSetup {
    let mut setup = RunSetup::default();
    let engines: &[EngineConfig] = match (&run.config, &run.summary) {
        (Some(config), _) => &config.engines,
        (None, Some(summary)) => &summary.engines,
        (None, None) => &[],
    };
    setup.engines = engines.iter().map(engine_setup).collect();
    // Limits given per engine: one time control when they agree (then not repeated per
    // engine), else each engine keeps its own.
    if let [first, rest @ ..] = setup.engines.as_slice()
        && first.limits.is_some()
        && rest.iter().all(|e| e.limits == first.limits)
    {
        setup.time_control = first.limits.clone();
        for engine in &mut setup.engines {
            engine.limits = None;
        }
    }
    let Some(config) = &run.config else {
        return setup;
    };
    setup.book = config.book.as_ref().map(|b| b.to_string());
    setup.sprt = config.sprt.as_ref().and_then(|s| s.config().ok());
    let mut other = vec![
        ("games".to_string(), config.games.to_string()),
        ("seed".to_string(), config.seed.to_string()),
        ("concurrency".to_string(), config.concurrency.to_string()),
        ("hash_mb".to_string(), config.hash_mb.to_string()),
    ];
    if let Some(draw) = &config.rules.draw {
        other.push((
            "draw".into(),
            format!(
                "movenumber={} movecount={} score={}",
                draw.movenumber, draw.movecount, draw.score
            ),
        ));
    }
    if let Some(resign) = &config.rules.resign {
        other.push((
            "resign".into(),
            format!(
                "movecount={} score={} twosided={}",
                resign.movecount, resign.score, resign.twosided
            ),
        ));
    }
    if let Some(max) = config.rules.max_moves {
        other.push(("maxmoves".into(), max.to_string()));
    }
    if config.recover {
        other.push(("recover".into(), "true".into()));
    }
    if !config.command.is_empty() {
        other.push(("command".into(), config.command.join(" ")));
    }
    setup.other = other;
    setup
}

fn engine_setup(engine: &EngineConfig) -> EngineSetup {
    let mut setup = EngineSetup {
        name: engine.name.clone(),
        limits: Some(engine.limits.describe()),
        ..Default::default()
    };
    match &engine.external {
        None => match engine.build_params() {
            Ok(params) => setup.params = Some(params),
            Err(e) => setup.params_problem = Some(format!("{e:#}")),
        },
        Some(external) => {
            let mut command = external.command.display().to_string();
            for arg in &external.args {
                command.push(' ');
                command.push_str(arg);
            }
            setup.command = Some(command);
            if let Some(git) = &external.git {
                setup.revision = Some(format!("{} ({})", git.reference, git.description));
                setup.bench = git.bench_nodes.map(|n| format!("{n} nodes"));
            }
        }
    }
    setup
}
