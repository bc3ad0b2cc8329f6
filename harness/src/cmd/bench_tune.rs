//! `harness bench tune`: speed of one cost-plus-gradient pass of the tuner, and the memory it
//! keeps per position.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use engine::params::{EVAL_PARAMS, Params};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Chess, Position};

use crate::UsageError;
use crate::tune::dataset::{Format, Sample};
use crate::tune::model::{FeatureWeights, mse_and_gradient};
use crate::tune::traces::{self, LoadOptions, TraceSet};

#[derive(Debug, clap::Args)]
pub struct TuneBenchArgs {
    /// Positions in the benchmark set (made by repeating the loaded or generated ones).
    #[arg(long, default_value_t = 1_000_000)]
    pub positions: usize,
    /// Data set to take positions from; without it, positions of random games are used.
    #[arg(long)]
    pub data: Vec<PathBuf>,
    /// Distinct positions to generate when no data set is given.
    #[arg(long, default_value_t = 50_000)]
    pub distinct: usize,
    /// Timed passes (the median is reported).
    #[arg(long, default_value_t = 10)]
    pub passes: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: TuneBenchArgs) -> anyhow::Result<ExitCode> {
    if args.positions == 0 || args.passes == 0 {
        return Err(UsageError("--positions and --passes must be positive".into()).into());
    }
    let started = Instant::now();
    let (base, source) = if args.data.is_empty() {
        (
            generated(args.distinct.max(1))?,
            format!("{} positions of random games", args.distinct),
        )
    } else {
        let options = LoadOptions {
            format: Format::Auto,
            skip_bad: false,
            resolve: None,
        };
        let (set, _) = traces::load(&args.data, &options)?;
        let source = format!("{} positions of {}", set.len(), args.data[0].display());
        (set, source)
    };
    let set = base.repeated_to(args.positions)?;
    drop(base);
    let setup_seconds = started.elapsed().as_secs_f64();

    let weights = FeatureWeights::from_params(&Params::default());
    let mut gradient = vec![0.0; EVAL_PARAMS];
    // One untimed pass to fault the memory in.
    mse_and_gradient(&set, &weights, 3.0, &mut gradient);
    let cpu_before = process_cpu_seconds();
    let mut times: Vec<f64> = (0..args.passes)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(mse_and_gradient(&set, &weights, 3.0, &mut gradient));
            t.elapsed().as_secs_f64()
        })
        .collect();
    // CPU time says what the passes cost even when other jobs share the cores.
    let cpu_per_pass = process_cpu_seconds()
        .zip(cpu_before)
        .map(|(after, before)| (after - before) / args.passes as f64);
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let positions_per_second = set.len() as f64 / median;
    let bytes_per_position = set.bytes() as f64 / set.len() as f64;
    let terms_per_position = set.term_count() as f64 / set.len() as f64;
    let threads = rayon::current_num_threads();
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "positions": set.len(),
                "source": source,
                "threads": threads,
                "seconds_per_pass": median,
                "fastest_pass": times[0],
                "positions_per_second": positions_per_second,
                "bytes_per_position": bytes_per_position,
                "terms_per_position": terms_per_position,
                "cpu_seconds_per_pass": cpu_per_pass,
                "setup_seconds": setup_seconds,
            })
        );
    } else {
        println!(
            "tune bench: {} positions ({source}, repeated), {threads} threads",
            set.len()
        );
        println!(
            "memory: {bytes_per_position:.1} bytes/position ({terms_per_position:.1} terms), {:.1} MB in all",
            set.bytes() as f64 / 1e6
        );
        println!(
            "cost+gradient pass: {median:.4} s (median of {}, fastest {:.4} s), {:.2} M positions/s",
            args.passes,
            times[0],
            positions_per_second / 1e6
        );
        if let Some(cpu) = cpu_per_pass {
            println!(
                "CPU time: {cpu:.4} s per pass ({:.4} s per pass on {threads} idle cores)",
                cpu / threads as f64
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Traces of positions from seeded random games, with random results.
fn generated(count: usize) -> anyhow::Result<TraceSet> {
    let mut rng = ChaCha8Rng::seed_from_u64(20240601);
    let mut samples = Vec::with_capacity(count);
    while samples.len() < count {
        let mut pos = Chess::default();
        let result = [0.0, 0.5, 1.0][rng.random_range(0..3usize)];
        for ply in 0..120 {
            let moves = pos.legal_moves();
            let Some(m) = moves.choose(&mut rng) else {
                break;
            };
            pos.play_unchecked(*m);
            if ply >= 8 && samples.len() < count {
                samples.push(Sample {
                    position: pos.clone(),
                    result,
                    score: None,
                });
            }
        }
    }
    let mut set = TraceSet::new();
    traces::append_samples(&mut set, &samples, None)?;
    Ok(set)
}

/// User plus system CPU time of this process so far (Linux `/proc`; `None` elsewhere).
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start at field 3, "state".
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    // The kernel reports in USER_HZ, 100 on every common Linux configuration.
    Some(ticks / 100.0)
}
