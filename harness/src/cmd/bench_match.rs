use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct MatchBenchArgs {}

pub fn run(_args: MatchBenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
