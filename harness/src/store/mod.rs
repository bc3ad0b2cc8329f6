//! The PostgreSQL store: tests shared by workers on many machines.
//!
//! A test is created once ([`Store::create_test`], with the match specification as an opaque
//! JSON value); workers then loop: [`Store::claim`] a batch of pair indices under a lease,
//! play them, [`Store::renew`] the lease while playing, and [`Store::commit`] the results.
//! Each commit stores the pairs idempotently (primary key (test, pair)) and adds them to the
//! worker's row of `test_counts` in the same transaction (commits never wait for each
//! other). When the summed counts decide the SPRT, the decision is recorded under an
//! exclusive per-test advisory lock that every commit takes shared: it waits for the commits
//! under way and decides on the counts they leave; later commits store nothing, so the
//! counts that decided are exactly the stored rows. A [`Store`] reconnects with backoff
//! when the server goes away.
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
pub use catalog::{CommittedPairs, PAIRS_PER_PAGE};
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
    CommitOutcome, Lease, MAX_BOOK_BYTES, MAX_PAIRS, NewTest, PairGames, PairOutcome, PairResult,
    StoredPair, TestRecord, TestReport, TestStatus, WorkerThroughput, sha256_hex,
};
pub use url::{STORE_ENV, StoreUrl};
