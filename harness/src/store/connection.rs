//! One session with the store, which reconnects with backoff when the server goes away.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use postgres::{Client, NoTls, Statement};

use super::error::{StoreError, describe};
use super::migrate::check_version;
use super::url::StoreUrl;

/// How long to keep reconnecting before giving up, and the backoff between attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Give up after trying this long (a store restart takes seconds; a failover, minutes).
    pub give_up_after: Duration,
    /// First pause between attempts; doubled after each failure up to `max_backoff`.
    pub first_backoff: Duration,
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    /// Ten minutes, pauses from 100 ms to 5 s.
    fn default() -> Self {
        Self {
            give_up_after: Duration::from_secs(600),
            first_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_secs(5),
        }
    }
}

/// Opens a session (no schema check, no retry): the first connection fails fast and clearly.
pub(crate) fn open(url: &StoreUrl) -> Result<Client, StoreError> {
    url.config()
        .connect(NoTls)
        .map_err(|e| StoreError::Connect {
            url: url.to_string(),
            cause: describe(&e),
        })
}

/// A session with a migrated store of this harness's schema version. Every operation runs
/// in its own transaction; when the connection is lost it reconnects (backing off) and runs
/// the operation again, which is safe because a transaction that did not commit changed
/// nothing and a commit of pair results is idempotent.
pub struct Store {
    url: StoreUrl,
    client: Client,
    retry: RetryPolicy,
    /// Statements of the hot path (claim, commit), prepared once per session: each call is
    /// then one round trip instead of two.
    statements: HashMap<&'static str, Statement>,
}

impl Store {
    /// Connects and checks the schema version (refusing a store of another version).
    pub fn connect(url: &StoreUrl) -> Result<Self, StoreError> {
        let mut client = open(url)?;
        check_version(&mut client, url)?;
        Ok(Self {
            url: url.clone(),
            client,
            retry: RetryPolicy::default(),
            statements: HashMap::new(),
        })
    }

    /// Replaces the reconnection policy.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// The store's URL (displays redacted).
    pub fn url(&self) -> &StoreUrl {
        &self.url
    }

    /// The session, for an operation that must not be rerun after a lost connection.
    pub(crate) fn client_mut(&mut self) -> &mut Client {
        &mut self.client
    }

    /// Runs `op` (one transaction's worth of work), reconnecting and rerunning it while the
    /// server is away, up to the retry policy's limit.
    pub(crate) fn run<T>(
        &mut self,
        what: &'static str,
        mut op: impl FnMut(&mut Client, &StoreUrl) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.retry(what, |s| op(&mut s.client, &s.url))
    }

    /// As [`Store::run`], with `sql` prepared on this session (once: cached until a
    /// reconnection) and given to `op` in the same order.
    pub(crate) fn run_prepared<T>(
        &mut self,
        what: &'static str,
        sql: &[&'static str],
        mut op: impl FnMut(&mut Client, &[Statement], &StoreUrl) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.retry(what, |s| {
            let mut statements = Vec::with_capacity(sql.len());
            for &text in sql {
                let statement = match s.statements.get(text) {
                    Some(st) => st.clone(),
                    None => {
                        let st = s.client.prepare(text).map_err(q(&s.url, what))?;
                        s.statements.insert(text, st.clone());
                        st
                    }
                };
                statements.push(statement);
            }
            op(&mut s.client, &statements, &s.url)
        })
    }

    fn retry<T>(
        &mut self,
        what: &'static str,
        mut op: impl FnMut(&mut Self) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let started = Instant::now();
        let mut backoff = self.retry.first_backoff;
        loop {
            let err = match op(self) {
                Ok(v) => return Ok(v),
                Err(e) => e,
            };
            if err.is_transient() {
                continue;
            }
            if !(err.is_connection_lost() || self.client.is_closed()) {
                return Err(err);
            }
            // Reconnect, backing off, until the policy's time is up.
            let mut last = err.to_string();
            loop {
                if started.elapsed() >= self.retry.give_up_after {
                    return Err(StoreError::Unavailable {
                        url: self.url.to_string(),
                        what,
                        waited: started.elapsed(),
                        cause: last,
                    });
                }
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(self.retry.max_backoff);
                match open(&self.url).and_then(|mut c| {
                    check_version(&mut c, &self.url)?;
                    Ok(c)
                }) {
                    Ok(client) => {
                        self.client = client;
                        // Prepared statements belong to the old session.
                        self.statements.clear();
                        break;
                    }
                    // Another schema version after a restart is not transient.
                    Err(
                        e @ (StoreError::SchemaVersion { .. } | StoreError::NotMigrated { .. }),
                    ) => {
                        return Err(e);
                    }
                    Err(e) => last = e.to_string(),
                }
            }
        }
    }
}

/// Wraps a driver error of operation `what` on the store at `url`.
pub(crate) fn q(url: &StoreUrl, what: &'static str) -> impl Fn(postgres::Error) -> StoreError {
    let url = url.to_string();
    move |source| StoreError::Query {
        url: url.clone(),
        what,
        cause: describe(&source),
        source,
    }
}
