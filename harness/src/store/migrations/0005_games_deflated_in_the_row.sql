-- Schema version 5: a pair's games arrive deflated by the worker (about 3 KB for a real pair
-- at 1,000 nodes, whose JSON is about 10 KB) and are kept in the pair's row; the pairs'
-- table is split in 16 partitions by stripe of 1,024 pairs.
--
-- Before, a real pair's 10 KB of JSON went into a jsonb column: the server compressed it
-- (pglz, about 4.9 KB) and moved it out to the TOAST table in 2 KB chunks, a second relation
-- and index written for every pair. At a thousand workers that is 20,000 pairs a second:
-- 200 MB/s of pglz on the server's cores.
--
-- Now the column holds the deflated bytes as they came (STORAGE EXTERNAL: the server does not
-- try to compress them again), in the row itself while the row fits in a page
-- (toast_tuple_target), so a pair is one heap row and one index entry, a third of the bytes.
-- Rows written by version 4 keep their jsonb `games`; exactly one of the two is set.
--
-- Partitions: PostgreSQL 15 extends a table one lock at a time (the relation-extension
-- lock), and at 40 MB/s of pairs hundreds of commits queued on that one lock of
-- `pair_results` (wait event Lock/extend in `harness bench store`). Sixteen partitions are
-- sixteen locks. A batch is leased from one or two stripes of 1,024 pairs, and the
-- partition is chosen by stripe (the operator class below hashes pair_index / 1024), so a
-- commit writes to one or two partitions, not to all sixteen.

CREATE FUNCTION harness_stripe_hash(value bigint) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$ SELECT hashint8(value / 1024) $$;
CREATE FUNCTION harness_stripe_hash(value bigint, seed bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$ SELECT hashint8extended(value / 1024, seed) $$;
-- Equal pair indices hash equally (they have the same stripe), as a hash class requires.
CREATE OPERATOR CLASS harness_stripe_ops FOR TYPE bigint USING hash AS
    OPERATOR 1 = (bigint, bigint),
    FUNCTION 1 harness_stripe_hash(bigint),
    FUNCTION 2 harness_stripe_hash(bigint, bigint);

ALTER TABLE pair_results RENAME TO pair_results_4;
ALTER INDEX pair_results_pkey RENAME TO pair_results_4_pkey;
ALTER TABLE pair_results_4 ALTER COLUMN games DROP NOT NULL;
ALTER TABLE pair_results_4 ADD COLUMN games_deflate bytea;
CREATE TABLE pair_results (
    LIKE pair_results_4 INCLUDING DEFAULTS INCLUDING CONSTRAINTS,
    PRIMARY KEY (test_id, pair_index),
    CONSTRAINT pair_results_games_once CHECK ((games IS NULL) <> (games_deflate IS NULL))
) PARTITION BY HASH (pair_index harness_stripe_ops);
ALTER TABLE pair_results ALTER COLUMN games_deflate SET STORAGE EXTERNAL;
DO $$
BEGIN
    FOR i IN 0..15 LOOP
        EXECUTE format('CREATE TABLE pair_results_p%s PARTITION OF pair_results
                            FOR VALUES WITH (MODULUS 16, REMAINDER %s)
                            WITH (toast_tuple_target = 8160)', i, i);
    END LOOP;
END
$$;
INSERT INTO pair_results SELECT * FROM pair_results_4;
DROP TABLE pair_results_4;
GRANT SELECT, INSERT ON pair_results TO harness_worker;

DROP FUNCTION harness_commit(bigint, text, bigint[], smallint[], smallint[], smallint[],
                             smallint[], jsonb[]);

-- Version 4's commit, taking the games deflated.
CREATE FUNCTION harness_commit(p_test bigint, p_worker text, p_pairs bigint[],
                               p_ptnml smallint[], p_wins smallint[], p_draws smallint[],
                               p_losses smallint[], p_games bytea[])
RETURNS TABLE (stored bigint, test_status text)
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
    v_status text;
    v_count  bigint;
    v_bad    bigint;
    v_n      bigint;
    v_p      bigint[];
    v_w      bigint;
    v_d      bigint;
    v_l      bigint;
BEGIN
    PERFORM pg_advisory_xact_lock_shared(1212240468, (p_test % 2147483647)::int);
    SELECT t.status, t.pair_count INTO v_status, v_count FROM tests t WHERE t.id = p_test;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no test % in the store', p_test USING ERRCODE = 'no_data_found';
    END IF;
    SELECT min(i) INTO v_bad FROM unnest(p_pairs) AS i WHERE i < 0 OR i >= v_count;
    IF v_bad IS NOT NULL THEN
        RAISE EXCEPTION 'pair index % is out of range: test % has pairs 0..%',
            v_bad, p_test, v_count USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF v_status <> 'active' THEN
        RETURN QUERY SELECT 0::bigint, v_status;
        RETURN;
    END IF;
    -- Rows in pair order (the caller sorts), so overlapping commits cannot deadlock.
    WITH ins AS (
        INSERT INTO pair_results
            (test_id, pair_index, ptnml, wins, draws, losses, games_deflate, worker)
        SELECT p_test, u.i, u.p, u.w, u.d, u.l, u.g, p_worker
        FROM unnest(p_pairs, p_ptnml, p_wins, p_draws, p_losses, p_games)
            AS u(i, p, w, d, l, g)
        ON CONFLICT (test_id, pair_index) DO NOTHING
        RETURNING ptnml, wins, draws, losses)
    SELECT count(*),
           ARRAY[count(*) FILTER (WHERE ptnml = 0), count(*) FILTER (WHERE ptnml = 1),
                 count(*) FILTER (WHERE ptnml = 2), count(*) FILTER (WHERE ptnml = 3),
                 count(*) FILTER (WHERE ptnml = 4)],
           coalesce(sum(wins), 0), coalesce(sum(draws), 0), coalesce(sum(losses), 0)
      INTO v_n, v_p, v_w, v_d, v_l FROM ins;
    DELETE FROM leases WHERE test_id = p_test AND pair_index = ANY (p_pairs);
    IF v_n > 0 THEN
        INSERT INTO test_counts (test_id, worker, pairs_0, pairs_1, pairs_2, pairs_3, pairs_4,
                                 wins, draws, losses)
        VALUES (p_test, p_worker, v_p[1], v_p[2], v_p[3], v_p[4], v_p[5], v_w, v_d, v_l)
        ON CONFLICT (test_id, worker) DO UPDATE SET
            pairs_0 = test_counts.pairs_0 + EXCLUDED.pairs_0,
            pairs_1 = test_counts.pairs_1 + EXCLUDED.pairs_1,
            pairs_2 = test_counts.pairs_2 + EXCLUDED.pairs_2,
            pairs_3 = test_counts.pairs_3 + EXCLUDED.pairs_3,
            pairs_4 = test_counts.pairs_4 + EXCLUDED.pairs_4,
            wins = test_counts.wins + EXCLUDED.wins,
            draws = test_counts.draws + EXCLUDED.draws,
            losses = test_counts.losses + EXCLUDED.losses;
        INSERT INTO workers (name, host, pairs_done) VALUES (p_worker, '', v_n)
            ON CONFLICT (name) DO UPDATE
            SET pairs_done = workers.pairs_done + v_n, last_seen = now();
    END IF;
    RETURN QUERY SELECT v_n, v_status;
END
$$;
GRANT EXECUTE ON FUNCTION harness_commit(bigint, text, bigint[], smallint[], smallint[],
                                         smallint[], smallint[], bytea[]) TO harness_worker;
-- Planned once per connection, with the arrays as parameters: a custom plan copies the
-- constants it is given, and a batch's games are megabytes (the profile of version 4's plan
-- showed backends copying them in copyObject and faulting in fresh pages for the copies).
-- Every statement here reads by primary key, whatever the tables' size.
ALTER FUNCTION harness_commit(bigint, text, bigint[], smallint[], smallint[], smallint[],
                              smallint[], bytea[])
    SET plan_cache_mode = force_generic_plan;
