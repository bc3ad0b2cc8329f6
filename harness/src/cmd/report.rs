use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct ReportArgs {}

pub fn run(_args: ReportArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
