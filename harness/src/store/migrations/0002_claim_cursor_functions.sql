-- Schema version 2: fresh pairs are handed out from cursors instead of from one
-- pre-created lease row per pair, and a claim and a commit are one call each.
--
-- Why: with a row per unplayed pair, every claim scanned the same head of the leases
-- index, through the dead versions of every pair claimed before, and its row locks
-- (FOR UPDATE SKIP LOCKED rechecks lock rows that then fail the condition) made the
-- commits' lease deletions wait on claims: measured, both took hundreds of milliseconds
-- under 200 simulated workers. Now `leases` holds only pairs handed out and not yet
-- committed (a few batches per worker), and a claim takes fresh pairs from the test's
-- cursors: one per stripe of 1024 pairs, so that concurrent claims lock different rows
-- (SKIP LOCKED) instead of queueing on one (a single cursor on the test's row was
-- measured too: claims queued on its lock for seconds under 200 workers).

CREATE TABLE test_cursors (
    test_id   bigint NOT NULL REFERENCES tests (id) ON DELETE CASCADE,
    stripe    integer NOT NULL,
    -- The next pair of the stripe to hand out; the stripe is [first, end_pair).
    next_pair bigint NOT NULL,
    end_pair  bigint NOT NULL,
    CHECK (next_pair <= end_pair),
    PRIMARY KEY (test_id, stripe)
);
GRANT SELECT ON test_cursors TO harness_worker;

-- Tests of version 1 have a lease row for each unplayed pair and no cursor.
-- A pair never handed out or given back has expires_at = -infinity: claimed first.
UPDATE leases SET expires_at = '-infinity', worker = NULL WHERE expires_at IS NULL;
ALTER TABLE leases ALTER COLUMN expires_at SET NOT NULL;

-- Leases up to p_limit pairs of test p_test to p_worker for p_secs seconds: expired or
-- given-back pairs first (oldest expiry, then lowest index), then fresh pairs from the
-- cursors (lowest free stripe first). Returns nothing when the test is not active or has
-- nothing to claim. SECURITY DEFINER: workers move the cursors only through this function.
CREATE FUNCTION harness_claim(p_test bigint, p_worker text, p_limit integer,
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
        WITH picked AS (
            SELECT l.pair_index FROM leases l
            WHERE l.test_id = p_test AND l.expires_at < now()
            ORDER BY l.expires_at, l.pair_index
            LIMIT p_limit FOR UPDATE SKIP LOCKED)
        UPDATE leases l SET worker = p_worker, expires_at = v_until
        FROM picked WHERE l.test_id = p_test AND l.pair_index = picked.pair_index
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
REVOKE ALL ON FUNCTION harness_claim(bigint, text, integer, double precision) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION harness_claim(bigint, text, integer, double precision)
    TO harness_worker;

-- Stores finished pairs of p_test: each pair once (ON CONFLICT on (test, pair)), their
-- leases deleted, the worker's counts and pair total updated; nothing when the test is no
-- longer active. Returns the pairs newly stored and the test's status. The shared advisory
-- lock (class 0x48415254, "HART", as in queue.rs) lets an SPRT decision or a stop, which
-- take it exclusively, wait for the commits under way; each statement of this function
-- reads the rows committed before it, so the status is read after the lock is held.
CREATE FUNCTION harness_commit(p_test bigint, p_worker text, p_pairs bigint[],
                               p_ptnml smallint[], p_wins smallint[], p_draws smallint[],
                               p_losses smallint[], p_games jsonb[])
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
            (test_id, pair_index, ptnml, wins, draws, losses, games, worker)
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
                                         smallint[], smallint[], jsonb[]) TO harness_worker;
