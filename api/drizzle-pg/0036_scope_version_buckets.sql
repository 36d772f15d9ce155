-- A subtree's users lists follow who is in the subtree, not every membership row written beneath it. The lists' counts,
-- pages and checkpoints (users/list.ts countedTables) read member_scopes (0008: a row per unit at or above each active
-- membership) or users_index.orgs, which figures.sync_scopes keeps equal to it; they followed 'organization_members:N'
-- (0016), which every membership under a faculty moved, and a university followed every membership of its tree. A
-- membership added for a user already in the subtree (a second chi đoàn), or ended while another keeps them in it,
-- changes no member_scopes row of that subtree, so its lists now stay cached in every process: under the +10 % writes
-- mix a university's searches were counted again after nearly every membership write, 5–9 ms each on the 100k bench
-- database (docs/benchmark.md, session 29). Version names: 'member_scopes:N', the rows of units under the second-level
-- unit whose id is N modulo 16, and 'member_scopes:top', those of the top-level units; a row whose unit is gone moves
-- them all. SQLite reads them all as 'organization_members' (lib/freshness.ts). The 0016 buckets are dropped.
DROP TRIGGER organization_members_buckets_i ON organization_members;
--> statement-breakpoint
DROP TRIGGER organization_members_buckets_u ON organization_members;
--> statement-breakpoint
DROP TRIGGER organization_members_buckets_d ON organization_members;
--> statement-breakpoint
DROP FUNCTION freshness.bump_member_buckets();
--> statement-breakpoint
-- The version names are the columns of freshness.counters (0023); the view lists every column but the stripe.
DO $$
DECLARE
  sums text;
  rows text;
BEGIN
  DROP VIEW freshness.versions;
  FOR b IN 0..15 LOOP
    EXECUTE format('ALTER TABLE freshness.counters DROP COLUMN %I', 'organization_members:' || b);
    EXECUTE format('ALTER TABLE freshness.counters ADD COLUMN %I bigint NOT NULL DEFAULT 0', 'member_scopes:' || b);
  END LOOP;
  ALTER TABLE freshness.counters ADD COLUMN "member_scopes:top" bigint NOT NULL DEFAULT 0;
  SELECT string_agg(format('sum(%I)::bigint AS %I', column_name, column_name), ', ' ORDER BY column_name),
         string_agg(format('(%L, s.%I)', column_name, column_name), ', ' ORDER BY column_name)
  INTO sums, rows FROM information_schema.columns
  WHERE table_schema = 'freshness' AND table_name = 'counters' AND column_name <> 'stripe';
  EXECUTE format('CREATE VIEW freshness.versions AS SELECT v.name, v.version FROM (SELECT %s FROM freshness.counters) s '
    'CROSS JOIN LATERAL (VALUES %s) v(name, version)', sums, rows);
END $$;
--> statement-breakpoint
-- '/1/' → 'member_scopes:top'; '/1/5/…' → 'member_scopes:5' (5 modulo 16); null for a unit not found (users/list.ts scopeVersion).
CREATE FUNCTION freshness.scope_bucket(path text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN path IS NULL THEN NULL WHEN split_part(path, '/', 3) = '' THEN 'member_scopes:top'
    ELSE 'member_scopes:' || (split_part(path, '/', 3)::integer % 16) END
$$;
--> statement-breakpoint
CREATE FUNCTION freshness.bump_scope_buckets() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  names text[];
  n text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT freshness.scope_bucket(o.path)) INTO names
    FROM (SELECT DISTINCT organization_id FROM new_rows) r LEFT JOIN organizations o ON o.id = r.organization_id;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT freshness.scope_bucket(o.path)) INTO names
    FROM (SELECT DISTINCT organization_id FROM old_rows) r LEFT JOIN organizations o ON o.id = r.organization_id;
  ELSE
    SELECT array_agg(DISTINCT freshness.scope_bucket(o.path)) INTO names
    FROM (SELECT organization_id FROM new_rows UNION SELECT organization_id FROM old_rows) r LEFT JOIN organizations o ON o.id = r.organization_id;
  END IF;
  -- No row written: no version moves (as freshness.bump).
  IF names IS NULL THEN
    RETURN NULL;
  END IF;
  -- A unit no longer there (its path unknown): every bucket.
  IF array_position(names, NULL) IS NOT NULL THEN
    names := ARRAY(SELECT 'member_scopes:' || b FROM generate_series(0, 15) b) || 'member_scopes:top'::text;
  END IF;
  FOREACH n IN ARRAY names LOOP
    PERFORM freshness.bump_name(n);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER member_scopes_buckets_i AFTER INSERT ON member_scopes REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION freshness.bump_scope_buckets();
--> statement-breakpoint
CREATE TRIGGER member_scopes_buckets_u AFTER UPDATE ON member_scopes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION freshness.bump_scope_buckets();
--> statement-breakpoint
CREATE TRIGGER member_scopes_buckets_d AFTER DELETE ON member_scopes REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION freshness.bump_scope_buckets();
