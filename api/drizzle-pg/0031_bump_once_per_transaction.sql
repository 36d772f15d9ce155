-- A version name bumped once per transaction. A transaction's bumps are seen by others only when it commits, all at
-- once, so its second bump of a name tells no reader anything its first did not; but each was an UPDATE of the same
-- counters row, and in one long transaction those row versions pile up (none can be pruned before it ends) and every
-- later bump walks them: the 10k import's single transaction bumped 3,200 times at 0.12 → 0.3 ms each (0.9 s of its
-- 5.3 s execute; pg_stat_statements, the 100k bench database). The names already bumped are kept in a transaction-local
-- setting, which a rollback to a savepoint restores together with the bumps it undoes.
CREATE OR REPLACE FUNCTION freshness.bump_name(version_name text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  mine smallint := pg_backend_pid() % 64;
  chosen smallint;
  bumped text := coalesce(nullif(current_setting('freshness.bumped', true), ''), '|');
BEGIN
  IF strpos(bumped, '|' || version_name || '|') > 0 THEN
    RETURN;
  END IF;
  -- A transaction keeps the stripes it locked (its own lock is never skipped); only when 64 writers are open at once does one wait.
  SELECT stripe INTO chosen FROM freshness.counters ORDER BY (stripe + 64 - mine) % 64 LIMIT 1 FOR UPDATE SKIP LOCKED;
  EXECUTE format('UPDATE freshness.counters SET %1$I = %1$I + 1 WHERE stripe = $1', version_name) USING coalesce(chosen, mine);
  PERFORM set_config('freshness.bumped', bumped || version_name || '|', true);
END $$;
