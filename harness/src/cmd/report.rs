//! `harness report DIR [DIR ...]`: match reports for finished (or running) results folders.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::report;

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// Results folders written by `harness match` (each gets report.md and report.html).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// With several folders: where compare.md and compare.html go (default: the first folder).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

pub fn run(args: ReportArgs) -> anyhow::Result<ExitCode> {
    let mut reports = Vec::with_capacity(args.dirs.len());
    for dir in &args.dirs {
        let built = report::build(dir)?;
        report::write_report_files(&built)?;
        let (md, html) = report::report_paths(dir);
        println!("wrote {} and {}", md.display(), html.display());
        reports.push(built);
    }
    if reports.len() > 1 {
        let out = args.out.unwrap_or_else(|| args.dirs[0].clone());
        let (md, html) = report::write_comparison(reports, &out)?;
        println!("wrote {} and {}", md.display(), html.display());
    }
    Ok(ExitCode::SUCCESS)
}
