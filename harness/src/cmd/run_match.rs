//! `harness match`: the options become a [`MatchConfig`] (in [`crate::cli::match_options`]),
//! the library plays it ([`crate::runner::run_match`]), and the terminal listeners show it.

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::match_options::{MatchArgs, OutputFormat, build_config, output_format};
use crate::cli::{exit, shell_quote};
use crate::reporters::{Console, FastchessReport, GameLines, JsonEvents, Progress, bench_line};
use crate::runner::{Control, Event, Listeners, MatchConfig, Start, run_match};
use crate::scoreboard::Scoreboard;
use crate::stats::SprtState;
use crate::{UsageError, usage_bail};

#[derive(Debug, Clone, Default, clap::Args)]
pub struct MatchCommandArgs {
    #[command(flatten)]
    pub options: MatchArgs,
    /// Continue the match in this results folder.
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Write every event as a JSON line to FILE (`-`: standard output, instead of the
    /// human-readable lines).
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
    /// Leave out the per-game `Started game` / `Finished game` lines.
    #[arg(long)]
    pub no_game_lines: bool,
    /// Test hook: behave as if interrupted after this many games were written in this run.
    #[arg(long, hide = true)]
    pub stop_after: Option<u64>,
}

/// The match to run and its folder: from `--resume DIR`'s saved configuration, or from the
/// options.
fn match_to_run(args: &MatchCommandArgs) -> anyhow::Result<(MatchConfig, PathBuf, Start)> {
    let Some(dir) = &args.resume else {
        let (config, dir) = build_config(&args.options)?;
        if dir.join("games.csv").exists() {
            usage_bail!(
                "{} already holds a match; continue it with --resume {} or choose another --out",
                dir.display(),
                shell_quote(&dir.display().to_string())
            );
        }
        return Ok((config, dir, Start::Fresh));
    };
    let mut config = MatchConfig::load(dir)?;
    for engine in &mut config.engines {
        if let Some(external) = engine.external.as_mut() {
            crate::runner::external::ensure_built(&engine.name, external)?;
        }
    }
    if let Some(c) = args.options.concurrency {
        if c == 0 {
            usage_bail!("--concurrency 0: give at least 1");
        }
        config.concurrency = c;
    }
    let o = &args.options;
    if let Some(games) = o.games {
        if games < config.games {
            usage_bail!(
                "--games {games}: the match in {} already asks for {} games; a resumed match \
                 can only grow (give at least {})",
                dir.display(),
                config.games,
                config.games
            );
        }
        if games > config.games {
            eprintln!(
                "note: the match grows from {} to {games} games",
                config.games
            );
            config.games = games;
        }
    }
    if !o.engine.is_empty() || !o.sprt.is_empty() || !o.each.is_empty() {
        eprintln!(
            "note: --resume uses the configuration saved in {} (--games may raise its game \
             count, --concurrency may change); other options are ignored",
            dir.join("config.toml").display()
        );
    }
    Ok((config, dir.clone(), Start::Resume))
}

pub fn run(args: MatchCommandArgs) -> anyhow::Result<ExitCode> {
    let (config, dir, start) = match_to_run(&args)?;
    let stop = crate::interrupt::stop_flag();
    let sprt = config.sprt.as_ref().map(|s| s.config()).transpose()?;
    let events_to_stdout = args.events.as_deref().is_some_and(|p| p.as_os_str() == "-");
    let human = !events_to_stdout;

    let progress = Progress::new(human && std::io::stderr().is_terminal());
    let mut bar = &progress;
    let mut lines = GameLines::new(std::io::stdout());
    if output_format(&args.options)? == OutputFormat::Cutechess {
        lines = lines.with_score_lines();
    }
    let report = FastchessReport::new(&config, sprt, config.report_every, std::io::stdout());
    let mut console = Console::new(
        &progress,
        dir.clone(),
        (!args.no_game_lines).then_some(lines),
        report,
    )
    .with_header_line(bench_line(&config));
    let mut events: Option<JsonEvents<Box<dyn Write>>> = match &args.events {
        None => None,
        Some(path) if path.as_os_str() == "-" => {
            Some(JsonEvents::new(Box::new(std::io::stdout().lock())))
        }
        Some(path) => {
            let file = File::create(path).map_err(|e| {
                UsageError(format!("--events {}: cannot write: {e}", path.display()))
            })?;
            Some(JsonEvents::new(Box::new(BufWriter::new(file))))
        }
    };
    let mut played = 0u64;
    let mut stop_after = |event: &Event<'_>, _: &Scoreboard| -> anyhow::Result<Control> {
        if let Event::GameFinished { .. } = event {
            played += 1;
            if args.stop_after.is_some_and(|n| played >= n) {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        Ok(Control::Continue)
    };
    let mut listeners = Listeners::new();
    listeners.push(&mut bar);
    if human {
        listeners.push(&mut console);
    }
    if let Some(events) = events.as_mut() {
        listeners.push(events);
    }
    listeners.push(&mut stop_after);

    let outcome = run_match(&config, &dir, start, stop, &mut listeners)?;
    drop(listeners);
    if !human {
        return Ok(exit_code(&config, &outcome));
    }
    println!("Report: {}", dir.join("report.html").display());
    let summary = &outcome.summary;
    // Output flags are not part of the saved configuration: the hint carries this run's.
    let resume_command = format!(
        "harness match --resume {}{}",
        shell_quote(&dir.display().to_string()),
        if args.no_game_lines {
            " --no-game-lines"
        } else {
            ""
        }
    );
    match outcome.sprt_crossed_at {
        // The pairs already started when the LLR crossed a bound count too, and brought it
        // back inside: the test goes on.
        Some(at) if summary.state() == SprtState::Continue => println!(
            "SPRT: the LLR crossed a bound after {at} games, but the pairs already under way \
             brought it back to {:.2}: no decision yet; continue with\n  {resume_command}",
            summary.llr.unwrap_or(f64::NAN),
        ),
        _ if outcome.stopped_by_sprt => println!(
            "SPRT: {} after {} games",
            summary.state().name(),
            summary.games
        ),
        _ => {}
    }
    println!("Results in {}", dir.display());
    let written = outcome.board.games_counted().len();
    if let Some(why) = &outcome.run.fault_stop {
        println!("Stopped: {why}");
        println!("{written} games written; continue with:\n  {resume_command}");
    } else if outcome.run.interrupted {
        println!("Interrupted: {written} games written; continue with:\n  {resume_command}");
    }
    Ok(exit_code(&config, &outcome))
}

/// The exit code for how the match ended (see [`exit`]).
fn exit_code(config: &MatchConfig, outcome: &crate::runner::MatchOutcome) -> ExitCode {
    if outcome.run.fault_stop.is_some() {
        return ExitCode::from(exit::FAULT_STOP);
    }
    if outcome.run.interrupted {
        return ExitCode::from(exit::INTERRUPTED);
    }
    if config.sprt.is_none() {
        return ExitCode::SUCCESS;
    }
    match outcome.summary.state() {
        SprtState::AcceptH1 => ExitCode::SUCCESS,
        SprtState::AcceptH0 => ExitCode::from(exit::SPRT_H0),
        SprtState::Continue => ExitCode::from(exit::SPRT_UNDECIDED),
    }
}
