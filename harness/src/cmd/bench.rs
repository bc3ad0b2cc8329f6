use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct BenchArgs {}

pub fn run(_args: BenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
