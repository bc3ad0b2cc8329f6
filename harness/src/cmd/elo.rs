use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct EloArgs {}

pub fn run(_args: EloArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
