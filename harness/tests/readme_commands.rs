//! The README's first command, `cargo run --release -p harness -- match`, must name one binary:
//! the package also builds `fake-uci`, so cargo needs `default-run` to choose.

use std::path::Path;

#[test]
fn cargo_run_of_the_package_runs_the_harness() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../README.md")).expect("README.md");
    let first_command = readme
        .lines()
        .find(|line| line.starts_with("cargo run"))
        .expect("a `cargo run` line in the README");
    assert!(
        first_command.contains("-p harness"),
        "README's first command: {first_command}"
    );
    let manifest: toml::Table = std::fs::read_to_string(root.join("Cargo.toml"))
        .expect("harness/Cargo.toml")
        .parse()
        .expect("harness/Cargo.toml is TOML");
    let binaries = manifest["bin"].as_array().map_or(0, Vec::len);
    let default_run = manifest["package"]
        .get("default-run")
        .and_then(|v| v.as_str());
    assert!(
        binaries <= 1 || default_run == Some("harness"),
        "harness/Cargo.toml has {binaries} binaries and default-run {default_run:?}: \
         `cargo run -p harness` cannot choose"
    );
}
