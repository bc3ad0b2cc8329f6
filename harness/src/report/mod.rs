//! Match reports: `report.md` and a self-contained `report.html` with plots, for one results
//! folder, and a comparison page for several.
//!
//! - [`load`] reads the folder (games.csv, summary.json, the configuration);
//! - [`setup`] says what was run (engines and their parameter differences, limits, book, SPRT);
//! - [`analysis`] computes the numbers with [`crate::stats`];
//! - [`plots`] draws them with plotters into SVG;
//! - [`markdown`] and [`html`] lay the report out, sharing wording through [`text`].

pub mod analysis;
pub mod html;
pub mod load;
pub mod markdown;
pub mod plots;
pub mod setup;
pub mod text;

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
    let mut declared = setup.engine_names();
    if declared.len() < 2
        && let Some(summary) = &run.summary
    {
        declared = summary.engines.clone();
    }
    let analysis = analysis::analyse(&run.games, &declared, setup.sprt.clone())
        .with_context(|| format!("analysing {}", dir.join("games.csv").display()))?;
    Ok(RunReport {
        run,
        setup,
        analysis,
    })
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
