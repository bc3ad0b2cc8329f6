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
