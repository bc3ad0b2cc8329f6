//! The PostgreSQL store: tests shared by workers on many machines.
//!
//! A test is created once ([`Store::create_test`], with the match specification as an opaque
//! JSON value); workers then loop: [`Store::claim`] a batch of pair indices under a lease,
//! play them, [`Store::renew`] the lease while playing, and [`Store::commit`] the results.
//! Each commit stores the pairs idempotently (primary key (test, pair)), updates the test's
//! pentanomial counts and SPRT in the same transaction, and ends the test when the SPRT
//! decides. A [`Store`] reconnects with backoff when the server goes away.
//!
//! - [`url`]: the `postgres://` URL, printed with its password redacted.
//! - [`migrate`](mod@migrate): the versioned schema (`migrations/*.sql`) and its check on connect.
//! - [`connection`]: the session and its reconnection.
//! - `catalog` and `queue`: operations on tests, and the claim/renew/commit cycle.
//! - [`bench`]: the throughput benchmark with simulated workers.
//!
//! Least privilege: migration creates the group role `harness_worker` (NOLOGIN), which may
//! claim, renew and commit but not create, alter or delete tests. Give it to a login role:
//! `CREATE ROLE worker1 LOGIN PASSWORD '…' IN ROLE harness_worker;`
//! (or `GRANT harness_worker TO worker1;`).

pub mod bench;
mod catalog;
pub mod connection;
pub mod error;
pub mod migrate;
mod queue;
pub mod types;
pub mod url;

pub use connection::{RetryPolicy, Store};
pub use error::StoreError;
pub use migrate::{MigrateReport, SCHEMA_VERSION, migrate};
pub use types::{
    CommitOutcome, Lease, MAX_PAIRS, NewTest, PairOutcome, PairResult, StoredPair, TestRecord,
    TestReport, TestStatus, WorkerThroughput,
};
pub use url::{STORE_ENV, StoreUrl};
