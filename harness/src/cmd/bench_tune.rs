use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct TuneBenchArgs {}

pub fn run(_args: TuneBenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
