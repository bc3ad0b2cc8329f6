//! The PostgreSQL store against a throwaway server: schema versions, bad addresses,
//! concurrent claims and commits, lease expiry, the central SPRT, a server restart, and the
//! worker role. Pair results are fake (no chess).

mod store_common;

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use harness::stats::{EloModel, Pentanomial, SprtConfig};
use harness::store::bench::{self, BenchConfig, fake_pair};
use harness::store::migrate::MIGRATIONS;
use harness::store::{
    NewTest, PAIRS_PER_PAGE, PairGames, PairOutcome, PairResult, RetryPolicy, SCHEMA_VERSION,
    Store, StoreError, StoreUrl, TestStatus, migrate,
};
use serde_json::json;
use store_common::{PASSWORD, PgServer};

fn new_test(pairs: u64, sprt: Option<SprtConfig>) -> NewTest {
    NewTest {
        spec: json!({"engines": ["base", "dev"], "nodes": 1000, "anything": {"nested": [1, 2]}}),
        pair_count: pairs,
        seed: u64::MAX - 7,
        sprt,
        expected_bench: vec![Some(123_456), None],
        book_sha256: Some("ab".repeat(32)),
        book: None,
    }
}

fn migrated(server: &PgServer, db: &str) -> StoreUrl {
    let url = server.create_database(db);
    migrate(&url).expect("migrate");
    url
}

/// Claims and commits until nothing is left; returns the pairs this worker committed.
fn drain(url: &StoreUrl, test: i64, name: &str, batch: u32, claimed: &Mutex<Vec<u64>>) -> u64 {
    let mut store = Store::connect(url)
        .expect("connect")
        .with_retry(RetryPolicy {
            give_up_after: Duration::from_secs(60),
            ..RetryPolicy::default()
        });
    let mut inserted = 0;
    while let Some(lease) = store
        .claim(Some(test), name, batch, Duration::from_secs(300))
        .expect("claim")
    {
        assert_eq!(lease.test_id, test);
        claimed.lock().unwrap().extend(&lease.pairs);
        let results: Vec<PairResult> = lease.pairs.iter().map(|&p| fake_pair(p)).collect();
        let first = store.commit(test, name, &results).expect("commit");
        // A second commit of the same batch (a retry after a lost reply) changes nothing.
        let again = store.commit(test, name, &results).expect("commit again");
        assert_eq!(again.inserted, 0);
        inserted += first.inserted;
        if first.status != TestStatus::Active {
            break;
        }
    }
    inserted
}

#[test]
fn migrate_then_refuse_other_schema_versions() {
    let Some(server) = PgServer::start("migrate_then_refuse_other_schema_versions") else {
        return;
    };
    let url = server.create_database("versions");
    let err = Store::connect(&url)
        .err()
        .expect("an unmigrated store is refused");
    assert!(matches!(err, StoreError::NotMigrated { .. }), "{err}");
    assert!(err.to_string().contains("harness store migrate"), "{err}");

    let report = migrate(&url).expect("migrate");
    assert_eq!((report.from, report.to), (0, SCHEMA_VERSION));
    assert_eq!(report.applied.len(), SCHEMA_VERSION as usize);
    let again = migrate(&url).expect("migrate twice");
    assert!(again.applied.is_empty());
    let mut store = Store::connect(&url).expect("connect to a migrated store");
    let id = store.create_test(&new_test(10, None)).expect("create");
    let t = store.test(id).expect("read back");
    assert_eq!(t.spec, new_test(10, None).spec);
    assert_eq!(t.seed, u64::MAX - 7);
    assert_eq!(t.expected_bench, vec![Some(123_456), None]);
    assert_eq!(t.status, TestStatus::Active);

    // A store written by a newer harness.
    server.sql(
        "versions",
        "INSERT INTO harness_schema (version) VALUES (99)",
    );
    let err = Store::connect(&url)
        .err()
        .expect("a newer store is refused");
    let text = err.to_string();
    assert!(
        text.contains("version 99") && text.contains(&format!("version {SCHEMA_VERSION}")),
        "{text}"
    );
    assert!(!text.contains(PASSWORD), "{text}");
    let err = migrate(&url).expect_err("migrate refuses a newer store");
    assert!(err.to_string().contains("99"), "{err}");

    // A store an older harness left at version 1, with a test half played: refused with
    // the advice to migrate; `migrate` upgrades it and its pairs are still handed out once.
    let older = server.create_database("older");
    server.sql(
        "older",
        "CREATE TABLE harness_schema (version integer PRIMARY KEY,
                                      applied_at timestamptz NOT NULL DEFAULT now());
         INSERT INTO harness_schema (version) VALUES (1);",
    );
    server.sql("older", MIGRATIONS[0].2);
    server.sql(
        "older",
        "INSERT INTO tests (spec, pair_count, seed) VALUES ('{}', 6, 1);
         INSERT INTO leases (test_id, pair_index) SELECT 1, g FROM generate_series(0, 5) g;
         UPDATE leases SET worker = 'gone', expires_at = now() + interval '1 hour'
             WHERE pair_index = 1;
         INSERT INTO pair_results (test_id, pair_index, ptnml, wins, draws, losses, games,
                                   worker)
             VALUES (1, 0, 2, 0, 2, 0, '[]', 'old');
         DELETE FROM leases WHERE pair_index = 0;",
    );
    let err = Store::connect(&older)
        .err()
        .expect("a store of an older version is refused");
    let text = err.to_string();
    assert!(
        text.contains("version 1") && text.contains("harness store migrate"),
        "{text}"
    );
    let report = migrate(&older).expect("upgrade");
    assert_eq!((report.from, report.to), (1, SCHEMA_VERSION));
    let mut store = Store::connect(&older).expect("connect after the upgrade");
    let lease = store
        .claim(Some(1), "new", 10, Duration::from_secs(60))
        .unwrap()
        .expect("the unplayed pairs");
    assert_eq!(
        lease.pairs,
        vec![2, 3, 4, 5],
        "not the committed or the leased pair"
    );
    assert!(
        store
            .claim(Some(1), "new", 10, Duration::from_secs(60))
            .unwrap()
            .is_none()
    );
    // The pair committed under version 1 (games as jsonb) reads back beside the new ones
    // (deflated since version 5).
    store
        .commit(1, "new", &[fake_pair(2)])
        .expect("commit after the upgrade");
    let exported = store.export_pairs(1).unwrap();
    let games: Vec<(u64, serde_json::Value)> = exported
        .into_iter()
        .map(|p| (p.pair_index, p.games))
        .collect();
    assert_eq!(
        games,
        vec![
            (0, json!([])),
            (2, fake_pair(2).games.decompress().unwrap())
        ]
    );
}

#[test]
fn bad_urls_and_missing_databases_are_clear_errors() {
    let err = StoreUrl::parse("mysql://u:secret@localhost/db")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("postgres://") && !err.contains("secret"),
        "{err}"
    );

    let Some(server) = PgServer::start("bad_urls_and_missing_databases_are_clear_errors") else {
        return;
    };
    let missing = server.url("no_such_db");
    let err = Store::connect(&missing)
        .err()
        .expect("missing database")
        .to_string();
    assert!(
        err.contains("no_such_db") && err.contains("does not exist"),
        "{err}"
    );
    assert!(!err.contains(PASSWORD), "{err}");
    assert!(err.contains("harness:***@"), "{err}");

    let wrong = server.url_as("harness", "wrong-password", "postgres");
    let err = Store::connect(&wrong)
        .err()
        .expect("wrong password")
        .to_string();
    assert!(err.contains("password authentication failed"), "{err}");
    assert!(!err.contains("wrong-password"), "{err}");

    let closed = StoreUrl::parse("postgres://u:pw@127.0.0.1:1/db").unwrap();
    let err = Store::connect(&closed)
        .err()
        .expect("nothing listens on port 1")
        .to_string();
    assert!(
        err.contains("cannot connect to the store postgres://u:***@127.0.0.1:1/db"),
        "{err}"
    );

    // Bad input to the store itself: nothing written.
    let url = migrated(&server, "badinput");
    let mut store = Store::connect(&url).unwrap();
    let mut bad = new_test(0, None);
    assert!(
        store
            .create_test(&bad)
            .unwrap_err()
            .to_string()
            .contains("pair count")
    );
    bad.pair_count = 4;
    bad.book_sha256 = Some("xyz".into());
    assert!(
        store
            .create_test(&bad)
            .unwrap_err()
            .to_string()
            .contains("SHA-256")
    );
    assert!(store.list_tests().unwrap().is_empty());
    let id = store.create_test(&new_test(4, None)).unwrap();
    let err = store
        .commit(id, "w", &[fake_pair(4)])
        .unwrap_err()
        .to_string();
    assert!(err.contains("pair index 4 is out of range"), "{err}");
    let err = store
        .commit(id, "w", &[fake_pair(1), fake_pair(1)])
        .unwrap_err()
        .to_string();
    assert!(err.contains("twice"), "{err}");
    assert_eq!(store.report(id).unwrap().pairs_done, 0);
}

#[test]
fn concurrent_workers_never_share_a_pair_or_count_one_twice() {
    let Some(server) = PgServer::start("concurrent_workers_never_share_a_pair") else {
        return;
    };
    let url = migrated(&server, "concurrent");
    // More than two pages of the export (PAIRS_PER_PAGE) and three stripes (partitions).
    let pairs = 2 * PAIRS_PER_PAGE as u64 + 100;
    let id = Store::connect(&url)
        .unwrap()
        .create_test(&new_test(pairs, None))
        .unwrap();
    let claimed = Mutex::new(Vec::new());
    let inserted: u64 = std::thread::scope(|s| {
        let handles: Vec<_> = (0..12)
            .map(|i| {
                let (url, claimed) = (&url, &claimed);
                s.spawn(move || drain(url, id, &format!("w{i}"), 5, claimed))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    let mut claimed = claimed.into_inner().unwrap();
    let n = claimed.len();
    claimed.sort_unstable();
    claimed.dedup();
    assert_eq!(
        n,
        claimed.len(),
        "a pair was claimed twice under a live lease"
    );
    assert_eq!(claimed, (0..pairs).collect::<Vec<_>>());
    assert_eq!(inserted, pairs);

    let mut store = Store::connect(&url).unwrap();
    let report = store.report(id).unwrap();
    assert_eq!(report.test.status, TestStatus::Finished);
    assert_eq!(report.pairs_done, pairs);
    assert_eq!(report.summary.games, 2 * pairs);
    let exported = store.export_pairs(id).unwrap();
    assert_eq!(
        exported.iter().map(|p| p.pair_index).collect::<Vec<_>>(),
        (0..pairs).collect::<Vec<_>>(),
        "every pair once, in pair order, across pages"
    );
    let mut expected = Pentanomial::default();
    for p in &exported {
        assert_eq!(p.games, fake_pair(p.pair_index).games.decompress().unwrap());
        expected.add_pair(p.outcome.ptnml());
    }
    assert_eq!(report.test.pentanomial, expected);
    let per_worker: u64 = report.workers.iter().map(|w| w.pairs).sum();
    assert_eq!(per_worker, pairs);
    assert!(
        store
            .claim(Some(id), "late", 5, Duration::from_secs(60))
            .unwrap()
            .is_none()
    );
}

#[test]
fn expired_leases_go_to_other_workers() {
    let Some(server) = PgServer::start("expired_leases_go_to_other_workers") else {
        return;
    };
    let url = migrated(&server, "leases");
    let mut a = Store::connect(&url).unwrap();
    let mut b = Store::connect(&url).unwrap();
    let id = a.create_test(&new_test(20, None)).unwrap();
    let lease_a = a
        .claim(None, "a", 6, Duration::from_secs(1))
        .unwrap()
        .unwrap();
    assert_eq!(lease_a.pairs, (0..6).collect::<Vec<_>>());
    let lease_b = b
        .claim(Some(id), "b", 6, Duration::from_secs(60))
        .unwrap()
        .unwrap();
    assert_eq!(lease_b.pairs, (6..12).collect::<Vec<_>>());
    std::thread::sleep(Duration::from_millis(1600));
    // Worker a is presumed dead: its pairs come first, before fresh ones.
    let lease_c = b
        .claim(Some(id), "c", 8, Duration::from_secs(60))
        .unwrap()
        .unwrap();
    assert_eq!(lease_c.pairs, vec![0, 1, 2, 3, 4, 5, 12, 13]);
    // a's renewal finds it no longer holds them.
    assert!(
        a.renew(id, "a", &lease_a.pairs, Duration::from_secs(60))
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        b.renew(id, "b", &lease_b.pairs, Duration::from_secs(60))
            .unwrap(),
        lease_b.pairs
    );
    // a was only slow: its late commit counts once, c's commit of the same pairs not again.
    let results: Vec<PairResult> = lease_a.pairs.iter().map(|&p| fake_pair(p)).collect();
    assert_eq!(a.commit(id, "a", &results).unwrap().inserted, 6);
    let results: Vec<PairResult> = lease_c.pairs.iter().map(|&p| fake_pair(p)).collect();
    assert_eq!(b.commit(id, "c", &results).unwrap().inserted, 2);
    let report = a.report(id).unwrap();
    assert_eq!(report.pairs_done, 8);
    assert_eq!(report.pairs_leased, 6);
}

#[test]
fn sprt_decides_centrally_and_stops_claims() {
    let Some(server) = PgServer::start("sprt_decides_centrally_and_stops_claims") else {
        return;
    };
    let url = migrated(&server, "sprt");
    let sprt = SprtConfig {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
        model: EloModel::Normalized,
    };
    let id = Store::connect(&url)
        .unwrap()
        .create_test(&new_test(20_000, Some(sprt)))
        .unwrap();
    // A clearly stronger first engine: pentanomial shares 5/15/40/25/15 %.
    let result = |p: u64| {
        let points = match p % 20 {
            0 => [0, 0],
            1..=3 => [1, 0],
            4..=11 => [2, 0],
            12..=16 => [2, 1],
            _ => [2, 2],
        };
        PairResult {
            pair_index: p,
            outcome: PairOutcome::from_points_x2(points).unwrap(),
            games: PairGames::compress(&json!({"pair": p})).unwrap(),
        }
    };
    let statuses = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for i in 0..6 {
            let (url, statuses, result) = (&url, &statuses, &result);
            s.spawn(move || {
                let mut store = Store::connect(url).unwrap();
                let name = format!("w{i}");
                while let Some(lease) = store
                    .claim(Some(id), &name, 4, Duration::from_secs(300))
                    .unwrap()
                {
                    let results: Vec<_> = lease.pairs.iter().map(|&p| result(p)).collect();
                    let out = store.commit(id, &name, &results).unwrap();
                    statuses.lock().unwrap().push(out.status);
                }
            });
        }
    });
    let mut store = Store::connect(&url).unwrap();
    let report = store.report(id).unwrap();
    assert_eq!(report.test.status, TestStatus::Passed);
    assert!(report.pairs_done < 20_000, "decided early");
    let llr = report.test.llr.unwrap();
    assert!(llr > sprt.bounds().1, "llr {llr}");
    assert_eq!(report.summary.llr, Some(llr));
    // The counts that decided are exactly the stored rows.
    let mut rows = Pentanomial::default();
    for p in store.export_pairs(id).unwrap() {
        rows.add_pair(p.outcome.ptnml());
    }
    assert_eq!(rows, report.test.pentanomial);
    // Exactly one commit saw the test decide under it... or more, but all after are not stored.
    assert!(statuses.into_inner().unwrap().contains(&TestStatus::Passed));
    assert!(
        store
            .claim(Some(id), "late", 4, Duration::from_secs(60))
            .unwrap()
            .is_none()
    );
    assert!(
        store
            .claim(None, "late", 4, Duration::from_secs(60))
            .unwrap()
            .is_none()
    );
    let late = store.commit(id, "late", &[result(19_999)]).unwrap();
    assert_eq!((late.inserted, late.status), (0, TestStatus::Passed));
    assert_eq!(store.report(id).unwrap().test.pentanomial, rows);

    // Stopping by hand ends claims too.
    let other = store.create_test(&new_test(10, None)).unwrap();
    assert_eq!(store.stop_test(other).unwrap(), TestStatus::Stopped);
    assert!(
        store
            .claim(Some(other), "w", 4, Duration::from_secs(60))
            .unwrap()
            .is_none()
    );
    assert_eq!(store.stop_test(id).unwrap(), TestStatus::Passed);
}

#[test]
fn workers_keep_going_through_a_server_restart() {
    let Some(server) = PgServer::start("workers_keep_going_through_a_server_restart") else {
        return;
    };
    let url = migrated(&server, "restart");
    let pairs = 300;
    let id = Store::connect(&url)
        .unwrap()
        .create_test(&new_test(pairs, None))
        .unwrap();
    let claimed = Mutex::new(Vec::new());
    let progress = || Store::connect(&url).map(|mut s| s.test(id).unwrap().pentanomial.pairs());
    let inserted: u64 = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|i| {
                let (url, claimed) = (&url, &claimed);
                s.spawn(move || {
                    let mut store = Store::connect(url).unwrap().with_retry(RetryPolicy {
                        give_up_after: Duration::from_secs(60),
                        ..RetryPolicy::default()
                    });
                    let name = format!("w{i}");
                    let mut n = 0;
                    loop {
                        // A short lease: a claim whose reply the restart cut leaves pairs
                        // leased to nobody alive; they come back when it expires.
                        let Some(lease) = store
                            .claim(Some(id), &name, 3, Duration::from_secs(2))
                            .unwrap()
                        else {
                            if store.test(id).unwrap().status != TestStatus::Active {
                                return n;
                            }
                            std::thread::sleep(Duration::from_millis(200));
                            continue;
                        };
                        claimed.lock().unwrap().extend(&lease.pairs);
                        std::thread::sleep(Duration::from_millis(20)); // "playing"
                        let results: Vec<_> = lease.pairs.iter().map(|&p| fake_pair(p)).collect();
                        n += store.commit(id, &name, &results).unwrap().inserted;
                    }
                })
            })
            .collect();
        let t = Instant::now();
        while progress().unwrap() < 60 {
            assert!(t.elapsed() < Duration::from_secs(60), "no progress");
            std::thread::sleep(Duration::from_millis(20));
        }
        server.stop();
        assert!(Store::connect(&url).is_err(), "the server is down");
        std::thread::sleep(Duration::from_millis(1500));
        server.start_again();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    // A commit that went through while the restart cut its reply is retried and then stores
    // nothing new, so the workers' own tally may fall short; the store's may not.
    assert!(inserted <= pairs, "{inserted} of {pairs}");
    let mut store = Store::connect(&url).unwrap();
    let report = store.report(id).unwrap();
    assert_eq!(report.test.status, TestStatus::Finished);
    assert_eq!(report.pairs_done, pairs);
    let exported: BTreeSet<u64> = store
        .export_pairs(id)
        .unwrap()
        .iter()
        .map(|p| p.pair_index)
        .collect();
    assert_eq!(exported, (0..pairs).collect());
    // Every pair was handed out (some twice, if a claim's reply was lost) and stored once.
    let claimed: BTreeSet<u64> = claimed.into_inner().unwrap().into_iter().collect();
    assert_eq!(claimed, exported);
}

#[test]
fn worker_role_claims_and_commits_but_cannot_manage_tests() {
    let Some(server) = PgServer::start("worker_role_claims_and_commits") else {
        return;
    };
    let url = migrated(&server, "roles");
    server.sql(
        "roles",
        "CREATE ROLE worker1 LOGIN PASSWORD 'w1-pass' IN ROLE harness_worker",
    );
    let mut owner = Store::connect(&url).unwrap();
    let id = owner.create_test(&new_test(8, None)).unwrap();
    let worker_url = server.url_as("worker1", "w1-pass", "roles");
    let mut worker = Store::connect(&worker_url).expect("the worker role connects");
    worker.register_worker("worker1", "host-a").unwrap();
    let lease = worker
        .claim(None, "worker1", 8, Duration::from_secs(60))
        .unwrap()
        .unwrap();
    worker
        .renew(id, "worker1", &lease.pairs, Duration::from_secs(60))
        .unwrap();
    let results: Vec<_> = lease.pairs.iter().map(|&p| fake_pair(p)).collect();
    let out = worker.commit(id, "worker1", &results).unwrap();
    assert_eq!((out.inserted, out.status), (8, TestStatus::Finished));
    assert_eq!(worker.report(id).unwrap().pairs_done, 8);

    let denied = |e: StoreError| {
        let s = e.to_string();
        assert!(s.contains("permission denied"), "{s}");
        assert!(!s.contains("w1-pass"), "{s}");
    };
    denied(worker.create_test(&new_test(4, None)).unwrap_err());
    denied(worker.delete_test(id).unwrap_err());
    let mut raw = worker_url.config().connect(postgres::NoTls).unwrap();
    let err = raw
        .execute(
            "UPDATE tests SET spec = '{}', pair_count = 1 WHERE id = $1",
            &[&id],
        )
        .unwrap_err();
    assert!(
        format!("{:?}", err).contains("permission denied"),
        "{err:?}"
    );
    assert!(raw.execute("DELETE FROM pair_results", &[]).is_err());
}

/// Rows of each per-test table that belong to `test`.
fn rows_of(server: &PgServer, db: &str, test: i64) -> [i64; 3] {
    let mut client = server
        .url(db)
        .config()
        .connect(postgres::NoTls)
        .expect("connect as the superuser");
    ["leases", "pair_results", "test_counts"].map(|table| {
        client
            .query_one(
                &format!("SELECT count(*) FROM {table} WHERE test_id = $1"),
                &[&test],
            )
            .expect("count rows")
            .get(0)
    })
}

#[test]
fn deleting_a_test_deletes_its_rows_and_the_paced_benchmark_keeps_up() {
    let Some(server) =
        PgServer::start("deleting_a_test_deletes_its_rows_and_the_paced_benchmark_keeps_up")
    else {
        return;
    };
    let url = migrated(&server, "scale");
    // Schema 4 has no foreign keys on the per-pair tables: the trigger deletes them.
    let mut store = Store::connect(&url).unwrap();
    let id = store.create_test(&new_test(50, None)).unwrap();
    let lease = store
        .claim(Some(id), "w", 10, Duration::from_secs(60))
        .unwrap()
        .unwrap();
    let results: Vec<PairResult> = lease.pairs[..6].iter().map(|&p| fake_pair(p)).collect();
    assert_eq!(store.commit(id, "w", &results).unwrap().inserted, 6);
    assert_eq!(rows_of(&server, "scale", id), [4, 6, 1]);
    store.delete_test(id).unwrap();
    assert_eq!(rows_of(&server, "scale", id), [0, 0, 0]);

    // Four workers at 40 pairs a second, batches of 8 (0.2 s each), for 1.2 s: the store
    // serves them, so what is committed once all have started is near the demand of 160.
    let config = BenchConfig {
        workers: 4,
        batch_pairs: 8,
        duration: Duration::from_millis(1200),
        pairs: 100_000,
        pace: Some(40.0),
    };
    let report = bench::run(&url, config).unwrap();
    assert_eq!(report.demand(), Some(160.0));
    let steady = report.steady_pairs_per_second().unwrap();
    assert!(
        steady > 0.5 * 160.0 && steady < 1.5 * 160.0,
        "committed {steady} pairs/s against a demand of 160: {report}"
    );
    assert!(report.pairs_committed >= 4 * 8 * 3, "{report}");
    assert!(
        report.to_string().contains("demand 160 pairs/s"),
        "{report}"
    );
    // Its scratch test is gone with every row.
    let mut owner = Store::connect(&url).unwrap();
    assert!(owner.list_tests().unwrap().is_empty());
    // A pace of zero, or a run shorter than two batches, is refused before anything is
    // written.
    for (pace, millis) in [(0.0, 1200), (f64::NAN, 1200), (40.0, 300)] {
        let err = bench::run(
            &url,
            BenchConfig {
                pace: Some(pace),
                duration: Duration::from_millis(millis),
                ..config
            },
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("pace") || err.contains("two batch"), "{err}");
    }
    assert!(owner.list_tests().unwrap().is_empty());
}
