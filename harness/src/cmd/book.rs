use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct BookArgs {}

pub fn run(_args: BookArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
