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
    let mut child = crate::spawn::spawn(
        Command::new(binary)
            .arg("bench")
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
    fn rejects_other_lines() {
        assert_eq!(parse_bench_output(""), None);
        assert_eq!(parse_bench_output("Bench: 123\nnodes nodes 5 nps"), None);
        assert_eq!(parse_bench_output("12 nodes 5 nps extra"), None);
        assert_eq!(parse_bench_output("-12 nodes 5 nps"), None);
    }
}
