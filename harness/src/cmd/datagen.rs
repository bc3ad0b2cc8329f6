use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct DatagenArgs {}

pub fn run(_args: DatagenArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
