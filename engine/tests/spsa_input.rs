//! `engine spsa-input`: OpenBench's SPSA input, read from the registry.

use std::process::Command;

use engine::params::{self, Params};

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_engine"))
        .arg("spsa-input")
        .args(args)
        .output()
        .expect("run engine");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn default_is_the_search_group_with_registry_ranges_and_steps() {
    let (code, stdout, _) = run(&[]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    let search = params::select("search").unwrap();
    assert_eq!(lines.len(), search.len());
    for (line, id) in lines.iter().zip(search) {
        let spec = &params::specs()[id];
        let fields: Vec<&str> = line.split(", ").collect();
        assert_eq!(fields.len(), 7, "{line}");
        assert_eq!(fields[0], spec.name);
        assert_eq!(fields[1], "int");
        assert_eq!(fields[2].parse::<i32>().unwrap(), spec.default);
        assert_eq!(fields[3].parse::<i32>().unwrap(), spec.min);
        assert_eq!(fields[4].parse::<i32>().unwrap(), spec.max);
        assert_eq!(fields[5].parse::<f64>().unwrap(), spec.spsa.c_end);
        assert_eq!(fields[6].parse::<f64>().unwrap(), spec.spsa.r_end);
    }
    assert!(stdout.starts_with("delta_margin, int, 227, 0, 2000, 20, 0.002\n"));
}

#[test]
fn params_selects_names_and_prefixes_in_either_spelling() {
    let (code, a, _) = run(&["--params", "king_distance_factor,mate_edge_*"]);
    assert_eq!(code, 0);
    let (_, b, _) = run(&["--params=king_distance_factor,mate_edge_*"]);
    assert_eq!(a, b);
    let names: Vec<&str> = a.lines().map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(
        names,
        [
            "king_distance_factor",
            "mate_edge_0",
            "mate_edge_1",
            "mate_edge_2",
            "mate_edge_3"
        ]
    );
    let default = Params::default()
        .get_by_name("king_distance_factor")
        .unwrap();
    assert!(a.starts_with(&format!("king_distance_factor, int, {default}, 0, 200, ")));
}

#[test]
fn bad_selection_is_a_usage_error_naming_the_option_and_value() {
    let (code, stdout, stderr) = run(&["--params", "delta_margn"]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("--params delta_margn") && stderr.contains("did you mean delta_margin"),
        "{stderr}"
    );
    let (code, _, stderr) = run(&["--params"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--params needs a value"), "{stderr}");
    let (code, _, stderr) = run(&["--bogus"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("'--bogus'"), "{stderr}");
}
