//! The store's address: a `postgres://` URL whose password is never shown.

use std::fmt;
use std::str::FromStr;

use super::error::StoreError;

/// The environment variable read when `--store` is not given.
pub const STORE_ENV: &str = "HARNESS_STORE";

/// A validated `postgres://` (or `postgresql://`) URL. `Display` and `Debug` print it with the
/// password replaced by `***`, so it can go into messages and logs; [`StoreUrl::config`]
/// gives the full connection settings.
#[derive(Clone, PartialEq, Eq)]
pub struct StoreUrl {
    full: String,
    redacted: String,
}

impl StoreUrl {
    /// Parses and checks a URL (the error message shows it redacted).
    pub fn parse(url: &str) -> Result<Self, StoreError> {
        let redacted = redact(url);
        let bad = |reason: String| StoreError::Url {
            url: redacted.clone(),
            reason,
        };
        let rest = url
            .strip_prefix("postgres://")
            .or_else(|| url.strip_prefix("postgresql://"))
            .ok_or_else(|| {
                bad("expected a URL starting with postgres:// or postgresql://".into())
            })?;
        if rest.is_empty() {
            return Err(bad("no host or socket path after postgres://".into()));
        }
        postgres::Config::from_str(url).map_err(|e| bad(super::error::describe(&e)))?;
        Ok(Self {
            full: url.to_owned(),
            redacted,
        })
    }

    /// `--store URL` when given, else `$HARNESS_STORE`; an error naming both when neither is.
    pub fn from_arg_or_env(arg: Option<&StoreUrl>) -> Result<Self, StoreError> {
        if let Some(url) = arg {
            return Ok(url.clone());
        }
        match std::env::var(STORE_ENV) {
            Ok(v) if !v.trim().is_empty() => Self::parse(v.trim()),
            _ => Err(StoreError::Url {
                url: String::new(),
                reason: format!("no store given: pass --store postgres://… or set {STORE_ENV}"),
            }),
        }
    }

    /// The connection settings (with the password).
    pub fn config(&self) -> postgres::Config {
        // Checked in `parse`; a failure here cannot happen, but an empty config would only
        // fail to connect with a clear message.
        let mut config = postgres::Config::from_str(&self.full).unwrap_or_default();
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(std::time::Duration::from_secs(10));
        }
        if config.get_application_name().is_none() {
            config.application_name("harness");
        }
        config
    }

    /// The URL with its password replaced by `***`.
    pub fn redacted(&self) -> &str {
        &self.redacted
    }
}

impl FromStr for StoreUrl {
    type Err = StoreError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

impl fmt::Display for StoreUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redacted)
    }
}

impl fmt::Debug for StoreUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StoreUrl({})", self.redacted)
    }
}

/// Replaces the password of `user:password@` and of a `password=` query parameter by `***`.
pub fn redact(url: &str) -> String {
    let (head, query) = match url.split_once('?') {
        Some((h, q)) => (h, Some(q)),
        None => (url, None),
    };
    let mut out = match head.split_once("://") {
        Some((scheme, rest)) => {
            // The user info ends at the last '@' before the path.
            let authority_end = rest.find('/').unwrap_or(rest.len());
            let (authority, path) = rest.split_at(authority_end);
            let authority = match authority.rsplit_once('@') {
                Some((userinfo, hosts)) => match userinfo.split_once(':') {
                    Some((user, _password)) => format!("{user}:***@{hosts}"),
                    None => format!("{userinfo}@{hosts}"),
                },
                None => authority.to_owned(),
            };
            format!("{scheme}://{authority}{path}")
        }
        None => head.to_owned(),
    };
    if let Some(query) = query {
        let params: Vec<String> = query
            .split('&')
            .map(|kv| match kv.split_once('=') {
                Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
                _ => kv.to_owned(),
            })
            .collect();
        out.push('?');
        out.push_str(&params.join("&"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(
            redact("postgres://alice:s3cr%40t@db.example:5432/harness"),
            "postgres://alice:***@db.example:5432/harness"
        );
        assert_eq!(
            redact("postgres://alice@db/h?sslmode=disable&password=hunter2"),
            "postgres://alice@db/h?sslmode=disable&password=***"
        );
        assert_eq!(redact("postgres://db/h"), "postgres://db/h");
        let url = StoreUrl::parse("postgresql://bob:pw@localhost/x").unwrap();
        assert_eq!(url.to_string(), "postgresql://bob:***@localhost/x");
        assert!(!format!("{url:?}").contains("pw@"));
    }

    #[test]
    fn bad_urls_are_refused_with_the_reason() {
        let err = StoreUrl::parse("mysql://root:pw@localhost/x")
            .unwrap_err()
            .to_string();
        assert!(err.contains("postgres://"), "{err}");
        assert!(!err.contains("pw@"), "{err}");
        let err = StoreUrl::parse("postgres://u:pw@host:notaport/db")
            .unwrap_err()
            .to_string();
        assert!(err.contains("invalid store URL"), "{err}");
        assert!(!err.contains("pw@"), "{err}");
    }
}
