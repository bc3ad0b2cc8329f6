//! Our `engine` binary for tests that run it over UCI, built in this profile's target folder
//! if needed.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

pub fn engine_binary() -> PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY
        .get_or_init(|| {
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let status = Command::new(cargo)
                .args(["build", "-p", "engine", "--bin", "engine"])
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .status()
                .expect("cargo runs");
            assert!(status.success(), "building the engine binary failed");
            // A test runs from <target>/<profile>/deps/.
            let exe = std::env::current_exe().expect("test path");
            exe.parent()
                .and_then(|deps| deps.parent())
                .expect("profile folder")
                .join("engine")
        })
        .clone()
}
