//! `key=value` option values: splitting and parsing them, with errors that name the option,
//! the key and the value.

use crate::UsageError;

/// A usage error (exit code 2) with this message.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    anyhow::Error::new(UsageError(message.into()))
}

/// `key=value` tokens of an option.
pub fn key_values(option: &str, tokens: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    tokens
        .iter()
        .map(|t| {
            t.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| usage(format!("{option}: '{t}' is not of the form key=value")))
        })
        .collect()
}

pub fn parse_value<T: std::str::FromStr>(
    option: &str,
    key: &str,
    value: &str,
) -> anyhow::Result<T> {
    value
        .parse()
        .map_err(|_| usage(format!("{option}: {key}={value} is not a valid value")))
}

pub fn parse_bool(option: &str, key: &str, value: &str) -> anyhow::Result<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(usage(format!(
            "{option}: {key}={value} is not true or false"
        ))),
    }
}

/// Parses `value` and checks it lies in `[min, max]`; the error names the option, the key, the
/// value and the accepted range.
pub fn parse_in_range<T>(option: &str, key: &str, value: &str, min: T, max: T) -> anyhow::Result<T>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    let range = format!("accepted: {min} to {max}");
    let parsed: T = value.trim().parse().map_err(|_| {
        usage(format!(
            "{option}: {key}={value} is not a valid number ({range})"
        ))
    })?;
    if parsed < min || parsed > max {
        return Err(usage(format!(
            "{option}: {key}={value} is out of range ({range})"
        )));
    }
    Ok(parsed)
}

/// A usage error for a value that is not a number: `check_range` lets NaN through (every
/// comparison with it is false).
pub fn check_finite(option: &str, value: f32) -> anyhow::Result<()> {
    if !value.is_finite() {
        crate::usage_bail!("{option} {value} is not a number");
    }
    Ok(())
}

/// The same check for a plain option (`--games 0`).
pub fn check_range<T>(option: &str, value: T, min: T, max: T) -> anyhow::Result<T>
where
    T: PartialOrd + std::fmt::Display + Copy,
{
    if value < min || value > max {
        return Err(usage(format!(
            "{option} {value} is out of range (accepted: {min} to {max})"
        )));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_errors_name_option_key_value_and_range() {
        let err = parse_in_range("--each", "nodes", "0", 1u64, 10)
            .unwrap_err()
            .to_string();
        assert_eq!(err, "--each: nodes=0 is out of range (accepted: 1 to 10)");
        let err = parse_in_range("--each", "nodes", "-1", 1u64, 10)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("nodes=-1 is not a valid number (accepted: 1 to 10)"),
            "{err}"
        );
        assert_eq!(
            parse_in_range("--draw", "score", " 5", 0i32, 10).unwrap(),
            5
        );
        let err = check_range("--games", 0u64, 1, 9).unwrap_err().to_string();
        assert_eq!(err, "--games 0 is out of range (accepted: 1 to 9)");
    }
}
