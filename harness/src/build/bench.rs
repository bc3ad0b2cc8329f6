//! `engine bench`: run it and read the node count from its last line `<N> nodes <NPS> nps`
//! (OpenBench's convention), so a match can show whether two builds search differently.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

/// What `engine bench` reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub nps: u64,
}

/// Finds the last `<N> nodes <NPS> nps` line of bench output.
pub fn parse_bench_output(output: &str) -> Option<BenchResult> {
    output.lines().rev().find_map(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [nodes, "nodes", nps, "nps"] => Some(BenchResult {
                nodes: nodes.parse().ok()?,
                nps: nps.parse().ok()?,
            }),
            _ => None,
        }
    })
}

/// Runs `<binary> bench` and returns its result; fails after `timeout` or on bad output,
/// quoting the end of what the engine printed.
pub fn run_bench(binary: &Path, timeout: Duration) -> Result<BenchResult> {
    run_bench_with(binary, &[], timeout)
}

/// [`run_bench`] with arguments after `bench` (for our engine: the depth).
pub fn run_bench_with(binary: &Path, args: &[String], timeout: Duration) -> Result<BenchResult> {
    let mut child = crate::spawn::spawn(
        Command::new(binary)
            .arg("bench")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .with_context(|| format!("cannot run `{} bench`", binary.display()))?;
    let collect = |pipe: Option<Box<dyn Read + Send>>| {
        thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                text = String::from_utf8_lossy(&bytes).into_owned();
            }
            text
        })
    };
    let stdout = collect(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = collect(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );

    let deadline = Instant::now() + timeout;
    let status = loop {
        if let Some(status) = child.try_wait().context("waiting for bench")? {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            bail!(
                "`{} bench` did not finish within {timeout:?}",
                binary.display()
            );
        }
        thread::sleep(Duration::from_millis(20));
    };
    let out = stdout.join().unwrap_or_default();
    let err = stderr.join().unwrap_or_default();
    let tail = || {
        let all = format!("{out}{err}");
        let lines: Vec<&str> = all.lines().collect();
        lines[lines.len().saturating_sub(10)..].join("\n")
    };
    if !status.success() {
        bail!(
            "`{} bench` failed ({status}); output ends:\n{}",
            binary.display(),
            tail()
        );
    }
    parse_bench_output(&out).with_context(|| {
        format!(
            "`{} bench` printed no `<N> nodes <NPS> nps` line; output ends:\n{}",
            binary.display(),
            tail()
        )
    })
}

/// One round of [`compare`]: each engine's bench once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchRound {
    pub base: BenchResult,
    pub new: BenchResult,
}

impl BenchRound {
    /// The new engine's speed as a multiple of the base's.
    pub fn ratio(&self) -> f64 {
        self.new.nps as f64 / self.base.nps.max(1) as f64
    }
}

/// Speeds of two engines benched alternately (ABBA order, so that a machine getting busier or
/// quieter during the run weighs on both alike).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BenchComparison {
    pub rounds: Vec<BenchRound>,
}

impl BenchComparison {
    /// Median of the per-round ratios (robust to a round disturbed by other load).
    pub fn median_ratio(&self) -> f64 {
        let mut ratios: Vec<f64> = self.rounds.iter().map(BenchRound::ratio).collect();
        ratios.sort_by(f64::total_cmp);
        match ratios.len() {
            0 => f64::NAN,
            n if n % 2 == 1 => ratios[n / 2],
            n => (ratios[n / 2 - 1] + ratios[n / 2]) / 2.0,
        }
    }

    /// Mean nps of the base and the new engine.
    pub fn mean_nps(&self) -> (f64, f64) {
        let n = self.rounds.len().max(1) as f64;
        let sum = |f: fn(&BenchRound) -> u64| self.rounds.iter().map(|r| f(r) as f64).sum::<f64>();
        (sum(|r| r.base.nps) / n, sum(|r| r.new.nps) / n)
    }

    /// Whether every bench of both engines counted the same nodes (a pure speed change).
    pub fn same_nodes(&self) -> bool {
        self.rounds
            .iter()
            .all(|r| r.base.nodes == r.new.nodes && r.base.nodes == self.rounds[0].base.nodes)
    }
}

/// Runs `<base> bench ARGS` and `<new> bench ARGS` alternately for `rounds` rounds;
/// `on_round` hears each finished round.
pub fn compare(
    base: &Path,
    new: &Path,
    args: &[String],
    rounds: usize,
    timeout: Duration,
    on_round: &mut dyn FnMut(usize, &BenchRound),
) -> Result<BenchComparison> {
    let mut comparison = BenchComparison::default();
    for index in 0..rounds {
        let bench = |binary: &Path| run_bench_with(binary, args, timeout);
        let round = if index % 2 == 0 {
            let base = bench(base)?;
            BenchRound {
                base,
                new: bench(new)?,
            }
        } else {
            let new = bench(new)?;
            BenchRound {
                base: bench(base)?,
                new,
            }
        };
        on_round(index, &round);
        comparison.rounds.push(round);
    }
    Ok(comparison)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_last_nodes_line() {
        let output = "info depth 1 ...\n1000 nodes 50 nps\nposition 2\n123456 nodes 789012 nps\n\n";
        assert_eq!(
            parse_bench_output(output),
            Some(BenchResult {
                nodes: 123456,
                nps: 789012
            })
        );
        assert_eq!(
            parse_bench_output("  42 nodes 7 nps  \r\n"),
            Some(BenchResult { nodes: 42, nps: 7 })
        );
    }

    #[test]
    fn comparison_takes_the_median_ratio_and_checks_nodes() {
        let round = |base_nps, new_nps, nodes| BenchRound {
            base: BenchResult {
                nodes,
                nps: base_nps,
            },
            new: BenchResult {
                nodes,
                nps: new_nps,
            },
        };
        let mut c = BenchComparison {
            rounds: vec![round(100, 200, 7), round(100, 150, 7), round(100, 900, 7)],
        };
        assert_eq!(c.median_ratio(), 2.0);
        assert_eq!(c.mean_nps(), (100.0, 1250.0 / 3.0));
        assert!(c.same_nodes());
        c.rounds.push(round(100, 100, 8));
        assert_eq!(c.median_ratio(), 1.75);
        assert!(!c.same_nodes());
        c.rounds[3].new.nodes = 9;
        assert!(!c.same_nodes());
    }

    #[test]
    fn rejects_other_lines() {
        assert_eq!(parse_bench_output(""), None);
        assert_eq!(parse_bench_output("Bench: 123\nnodes nodes 5 nps"), None);
        assert_eq!(parse_bench_output("12 nodes 5 nps extra"), None);
        assert_eq!(parse_bench_output("-12 nodes 5 nps"), None);
    }
}
