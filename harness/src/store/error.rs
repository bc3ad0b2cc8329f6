//! What can go wrong with the store, in words that name the URL (redacted) and the cause.

use std::time::Duration;

/// A store failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("invalid store URL '{url}': {reason}")]
    Url { url: String, reason: String },
    #[error("cannot connect to the store {url}: {cause}")]
    Connect { url: String, cause: String },
    #[error(
        "the store {url} has no harness schema (no table harness_schema): run `harness store migrate --store URL` first"
    )]
    NotMigrated { url: String },
    #[error(
        "the store {url} has schema version {found}, but this harness uses version {expected}: {advice}"
    )]
    SchemaVersion {
        url: String,
        found: i32,
        expected: i32,
        advice: &'static str,
    },
    #[error("store {url}: {what} failed: {cause}")]
    Query {
        url: String,
        what: &'static str,
        cause: String,
        #[source]
        source: postgres::Error,
    },
    #[error("the store {url} stayed unreachable for {waited:?} while trying to {what}: {cause}")]
    Unavailable {
        url: String,
        what: &'static str,
        waited: Duration,
        cause: String,
    },
    #[error("no test {0} in the store")]
    NoSuchTest(i64),
    #[error("{0}")]
    Invalid(String),
}

impl StoreError {
    /// Whether the connection is gone (server restart, network): reconnect and retry.
    pub(crate) fn is_connection_lost(&self) -> bool {
        match self {
            Self::Query { source, .. } => connection_lost(source),
            _ => false,
        }
    }

    /// Whether the transaction lost a race (deadlock, serialization) and may simply be retried.
    pub(crate) fn is_transient(&self) -> bool {
        match self {
            Self::Query { source, .. } => source.code().is_some_and(|c| {
                let c = c.code();
                c == "40001" || c == "40P01"
            }),
            _ => false,
        }
    }
}

/// Whether `err` means the session is gone: closed socket, I/O error, or the server shutting
/// down / starting up (SQLSTATE class 08 and 57P01..57P03).
pub(crate) fn connection_lost(err: &postgres::Error) -> bool {
    if err.is_closed() {
        return true;
    }
    match err.code() {
        Some(code) => {
            let c = code.code();
            c.starts_with("08") || matches!(c, "57P01" | "57P02" | "57P03")
        }
        // Not a database error: I/O, protocol or timeout, all of which end the session.
        None => {
            let text = err.to_string();
            text.starts_with("error communicating")
                || text.starts_with("timeout")
                || text.starts_with("error connecting")
        }
    }
}

/// The error and its causes on one line (the crate's `Display` alone says only "db error").
pub fn describe(err: &postgres::Error) -> String {
    if let Some(db) = err.as_db_error() {
        let mut s = format!(
            "{}: {} (SQLSTATE {})",
            db.severity(),
            db.message(),
            db.code().code()
        );
        if let Some(detail) = db.detail() {
            s.push_str(&format!("; {detail}"));
        }
        return s;
    }
    let mut s = err.to_string();
    let mut source = std::error::Error::source(err);
    while let Some(cause) = source {
        s.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    s
}
