//! Match reports: `report.md` and a self-contained `report.html` with plots, for one results
//! folder, and a comparison page for several.
//!
//! - [`load`] reads the folder (games.csv, summary.json, the configuration);
//! - [`setup`] says what was run (engines and their parameter differences, limits, book, SPRT);
//! - [`analysis`] computes the numbers with [`crate::stats`];
//! - [`plots`] draws them with plotters into SVG;
//! - [`tune`] summarises an SPSA tune's folder (its trajectories and end values);
//! - [`markdown`] and [`html`] lay the report out, sharing wording through [`text`].

pub mod analysis;
pub mod html;
pub mod load;
pub mod markdown;
pub mod plots;
pub mod setup;
pub mod text;
pub mod tune;

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use analysis::Analysis;
use load::RunFolder;
use setup::RunSetup;

/// One run, read and analysed: everything its report shows.
#[derive(Clone, Debug)]
pub struct RunReport {
    pub run: RunFolder,
    pub setup: RunSetup,
    pub analysis: Analysis,
    /// What the reader should know: files missing or cut off, values that cannot be
    /// computed, summary.json disagreeing with games.csv.
    pub notes: Vec<String>,
}

/// Several runs shown side by side.
#[derive(Clone, Debug)]
pub struct Comparison {
    pub runs: Vec<RunReport>,
}

/// Reads and analyses the results folder `dir`.
pub fn build(dir: &Path) -> anyhow::Result<RunReport> {
    let run = load::load_run(dir)?;
    let setup = setup::read_setup(&run);
    let mut analysis = analysis::analyse(
        &run.games,
        run.board.first(),
        run.board.second(),
        setup.sprt,
    )
    .with_context(|| format!("analysing {}", dir.join("games.csv").display()))?;
    analysis.unpaired_games = run.board.half_pair_games();
    let mut notes = run.notes.clone();
    notes.extend(analysis.summary.notes.iter().cloned());
    notes.extend(disagreements(&run, &analysis));
    Ok(RunReport {
        run,
        setup,
        analysis,
        notes,
    })
}

/// Where summary.json says something else than the games (a run still going, or edited).
fn disagreements(run: &RunFolder, analysis: &Analysis) -> Vec<String> {
    let Some(recorded) = &run.summary else {
        return Vec::new();
    };
    let s = &analysis.summary;
    let mut notes = Vec::new();
    let games = recorded.stats.games;
    if games != s.games {
        notes.push(format!(
            "summary.json counts {games} games, games.csv has {}",
            s.games
        ));
    }
    let close = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0),
        (None, None) => true,
        _ => false,
    };
    for (key, recorded, computed) in [
        ("elo", recorded.stats.elo, s.elo),
        ("nelo", recorded.stats.nelo, s.nelo),
        ("llr", recorded.stats.llr, s.llr),
    ] {
        if !close(recorded, computed) && recorded.is_some() {
            notes.push(format!(
                "summary.json has {key} = {}, the games give {}",
                text::number(recorded, 4),
                text::number(computed, 4)
            ));
        }
    }
    if let Some(state) = recorded.stats.state.map(|st| st.name())
        && analysis.sprt.is_some()
        && state != s.state().name()
    {
        notes.push(format!(
            "the run stopped with SPRT state '{state}' (the match runner corrects the bounds \
             for overshoot); from the final counts alone it is '{}'",
            s.state().name()
        ));
    }
    notes
}

/// The files a report of `dir` is written to: `(report.md, report.html)`.
pub fn report_paths(dir: &Path) -> (PathBuf, PathBuf) {
    (dir.join("report.md"), dir.join("report.html"))
}

/// Writes `report.md` and `report.html` into the results folder `dir`. The match runner calls
/// this at the end of every match.
pub fn write_reports(dir: &Path) -> anyhow::Result<()> {
    let report = build(dir)?;
    write_report_files(&report)
}

/// Writes the two report files of an already built report into its folder.
pub fn write_report_files(report: &RunReport) -> anyhow::Result<()> {
    let (md_path, html_path) = report_paths(&report.run.dir);
    let html = html::render(report)?;
    if let Some(run) = &report.run.spsa {
        let svg = plots::spsa_trajectories(&tune::trajectories(run))?;
        write_file(&report.run.dir.join("trajectory.svg"), &svg)?;
    }
    write_file(&md_path, &markdown::render(report))?;
    write_file(&html_path, &html)
}

/// Writes `compare.md` and `compare.html` for several runs into `out`; returns their paths.
pub fn write_comparison(runs: Vec<RunReport>, out: &Path) -> anyhow::Result<(PathBuf, PathBuf)> {
    let comparison = Comparison { runs };
    let (md_path, html_path) = (out.join("compare.md"), out.join("compare.html"));
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let html = html::render_comparison(&comparison)?;
    write_file(&md_path, &markdown::render_comparison(&comparison))?;
    write_file(&html_path, &html)?;
    Ok((md_path, html_path))
}

/// Writes through a temporary file and a rename, so a reader never sees half a report.
fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))
}
