//! The keys that describe an external UCI engine, shared by every option that names one
//! (`harness match --engine`, `harness relabel --engine`): `cmd=PATH`, `git=REV`,
//! `args="A B"`, `dir=DIR` and `option.NAME=VALUE`.

use std::path::PathBuf;

use crate::runner::external::ExternalSpec;
use crate::usage_bail;

/// Takes `key=value` into `spec` when it is one of the external engine's keys; false when
/// the key is some other option's business.
pub fn take_external_key(
    option: &str,
    spec: &mut ExternalSpec,
    key: &str,
    value: &str,
) -> anyhow::Result<bool> {
    match key {
        "cmd" => spec.cmd = Some(PathBuf::from(value)),
        "git" => spec.git = Some(value.to_string()),
        "args" => spec.args = Some(value.split_whitespace().map(String::from).collect()),
        "dir" => spec.dir = Some(PathBuf::from(value)),
        k if k.starts_with("option.") => {
            let name = &k["option.".len()..];
            if name.is_empty() {
                usage_bail!("{option}: '{key}={value}' names no option");
            }
            spec.options.push((name.to_string(), value.to_string()));
        }
        _ => return Ok(false),
    }
    Ok(true)
}
