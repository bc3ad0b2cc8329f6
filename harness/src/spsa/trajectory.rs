//! `spsa.csv`, the trajectory of a tune: one row an applied iteration ([`Step`]): iteration,
//! k, games, wins, draws, losses (plus's view), then c, R and θ of every parameter, in the
//! order of the tune's parameters. Written and read here, so the tune and the report agree.

use std::path::Path;

use super::{ParamDef, Step};
use crate::stats::Trinomial;

const FIXED: [&str; 6] = ["iteration", "k", "games", "wins", "draws", "losses"];
const PER_PARAM: [&str; 3] = ["c", "r", "theta"];

/// The header row for a tune of `params`.
pub fn header(params: &[ParamDef]) -> Vec<String> {
    let mut header: Vec<String> = FIXED.iter().map(|s| s.to_string()).collect();
    for prefix in PER_PARAM {
        header.extend(params.iter().map(|p| format!("{prefix}.{}", p.name)));
    }
    header
}

/// One step as a row under [`header`].
pub fn record(step: &Step) -> Vec<String> {
    let mut record = vec![
        step.iteration.to_string(),
        format!("{:.4}", step.k),
        step.result.games().to_string(),
        step.result.wins.to_string(),
        step.result.draws.to_string(),
        step.result.losses.to_string(),
    ];
    for values in [&step.c, &step.r, &step.theta] {
        record.extend(values.iter().map(|v| format!("{v:.6}")));
    }
    record
}

/// Reads the steps of `path`, a tune of `params`. A header that is not this tune's, or a
/// value that is not a number, is an error naming the file and line; a last line cut off
/// by a crash (fewer fields) is left out.
pub fn read(path: &Path, params: &[ParamDef]) -> anyhow::Result<Vec<Step>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    let mut lines = text.lines();
    let expected = header(params).join(",");
    match lines.next() {
        Some(first) if first.trim_end() == expected => {}
        Some(first) => anyhow::bail!(
            "{}:1: the header is not that of this tune's parameters\n  found:    {first}\n  expected: {expected}",
            path.display()
        ),
        None => return Ok(Vec::new()),
    }
    let n = params.len();
    let width = FIXED.len() + PER_PARAM.len() * n;
    let mut steps = Vec::new();
    let all: Vec<&str> = lines.collect();
    for (i, line) in all.iter().enumerate() {
        let line_no = i + 2;
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != width {
            if i + 1 == all.len() && fields.len() < width {
                break; // cut off by a crash while being written
            }
            anyhow::bail!(
                "{}:{line_no}: {} fields, expected {width}",
                path.display(),
                fields.len()
            );
        }
        let number = |col: usize| -> anyhow::Result<f64> {
            fields[col].trim().parse::<f64>().map_err(|_| {
                anyhow::anyhow!(
                    "{}:{line_no}: column {} is '{}', not a number",
                    path.display(),
                    header(params)[col],
                    fields[col]
                )
            })
        };
        let count = |col: usize| -> anyhow::Result<u64> {
            fields[col].trim().parse::<u64>().map_err(|_| {
                anyhow::anyhow!(
                    "{}:{line_no}: column {} is '{}', not a count",
                    path.display(),
                    FIXED[col],
                    fields[col]
                )
            })
        };
        let block = |b: usize| -> anyhow::Result<Vec<f64>> {
            (0..n).map(|j| number(FIXED.len() + b * n + j)).collect()
        };
        steps.push(Step {
            iteration: count(0)?,
            k: number(1)?,
            result: Trinomial {
                wins: count(3)?,
                draws: count(4)?,
                losses: count(5)?,
            },
            c: block(0)?,
            r: block(1)?,
            theta: block(2)?,
        });
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spsa::ValueKind;

    fn params() -> Vec<ParamDef> {
        ["a", "b"]
            .iter()
            .map(|name| ParamDef {
                name: name.to_string(),
                kind: ValueKind::Int,
                start: 10.0,
                min: 0.0,
                max: 100.0,
                c_end: 2.0,
                r_end: 0.002,
            })
            .collect()
    }

    fn step(iteration: u64) -> Step {
        Step {
            iteration,
            k: 1.5,
            result: Trinomial {
                wins: 5,
                draws: 6,
                losses: 5,
            },
            c: vec![3.25, 1.5],
            r: vec![0.002, 0.004],
            theta: vec![10.5, 20.125],
        }
    }

    #[test]
    fn written_rows_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spsa.csv");
        let mut text = header(&params()).join(",") + "\n";
        for i in 1..=3 {
            text += &(record(&step(i)).join(",") + "\n");
        }
        text += "4,1.5,16,5"; // cut off
        std::fs::write(&path, text).unwrap();
        let steps = read(&path, &params()).unwrap();
        assert_eq!(steps, vec![step(1), step(2), step(3)]);
    }

    #[test]
    fn another_tunes_header_or_a_bad_value_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spsa.csv");
        std::fs::write(&path, "iteration,k\n").unwrap();
        let err = read(&path, &params()).unwrap_err().to_string();
        assert!(err.contains("spsa.csv:1"), "{err}");
        let mut row = record(&step(1));
        row[8] = "x".into();
        let text = header(&params()).join(",") + "\n" + &row.join(",") + "\n";
        std::fs::write(&path, text).unwrap();
        let err = read(&path, &params()).unwrap_err().to_string();
        assert!(err.contains("spsa.csv:2") && err.contains("r.a"), "{err}");
    }
}
