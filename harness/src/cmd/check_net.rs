//! `harness check-net`: how a network fits labelled positions, next to the hand-written
//! evaluation.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::net_targets::NetTargetArgs;
use crate::nnue::fit::{self, FitSpec};

#[derive(Debug, clap::Args)]
#[command(after_help = "Each position's target is the one `train-net` fits \
(`wdl · result + (1 − wdl) · sigmoid(score / 400)`, side to move's view); the loss of an \
evaluation is the mean squared difference to `sigmoid(eval / 400)`. The network is evaluated \
as the engine does (quantised); a residual network's output is added to the hand-written \
evaluation at the default weights, kept within ±--limit if given. Use fresh positions (another \
datagen seed) to see how a network does beyond its training data.

Example:
  harness check-net --net engine/nets/default.nnue --data results/datagen/fresh-sf5.txt \\
    --score-scale 0.8 --wdl 0.2 --limit 20")]
pub struct CheckNetArgs {
    /// The network file.
    #[arg(long, value_name = "FILE")]
    pub net: PathBuf,
    /// `FEN; score; result` file (may end in .xz). Repeat for several.
    #[arg(long, value_name = "FILE", required = true)]
    pub data: Vec<PathBuf>,
    #[command(flatten)]
    pub targets: NetTargetArgs,
}

pub fn spec(args: CheckNetArgs) -> anyhow::Result<FitSpec> {
    let targets = args.targets.checked()?;
    Ok(FitSpec {
        net: args.net,
        data: args.data,
        rule: targets.rule,
        wdl: targets.wdl,
        limit: targets.limit,
    })
}

pub fn run(args: CheckNetArgs) -> anyhow::Result<ExitCode> {
    let report = fit::measure(&spec(args)?)?;
    println!("{report}");
    Ok(ExitCode::SUCCESS)
}
