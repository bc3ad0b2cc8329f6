-- Schema version 1: tests, their pair results, leases on unplayed pairs, workers,
-- and the worker role. Applied by `migrate` in one transaction.

CREATE TABLE tests (
    id             bigserial PRIMARY KEY,
    -- finished: every pair played without an SPRT decision (or with no SPRT).
    status         text NOT NULL DEFAULT 'active'
                   CHECK (status IN ('active', 'passed', 'failed', 'stopped', 'finished')),
    -- The match specification: opaque to the store, written and read by the caller.
    spec           jsonb NOT NULL,
    pair_count     bigint NOT NULL CHECK (pair_count > 0),
    -- The u64 seed, stored bit for bit as a signed 64-bit integer.
    seed           bigint NOT NULL,
    sprt_elo0      double precision,
    sprt_elo1      double precision,
    sprt_alpha     double precision,
    sprt_beta      double precision,
    sprt_model     text CHECK (sprt_model IN ('normalized', 'logistic', 'bayeselo')),
    CHECK ((sprt_model IS NULL) = (sprt_elo0 IS NULL)
       AND (sprt_model IS NULL) = (sprt_elo1 IS NULL)
       AND (sprt_model IS NULL) = (sprt_alpha IS NULL)
       AND (sprt_model IS NULL) = (sprt_beta IS NULL)),
    -- Expected `bench` node count per engine, in the spec's engine order (NULL: not checked).
    expected_bench bigint[] NOT NULL DEFAULT '{}',
    book_sha256    text CHECK (book_sha256 ~ '^[0-9a-f]{64}$'),
    created_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz
);

-- Running totals of the committed pairs, one row per (test, worker) so that concurrent
-- commits never wait on a shared row: the test's counts are their sum.
-- pairs_k = pairs in which the first engine scored k half-points (pentanomial).
CREATE TABLE test_counts (
    test_id bigint NOT NULL REFERENCES tests (id) ON DELETE CASCADE,
    worker  text NOT NULL,
    pairs_0 bigint NOT NULL DEFAULT 0,
    pairs_1 bigint NOT NULL DEFAULT 0,
    pairs_2 bigint NOT NULL DEFAULT 0,
    pairs_3 bigint NOT NULL DEFAULT 0,
    pairs_4 bigint NOT NULL DEFAULT 0,
    wins    bigint NOT NULL DEFAULT 0,
    draws   bigint NOT NULL DEFAULT 0,
    losses  bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (test_id, worker)
);

CREATE TABLE pair_results (
    test_id      bigint NOT NULL REFERENCES tests (id) ON DELETE CASCADE,
    pair_index   bigint NOT NULL CHECK (pair_index >= 0),
    -- Half-points of the first engine over the pair, 0..4 (the pentanomial cell).
    ptnml        smallint NOT NULL,
    wins         smallint NOT NULL CHECK (wins >= 0),
    draws        smallint NOT NULL CHECK (draws >= 0),
    losses       smallint NOT NULL CHECK (losses >= 0),
    CHECK (wins + draws + losses = 2 AND ptnml = 2 * wins + draws),
    -- The pair's game rows, as the caller wrote them.
    games        jsonb NOT NULL,
    worker       text NOT NULL,
    committed_at timestamptz NOT NULL DEFAULT now(),
    -- One row per pair: a second commit of the same pair inserts nothing.
    PRIMARY KEY (test_id, pair_index)
);

-- One row per pair not yet committed (created with the test, deleted by the commit).
-- Never handed out while expires_at is NULL; leased to `worker` until expires_at.
CREATE TABLE leases (
    test_id    bigint NOT NULL REFERENCES tests (id) ON DELETE CASCADE,
    pair_index bigint NOT NULL,
    worker     text,
    expires_at timestamptz,
    PRIMARY KEY (test_id, pair_index)
);
-- Claims read fresh pairs (NULL) and expired leases in this order.
CREATE INDEX leases_claim ON leases (test_id, expires_at NULLS FIRST, pair_index);

CREATE TABLE workers (
    name       text PRIMARY KEY,
    host       text NOT NULL,
    first_seen timestamptz NOT NULL DEFAULT now(),
    last_seen  timestamptz NOT NULL DEFAULT now(),
    pairs_done bigint NOT NULL DEFAULT 0
);

-- Workers get this group role: claim, renew, commit; never create, alter or delete tests
-- (of a test only status and finished_at are writable, to record the SPRT decision;
-- no INSERT or DELETE on tests).
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'harness_worker') THEN
        CREATE ROLE harness_worker NOLOGIN;
    END IF;
END
$$;
GRANT SELECT ON harness_schema, tests TO harness_worker;
GRANT UPDATE (status, finished_at) ON tests TO harness_worker;
GRANT SELECT, INSERT, UPDATE ON test_counts TO harness_worker;
GRANT SELECT, INSERT ON pair_results TO harness_worker;
GRANT SELECT, UPDATE, DELETE ON leases TO harness_worker;
GRANT SELECT, INSERT, UPDATE ON workers TO harness_worker;
