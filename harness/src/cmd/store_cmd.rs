//! `harness store migrate`: creates or upgrades the store's schema.

use std::process::ExitCode;

use crate::UsageError;
use crate::store::{StoreUrl, migrate};

#[derive(Debug, clap::Args)]
pub struct StoreArgs {
    #[command(subcommand)]
    pub what: StoreWhat,
}

#[derive(Debug, clap::Subcommand)]
pub enum StoreWhat {
    /// Apply the schema migrations (as the database owner; creates the harness_worker role).
    Migrate(MigrateArgs),
}

#[derive(Debug, clap::Args)]
pub struct MigrateArgs {
    /// The store: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE. Default: $HARNESS_STORE.
    #[arg(long)]
    pub store: Option<StoreUrl>,
}

pub fn run(args: StoreArgs) -> anyhow::Result<ExitCode> {
    match args.what {
        StoreWhat::Migrate(a) => {
            let url = StoreUrl::from_arg_or_env(a.store.as_ref())
                .map_err(|e| UsageError(e.to_string()))?;
            let report = migrate(&url)?;
            if report.applied.is_empty() {
                println!("{url}: schema version {} already, nothing to do", report.to);
            } else {
                println!(
                    "{url}: schema version {} -> {} ({})",
                    report.from,
                    report.to,
                    report.applied.join(", ")
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
