use std::process::ExitCode;

/// `harness bench match|tune|store|spsa`: throughput and speed measurements (README figures).
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub what: BenchWhat,
}

#[derive(Debug, clap::Subcommand)]
pub enum BenchWhat {
    /// Games per second at fixed nodes, and the harness's own overhead per game.
    Match(super::bench_match::MatchBenchArgs),
    /// Tuner speed: cost-plus-gradient passes per second and memory per position.
    Tune(super::bench_tune::TuneBenchArgs),
    /// PostgreSQL store: committed pairs per second and claim latency, simulated workers.
    Store(super::bench_store::StoreBenchArgs),
    /// SPSA iterations per hour, in-process and over UCI, side by side.
    Spsa(super::bench_spsa::SpsaBenchArgs),
    /// Engine speed: `engine bench` nps side by side with another build (e.g. --against git=REV).
    Engine(super::bench_engine::EngineBenchArgs),
}

pub fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    match args.what {
        BenchWhat::Match(a) => super::bench_match::run(a),
        BenchWhat::Tune(a) => super::bench_tune::run(a),
        BenchWhat::Store(a) => super::bench_store::run(a),
        BenchWhat::Spsa(a) => super::bench_spsa::run(a),
        BenchWhat::Engine(a) => super::bench_engine::run(a),
    }
}
