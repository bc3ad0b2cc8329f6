//! summary.json and other JSON files of a run.

use std::path::Path;

use anyhow::Context;
use serde::Serialize;

/// Writes `value` as pretty JSON, through a temporary file so a crash never leaves half a file.
pub fn write_json(path: &Path, value: &impl Serialize) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, text + "\n").with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Writes `dir/summary.json`: the statistics' keys (as `harness elo --json`) merged with
/// `extra` (engines, games, wall_seconds, terminations...).
pub fn write_summary(
    dir: &Path,
    stats: &impl Serialize,
    extra: serde_json::Map<String, serde_json::Value>,
) -> anyhow::Result<()> {
    let mut value = serde_json::to_value(stats)?;
    let object = value
        .as_object_mut()
        .context("the statistics summary is not a JSON object")?;
    for (k, v) in extra {
        object.insert(k, v);
    }
    write_json(&dir.join("summary.json"), &value)
}

/// The wall time recorded in an earlier summary.json (for resumed runs), or 0.
pub fn read_summary_wall_seconds(dir: &Path) -> f64 {
    std::fs::read_to_string(dir.join("summary.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| v.get("wall_seconds").and_then(|w| w.as_f64()))
        .unwrap_or(0.0)
}
