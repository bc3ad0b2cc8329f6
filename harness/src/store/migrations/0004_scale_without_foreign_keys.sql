-- Schema version 4: what a thousand workers on one test need, found with
-- `harness bench store --workers 1000 --batch 540 --pace 18` (workers at a real worker's pace,
-- each batch 30 s of play, so about 540,000 pairs leased at any time).
--
-- 1. No foreign keys from the per-pair tables to `tests`. A foreign key check locks the
--    referenced row (FOR KEY SHARE) for every row inserted: the claims and commits of one
--    test all lock the same `tests` row, hundreds of transactions at once, each lock
--    recorded in a multixact that grows with the lockers, and every check takes that row's
--    buffer lock. The claim and commit functions check the test themselves; deleting a test
--    deletes its rows in a trigger, under the test's advisory lock, which claims now take
--    too (shared), so no claim or commit can leave rows of a deleted test behind.
-- 2. The claim's re-lease of expired pairs updates the rows it locked by their row ids. As
--    an UPDATE ... FROM a CTE it could be planned as a nested loop that rescans the CTE for
--    every lease row: with 55,000 expired leases, claims ran for minutes and the commits
--    behind them waited.
-- 3. Both functions plan their statements for the call's own values and the tables' current
--    size (plan_cache_mode force_custom_plan): a generic plan cached while a test's tables
--    were empty would scan them whole once they are large.

ALTER TABLE leases DROP CONSTRAINT IF EXISTS leases_test_id_fkey;
ALTER TABLE pair_results DROP CONSTRAINT IF EXISTS pair_results_test_id_fkey;
ALTER TABLE test_counts DROP CONSTRAINT IF EXISTS test_counts_test_id_fkey;

-- What ON DELETE CASCADE did, after the claims and commits under way (which hold the test's
-- advisory lock shared) have finished.
CREATE FUNCTION harness_delete_test_rows() RETURNS trigger
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(1212240468, (OLD.id % 2147483647)::int);
    DELETE FROM leases WHERE test_id = OLD.id;
    DELETE FROM pair_results WHERE test_id = OLD.id;
    DELETE FROM test_counts WHERE test_id = OLD.id;
    RETURN OLD;
END
$$;
CREATE TRIGGER tests_delete_rows BEFORE DELETE ON tests
    FOR EACH ROW EXECUTE FUNCTION harness_delete_test_rows();

-- Version 2's claim with the shared advisory lock, and the re-lease by row id.
CREATE OR REPLACE FUNCTION harness_claim(p_test bigint, p_worker text, p_limit integer,
                                         p_secs double precision)
RETURNS TABLE (leased_pair bigint, leased_until timestamptz)
LANGUAGE plpgsql SECURITY DEFINER SET search_path FROM CURRENT AS $$
DECLARE
    v_status text;
    v_until  timestamptz := now() + make_interval(secs => p_secs);
    v_taken  bigint;
    v_stripe integer;
    v_lo     bigint;
    v_hi     bigint;
    v_end    bigint;
BEGIN
    PERFORM pg_advisory_xact_lock_shared(1212240468, (p_test % 2147483647)::int);
    SELECT t.status INTO v_status FROM tests t WHERE t.id = p_test;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no test % in the store', p_test USING ERRCODE = 'no_data_found';
    END IF;
    IF v_status <> 'active' THEN
        RETURN;
    END IF;
    -- A claim lost in a server crash hands its pairs out again, and a pair is stored once
    -- whoever commits it (the games of a pair are fixed): no need to wait for the disk
    -- while holding a cursor.
    PERFORM set_config('synchronous_commit', 'off', true);
    RETURN QUERY
        UPDATE leases l SET worker = p_worker, expires_at = v_until
        WHERE l.ctid = ANY (ARRAY(
            SELECT e.ctid FROM leases e
            WHERE e.test_id = p_test AND e.expires_at < now()
            ORDER BY e.expires_at, e.pair_index
            LIMIT p_limit FOR UPDATE SKIP LOCKED))
        RETURNING l.pair_index, l.expires_at;
    GET DIAGNOSTICS v_taken = ROW_COUNT;
    -- Fresh pairs from the lowest stripes no other claim holds now.
    IF v_taken < p_limit THEN
    FOR v_stripe, v_lo, v_end IN
        SELECT c.stripe, c.next_pair, c.end_pair FROM test_cursors c
        WHERE c.test_id = p_test AND c.next_pair < c.end_pair
        ORDER BY c.stripe
        FOR UPDATE SKIP LOCKED
    LOOP
        EXIT WHEN v_taken >= p_limit;
        v_hi := least(v_end, v_lo + (p_limit - v_taken));
        UPDATE test_cursors SET next_pair = v_hi WHERE test_id = p_test AND stripe = v_stripe;
        RETURN QUERY
            INSERT INTO leases (test_id, pair_index, worker, expires_at)
            SELECT p_test, g, p_worker, v_until FROM generate_series(v_lo, v_hi - 1) AS g
            RETURNING leases.pair_index, leases.expires_at;
        v_taken := v_taken + (v_hi - v_lo);
    END LOOP;
    END IF;
    IF v_taken = 0 THEN
        -- Every stripe with pairs left is held by another claim: wait for one (again if
        -- the one waited for was emptied meanwhile, while any has pairs left).
        LOOP
            SELECT c.stripe, c.next_pair, c.end_pair INTO v_stripe, v_lo, v_end
              FROM test_cursors c
              WHERE c.test_id = p_test AND c.next_pair < c.end_pair
              ORDER BY c.stripe LIMIT 1 FOR UPDATE;
            IF FOUND THEN
                v_hi := least(v_end, v_lo + p_limit);
                UPDATE test_cursors SET next_pair = v_hi
                    WHERE test_id = p_test AND stripe = v_stripe;
                RETURN QUERY
                    INSERT INTO leases (test_id, pair_index, worker, expires_at)
                    SELECT p_test, g, p_worker, v_until
                    FROM generate_series(v_lo, v_hi - 1) AS g
                    RETURNING leases.pair_index, leases.expires_at;
                EXIT;
            END IF;
            EXIT WHEN NOT EXISTS (SELECT 1 FROM test_cursors c
                                  WHERE c.test_id = p_test AND c.next_pair < c.end_pair);
        END LOOP;
    END IF;
    INSERT INTO workers (name, host) VALUES (p_worker, '')
        ON CONFLICT (name) DO UPDATE SET last_seen = now();
END
$$;

ALTER FUNCTION harness_claim(bigint, text, integer, double precision)
    SET plan_cache_mode = force_custom_plan;
ALTER FUNCTION harness_commit(bigint, text, bigint[], smallint[], smallint[], smallint[],
                              smallint[], jsonb[])
    SET plan_cache_mode = force_custom_plan;
