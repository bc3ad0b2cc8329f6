//! Versioned schema migrations, kept in `migrations/` and embedded in the binary.

use postgres::Client;

use super::error::{StoreError, describe};
use super::url::StoreUrl;

/// The migrations in order: (version, file name, SQL). Version k is the k-th file.
pub const MIGRATIONS: &[(i32, &str, &str)] = &[
    (
        1,
        "0001_tests_pairs_leases_workers.sql",
        include_str!("migrations/0001_tests_pairs_leases_workers.sql"),
    ),
    (
        2,
        "0002_claim_cursor_functions.sql",
        include_str!("migrations/0002_claim_cursor_functions.sql"),
    ),
    (
        3,
        "0003_test_book.sql",
        include_str!("migrations/0003_test_book.sql"),
    ),
    (
        4,
        "0004_scale_without_foreign_keys.sql",
        include_str!("migrations/0004_scale_without_foreign_keys.sql"),
    ),
    (
        5,
        "0005_games_deflated_in_the_row.sql",
        include_str!("migrations/0005_games_deflated_in_the_row.sql"),
    ),
];

/// The schema version this harness reads and writes.
pub const SCHEMA_VERSION: i32 = MIGRATIONS[MIGRATIONS.len() - 1].0;

/// What [`migrate`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MigrateReport {
    /// The version found (0 for an empty database).
    pub from: i32,
    /// The version now.
    pub to: i32,
    /// Files applied, in order.
    pub applied: Vec<&'static str>,
}

/// Brings the database at `url` to [`SCHEMA_VERSION`] in one transaction (all or nothing),
/// recording each version in `harness_schema`. Refuses a store newer than this harness.
/// Needs a role that may create tables and roles (the database owner, not a worker).
pub fn migrate(url: &StoreUrl) -> Result<MigrateReport, StoreError> {
    let mut client = super::connection::open(url)?;
    let q = |source: postgres::Error| StoreError::Query {
        url: url.to_string(),
        what: "migrate",
        cause: describe(&source),
        source,
    };
    let mut tx = client.transaction().map_err(q)?;
    // Two migrations at once would both see version 0: one waits for the other.
    tx.execute(
        "SELECT pg_advisory_xact_lock(hashtext('harness_schema'))",
        &[],
    )
    .map_err(q)?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS harness_schema (
             version    integer PRIMARY KEY,
             applied_at timestamptz NOT NULL DEFAULT now()
         )",
    )
    .map_err(q)?;
    let from: i32 = tx
        .query_one("SELECT coalesce(max(version), 0) FROM harness_schema", &[])
        .map_err(q)?
        .get(0);
    if from > SCHEMA_VERSION {
        return Err(StoreError::SchemaVersion {
            url: url.to_string(),
            found: from,
            expected: SCHEMA_VERSION,
            advice: "the store is newer than this harness; use a newer harness",
        });
    }
    let mut applied = Vec::new();
    for &(version, name, sql) in MIGRATIONS.iter().filter(|(v, _, _)| *v > from) {
        tx.batch_execute(sql).map_err(|source| StoreError::Query {
            url: url.to_string(),
            what: name,
            cause: describe(&source),
            source,
        })?;
        tx.execute(
            "INSERT INTO harness_schema (version) VALUES ($1)",
            &[&version],
        )
        .map_err(q)?;
        applied.push(name);
    }
    tx.commit().map_err(q)?;
    Ok(MigrateReport {
        from,
        to: SCHEMA_VERSION,
        applied,
    })
}

/// Refuses a store whose schema is missing or of another version than [`SCHEMA_VERSION`].
pub(crate) fn check_version(client: &mut Client, url: &StoreUrl) -> Result<(), StoreError> {
    let q = |source: postgres::Error| StoreError::Query {
        url: url.to_string(),
        what: "read the schema version",
        cause: describe(&source),
        source,
    };
    let exists: bool = client
        .query_one("SELECT to_regclass('harness_schema') IS NOT NULL", &[])
        .map_err(q)?
        .get(0);
    if !exists {
        return Err(StoreError::NotMigrated {
            url: url.to_string(),
        });
    }
    let found: i32 = client
        .query_one("SELECT coalesce(max(version), 0) FROM harness_schema", &[])
        .map_err(q)?
        .get(0);
    match found {
        0 => Err(StoreError::NotMigrated {
            url: url.to_string(),
        }),
        f if f == SCHEMA_VERSION => Ok(()),
        f if f < SCHEMA_VERSION => Err(StoreError::SchemaVersion {
            url: url.to_string(),
            found: f,
            expected: SCHEMA_VERSION,
            advice: "run `harness store migrate --store URL` to upgrade it",
        }),
        f => Err(StoreError::SchemaVersion {
            url: url.to_string(),
            found: f,
            expected: SCHEMA_VERSION,
            advice: "the store is newer than this harness; use a newer harness",
        }),
    }
}
