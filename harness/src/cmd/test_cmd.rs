//! `harness test create|list|status|stop|export`: tests in the store. `create` takes the
//! options of `harness match` and stores the match they describe.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::UsageError;
use crate::cli::match_options::{MatchArgs, build_config};
use crate::distributed::status::{list_line, status_text, test_scoreboard};
use crate::distributed::{expected_benches, export_test, match_config_of, new_test_from_config};
use crate::store::url::redact;
use crate::store::{Store, StoreUrl};

#[derive(Debug, clap::Args)]
pub struct TestArgs {
    /// The store: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE. Default: $HARNESS_STORE.
    #[arg(long, global = true)]
    pub store: Option<StoreUrl>,
    #[command(subcommand)]
    pub what: TestWhat,
}

#[derive(Debug, clap::Subcommand)]
pub enum TestWhat {
    /// Store a test from the options of `harness match`; prints its id (alone, on stdout).
    Create(Box<MatchArgs>),
    /// Every test, newest first.
    List,
    /// A test's results (fastchess block), SPRT state and per-worker throughput.
    Status {
        /// The test id.
        id: i64,
    },
    /// Stop a test: workers claim no more of it; later commits are not counted.
    Stop {
        /// The test id.
        id: i64,
    },
    /// Write a test's games as the results folder of a local match (`harness report` reads it).
    Export {
        /// The test id.
        id: i64,
        /// The folder to write (created; must not hold a match).
        dir: PathBuf,
    },
}

/// `a` with the password of a store URL in it replaced by `***`.
fn redact_arg(a: &str) -> String {
    match a.find("postgres://").or_else(|| a.find("postgresql://")) {
        Some(at) => format!("{}{}", &a[..at], redact(&a[at..])),
        None => a.to_string(),
    }
}

fn connect(arg: Option<&StoreUrl>) -> anyhow::Result<Store> {
    let url = StoreUrl::from_arg_or_env(arg).map_err(|e| UsageError(e.to_string()))?;
    Ok(Store::connect(&url)?)
}

pub fn run(args: TestArgs) -> anyhow::Result<ExitCode> {
    let mut store = connect(args.store.as_ref())?;
    match args.what {
        TestWhat::Create(options) => {
            let (mut config, _) = build_config(&options)?;
            // The command line is kept with the test: never with the store's password.
            config.command = config.command.iter().map(|a| redact_arg(a)).collect();
            eprintln!("checking the engines' bench node counts...");
            let benches = expected_benches(&config, &mut |note| eprintln!("note: {note}"))?;
            let test = new_test_from_config(&config, benches)?;
            let id = store.create_test(&test)?;
            eprintln!(
                "created test {id}: {} vs {}, {} pairs, bench {:?}",
                config.engines[0].name,
                config.engines[1].name,
                test.pair_count,
                test.expected_bench
            );
            println!("{id}");
        }
        TestWhat::List => {
            for test in store.list_tests()? {
                println!("{}", list_line(&test));
            }
        }
        TestWhat::Status { id } => {
            let report = store.report(id)?;
            let config = match_config_of(&report.test)?;
            let board = test_scoreboard(&mut store, &report.test, &config)?;
            print!("{}", status_text(&report, &config, &board));
        }
        TestWhat::Stop { id } => {
            let status = store.stop_test(id)?;
            println!("test {id}: {status}");
        }
        TestWhat::Export { id, dir } => {
            let out = export_test(&mut store, id, &dir)?;
            for note in &out.notes {
                eprintln!("note: {note}");
            }
            println!(
                "test {id} ({}): {} pairs, {} games written to {}",
                out.status,
                out.pairs,
                out.games,
                out.dir.display()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
