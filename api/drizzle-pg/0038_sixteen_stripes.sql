-- freshness.versions sums 16 stripes where it summed 64: the read every third request or so sends (lib/freshness.ts)
-- scanned 64 rows of 37 columns, its cost growing with each version name added since 0023 (0.08 → 0.15 ms a read under
-- the 100k mix); 16 rows are a quarter of it. A writing statement still takes the first stripe no other open transaction
-- holds, counting from its backend's: writers wait only when 16 write transactions are open at once, and then only for
-- the first to commit. The sums carry over into stripe 0 (a version never moves back, or a value built under an old
-- version would be served again).
LOCK TABLE freshness.counters IN EXCLUSIVE MODE;
--> statement-breakpoint
DO $$
DECLARE
  c text;
BEGIN
  FOR c IN SELECT column_name FROM information_schema.columns
    WHERE table_schema = 'freshness' AND table_name = 'counters' AND column_name <> 'stripe' LOOP
    EXECUTE format('UPDATE freshness.counters SET %1$I = %1$I + (SELECT sum(%1$I) FROM freshness.counters WHERE stripe >= 16) WHERE stripe = 0', c);
  END LOOP;
  DELETE FROM freshness.counters WHERE stripe >= 16;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION freshness.bump_name(version_name text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  mine smallint := pg_backend_pid() % 16;
  chosen smallint;
  bumped text := coalesce(nullif(current_setting('freshness.bumped', true), ''), '|');
BEGIN
  IF strpos(bumped, '|' || version_name || '|') > 0 THEN
    RETURN;
  END IF;
  -- A transaction keeps the stripes it locked (its own lock is never skipped); only when 16 writers are open at once does one wait.
  SELECT stripe INTO chosen FROM freshness.counters ORDER BY (stripe + 16 - mine) % 16 LIMIT 1 FOR UPDATE SKIP LOCKED;
  EXECUTE format('UPDATE freshness.counters SET %1$I = %1$I + 1 WHERE stripe = $1', version_name) USING coalesce(chosen, mine);
  PERFORM set_config('freshness.bumped', bumped || version_name || '|', true);
END $$;
