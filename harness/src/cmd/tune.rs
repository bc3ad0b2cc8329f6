use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct TuneArgs {}

pub fn run(_args: TuneArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
