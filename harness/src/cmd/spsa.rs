//! `harness spsa`: tune engine parameters by play, with OpenBench's SPSA arithmetic. The
//! options become an [`SpsaSpec`]; [`run_tune`] plays it through the match runner.

use std::path::PathBuf;
use std::process::ExitCode;

use engine::params::Params;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::match_options::{MatchArgs, build_config};
use crate::cli::shell_quote;
use crate::cli::spellings::{engine_groups, group_value};
use crate::spsa::play::{SpsaSpec, TuneEvent, check_engines, registry_params, run_tune};
use crate::spsa::{ParamDef, Settings, State, Tuner};
use crate::{UsageError, usage_bail};

#[derive(Debug, Clone, Default, clap::Args)]
#[command(after_help = "\
Give one --engine: our engine's parameters (NAME=VALUE, file=P.toml) are the start values; \
cmd= or git= tunes an external engine through setoption. The parameters to tune come from \
the registry (--params NAMES|search|switches|eval|prefix*) with their ranges and steps, or \
from a file in OpenBench's SPSA input format (--params-file, one `name, int|float, start, \
min, max, c_end, r_end` a line). Each iteration plays --pairs-per-iteration game pairs of \
θ + c·Δ against θ − c·Δ; iterations overlap to keep every core busy.")]
pub struct SpsaArgs {
    #[command(flatten)]
    pub options: MatchArgs,
    /// Parameters to tune from the registry: names, groups (search, switches, eval, all) or
    /// prefixes (mate_edge_*), comma-separated.
    #[arg(long, value_name = "LIST")]
    pub params: Option<String>,
    /// Parameters in OpenBench's SPSA input format.
    #[arg(long, value_name = "FILE", conflicts_with = "params")]
    pub params_file: Option<PathBuf>,
    /// Number of iterations N.
    #[arg(long, default_value_t = 200)]
    pub iterations: u64,
    /// Game pairs per iteration (OpenBench's default 8).
    #[arg(long, default_value_t = 8)]
    pub pairs_per_iteration: u64,
    /// Decay exponent of the learning rate.
    #[arg(long, default_value_t = 0.602)]
    pub alpha: f64,
    /// Decay exponent of the perturbation.
    #[arg(long, default_value_t = 0.101)]
    pub gamma: f64,
    /// A as a fraction of the iterations.
    #[arg(long, default_value_t = 0.1)]
    pub a_ratio: f64,
    /// Iterations played at once (default: enough to keep every game slot busy, plus one).
    #[arg(long)]
    pub in_flight: Option<u64>,
    /// Continue the tune in this folder.
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Test hook: behave as if interrupted once this many iterations are applied.
    #[arg(long, hide = true)]
    pub stop_after: Option<u64>,
}

/// The tuned parameters: from the file, or from the registry at the engine's start values.
fn param_defs(args: &SpsaArgs, start: &Params) -> anyhow::Result<Vec<ParamDef>> {
    if let Some(path) = &args.params_file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| UsageError(format!("--params-file {}: {e}", path.display())))?;
        return crate::spsa::input::parse(&text, &path.display().to_string())
            .map_err(|e| UsageError(e.to_string()).into());
    }
    let list = args.params.as_deref().unwrap_or("search");
    registry_params(list, start).map_err(|e| UsageError(format!("--params {list}: {e}")).into())
}

/// A new tune from the options.
fn new_tune(args: &SpsaArgs) -> anyhow::Result<(SpsaSpec, PathBuf)> {
    let groups = engine_groups(&args.options.engine);
    let [own] = groups.as_slice() else {
        usage_bail!(
            "harness spsa tunes one engine: give exactly one --engine (got {})",
            groups.len()
        );
    };
    // The two sides of an iteration are the same engine; the runner names them plus, minus.
    let side = |name: &str| {
        let mut keys: Vec<String> = own
            .iter()
            .filter(|k| !k.starts_with("name="))
            .cloned()
            .collect();
        keys.insert(0, format!("name={name}"));
        group_value(&keys)
    };
    let mut options = args.options.clone();
    options.engine = vec![side("plus"), side("minus")];
    options.games = Some(2);
    options.sprt.clear();
    let (games, _) = build_config(&options)?;
    let start = match &games.engines[0].external {
        None => games.engines[0].build_params()?,
        Some(_) => Params::default(),
    };
    let params = param_defs(args, &start)?;
    let in_flight = args
        .in_flight
        .unwrap_or_else(|| Settings::in_flight_for(games.concurrency, args.pairs_per_iteration));
    let settings = Settings {
        iterations: args.iterations,
        pairs_per_iteration: args.pairs_per_iteration,
        alpha: args.alpha,
        gamma: args.gamma,
        a_ratio: args.a_ratio,
        in_flight,
        seed: games.seed,
    };
    settings
        .validate()
        .map_err(|e| UsageError(format!("harness spsa: {e}")))?;
    let dir = args.options.out.clone().unwrap_or_else(|| {
        PathBuf::from("results").join(format!(
            "{}-spsa",
            chrono::Local::now().format("%Y-%m-%d-%H%M%S")
        ))
    });
    Ok((
        SpsaSpec {
            games,
            params,
            settings,
        },
        dir,
    ))
}

pub fn run(args: SpsaArgs) -> anyhow::Result<ExitCode> {
    let (spec, dir, tuner) = match &args.resume {
        Some(dir) => {
            let spec = SpsaSpec::load(dir)?;
            let path = dir.join("state.json");
            let state: Option<State> = match std::fs::read_to_string(&path) {
                Ok(text) => Some(
                    serde_json::from_str(&text)
                        .map_err(|e| UsageError(format!("{}:{}: {e}", path.display(), e.line())))?,
                ),
                Err(_) => None,
            };
            let tuner = match state {
                Some(state) => Tuner::resume(spec.params.clone(), spec.settings.clone(), state),
                None => Tuner::new(spec.params.clone(), spec.settings.clone()),
            }
            .map_err(|e| UsageError(format!("{}: {e}", dir.display())))?;
            (spec, dir.clone(), tuner)
        }
        None => {
            let (spec, dir) = new_tune(&args)?;
            if dir.join("spsa.toml").exists() {
                usage_bail!(
                    "{} already holds a tune; continue it with --resume {}",
                    dir.display(),
                    shell_quote(&dir.display().to_string())
                );
            }
            check_engines(&spec).map_err(|e| UsageError(format!("harness spsa: {e:#}")))?;
            std::fs::create_dir_all(&dir)
                .map_err(|e| UsageError(format!("cannot create {}: {e}", dir.display())))?;
            let tuner = Tuner::new(spec.params.clone(), spec.settings.clone())
                .map_err(|e| UsageError(format!("harness spsa: {e}")))?;
            spec.save(&dir)?;
            (spec, dir, tuner)
        }
    };
    let _lock = crate::runner::folder_lock::lock_folder(&dir)?;
    println!(
        "SPSA of {} parameters: {} iterations of {} pairs, {} in flight, results in {}",
        spec.params.len(),
        spec.settings.iterations,
        spec.settings.pairs_per_iteration,
        spec.settings.in_flight,
        dir.display()
    );
    let stop = crate::interrupt::stop_flag();
    let bar =
        ProgressBar::with_draw_target(Some(spec.settings.iterations), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} iterations, ETA {eta} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar.set_position(tuner.state().applied);
    let mut on_event = |event: TuneEvent<'_>| {
        if let TuneEvent::Applied { step, tuner } = event {
            bar.set_position(step.iteration);
            bar.set_message(moved_most(tuner));
            if args.stop_after.is_some_and(|n| step.iteration >= n) {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
    };
    let outcome = run_tune(&spec, tuner, &dir, stop, &mut on_event)?;
    bar.finish_and_clear();
    // run_tune has written tuned.toml.
    println!("{}", moved_most(&outcome.tuner));
    println!(
        "{} of {} iterations; parameters in {}",
        outcome.tuner.state().applied,
        spec.settings.iterations,
        dir.join("tuned.toml").display()
    );
    // The report draws the trajectories; a tune with no game yet has nothing to show.
    if dir.join("games.csv").is_file() {
        match crate::report::write_reports(&dir) {
            Ok(()) => println!("Report: {}", dir.join("report.html").display()),
            Err(e) => eprintln!("warning: no report: {e:#}"),
        }
    }
    if outcome.interrupted {
        println!(
            "Interrupted; continue with:\n  harness spsa --resume {}",
            shell_quote(&dir.display().to_string())
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// The parameters that moved most from their start, by the share of their range.
fn moved_most(tuner: &Tuner) -> String {
    let mut moves: Vec<(f64, String)> = tuner
        .params()
        .iter()
        .zip(tuner.theta())
        .map(|(d, &t)| {
            (
                (t - d.start).abs() / (d.max - d.min),
                format!("{} {}→{:.1}", d.name, d.start, t),
            )
        })
        .collect();
    moves.sort_by(|a, b| b.0.total_cmp(&a.0));
    moves
        .into_iter()
        .take(4)
        .map(|(_, s)| s)
        .collect::<Vec<_>>()
        .join(", ")
}
