use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct MatchArgs {}

pub fn run(_args: MatchArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
