//! Every fishtest row of the reference vectors (tests/fixtures/sprt_reference.csv, a copy of
//! ../shared/sprt/reference.csv computed by running fishtest's own statistics code):
//! Elo, its error and interval, LOS, nElo and its error, LLR, bounds and SPRT state.

use std::collections::HashMap;

use harness::stats::sprt::{bayeselo_drawelo, bayeselo_to_logistic, llr_logistic, llr_normalized};
use harness::stats::{SprtConfig, SprtState, Trinomial, estimate, llr_bounds};

const FIXTURE: &str = include_str!("fixtures/sprt_reference.csv");

type Row = HashMap<String, String>;

fn rows() -> Vec<Row> {
    let mut reader = csv::Reader::from_reader(FIXTURE.as_bytes());
    let headers = reader.headers().expect("header").clone();
    reader
        .records()
        .map(|r| {
            let r = r.expect("record");
            headers
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_owned(), v.to_owned()))
                .collect()
        })
        .collect()
}

fn fishtest_rows() -> Vec<Row> {
    let rows: Vec<Row> = rows()
        .into_iter()
        .filter(|r| r["source"] == "fishtest")
        .collect();
    assert!(
        rows.len() >= 89,
        "expected the fishtest rows, got {}",
        rows.len()
    );
    rows
}

fn num(row: &Row, key: &str) -> Option<f64> {
    let v = &row[key];
    (!v.is_empty()).then(|| v.parse().unwrap_or_else(|_| panic!("{key} = {v}")))
}

fn counts(row: &Row) -> Vec<u64> {
    row["counts_low_to_high"]
        .split(';')
        .map(|c| c.parse().expect("count"))
        .collect()
}

/// 1e-9 relative, or 1e-12 absolute near zero.
fn close(got: f64, want: f64) -> bool {
    (got - want).abs() <= (1e-9 * want.abs()).max(1e-12)
}

fn check(failures: &mut Vec<String>, row: &Row, what: &str, got: f64, want: f64) {
    if !close(got, want) {
        failures.push(format!(
            "{} {} {}: {what} = {got:e}, fishtest {want:e} (diff {:e})",
            row["case_id"],
            row["model"],
            row["counts_low_to_high"],
            got - want
        ));
    }
}

#[test]
fn elo_los_nelo_match_fishtest() {
    let mut failures = Vec::new();
    for row in fishtest_rows() {
        let est = estimate(&counts(&row));
        let pairs = [
            ("elo", est.elo),
            ("elo_err95", est.elo_err95),
            ("elo_ci95_low", est.elo_ci95.0),
            ("elo_ci95_high", est.elo_ci95.1),
            ("los", est.los),
            ("draw_ratio", est.draw_ratio),
            ("nelo", est.nelo),
            ("nelo_err95", est.nelo_err95),
        ];
        for (key, got) in pairs {
            let want = num(&row, key).unwrap_or_else(|| panic!("{} has no {key}", row["case_id"]));
            check(&mut failures, &row, key, got, want);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn llr_bounds_and_state_match_fishtest() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in fishtest_rows() {
        let counts = counts(&row);
        let alpha = num(&row, "alpha").unwrap();
        let beta = num(&row, "beta").unwrap();
        let elo0 = num(&row, "elo0").unwrap();
        let elo1 = num(&row, "elo1").unwrap();
        let (lower, upper) = llr_bounds(alpha, beta);
        check(
            &mut failures,
            &row,
            "llr_lower",
            lower,
            num(&row, "llr_lower_bound").unwrap(),
        );
        check(
            &mut failures,
            &row,
            "llr_upper",
            upper,
            num(&row, "llr_upper_bound").unwrap(),
        );

        let llr = match row["model"].as_str() {
            "logistic" => Ok(llr_logistic(&counts, elo0, elo1)),
            "normalized" => llr_normalized(&counts, elo0, elo1),
            "BayesElo" => {
                assert_eq!(counts.len(), 3, "fishtest BayesElo rows are trinomial");
                let tri = Trinomial {
                    losses: counts[0],
                    draws: counts[1],
                    wins: counts[2],
                };
                let drawelo = bayeselo_drawelo(&tri);
                Ok(llr_logistic(
                    &counts,
                    bayeselo_to_logistic(elo0, drawelo),
                    bayeselo_to_logistic(elo1, drawelo),
                ))
            }
            other => panic!("unknown fishtest model {other}"),
        };
        match (llr, num(&row, "llr")) {
            (Ok(got), Some(want)) => {
                check(&mut failures, &row, "llr", got, want);
                let config = SprtConfig {
                    elo0,
                    elo1,
                    alpha,
                    beta,
                    model: row["model"].parse().unwrap(),
                };
                let state = match config.decide(got) {
                    SprtState::AcceptH1 => "accepted",
                    SprtState::AcceptH0 => "rejected",
                    SprtState::Continue => "continue",
                };
                if state != row["sprt_state"] {
                    failures.push(format!(
                        "{} {}: state {state}, fishtest {}",
                        row["case_id"], row["model"], row["sprt_state"]
                    ));
                }
                checked += 1;
            }
            // fishtest raised (normalized model, support not straddling zero): so must we.
            (Err(_), None) => checked += 1,
            (got, want) => failures.push(format!(
                "{} {}: llr {got:?}, fishtest {want:?} ({})",
                row["case_id"], row["model"], row["note"]
            )),
        }
    }
    assert_eq!(checked, 89);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
