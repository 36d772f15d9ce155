-- Cache versions on PostgreSQL without a hot row (issue 29 item 5; SQLite's are drizzle/0005_cache_versions.sql).
-- Each tracked table's version is spread over 32 stripes; a statement that wrote rows bumps one stripe, the
-- first unlocked one counting from its backend's own, so concurrent writers do not queue on one row.
-- A table's version is the sum of its stripes: it grows with every committed write by any connection and
-- never moves back (a rollback undoes its bump), which is all lib/freshness.ts compares. No LISTEN/NOTIFY
-- (it takes a global lock at commit). Its own schema: the public one holds the tables both engines share.
CREATE SCHEMA freshness;
--> statement-breakpoint
CREATE TABLE freshness.stripes (
  name text NOT NULL,
  stripe smallint NOT NULL,
  version bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (name, stripe)
) WITH (fillfactor = 50);
--> statement-breakpoint
INSERT INTO freshness.stripes (name, stripe)
SELECT t, s FROM unnest(ARRAY['users', 'departments', 'classes', 'organizations', 'organization_members', 'permissions',
  'role_permissions', 'roles', 'user_roles', 'audit_logs', 'fee_levels', 'payment_assignments', 'payment_campaigns',
  'payment_orders', 'payment_transactions', 'payos_configs']) t, generate_series(0, 31) s;
--> statement-breakpoint
-- Every tracked table's version in one query, as SQLite's `SELECT name, version FROM cache_versions`.
CREATE VIEW freshness.versions AS SELECT name, sum(version)::bigint AS version FROM freshness.stripes GROUP BY name;
--> statement-breakpoint
CREATE FUNCTION freshness.bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  mine smallint := pg_backend_pid() % 32;
  chosen smallint;
BEGIN
  -- A statement that wrote no row changes no cached read (SQLite's row triggers do not fire either).
  IF TG_OP = 'DELETE' THEN
    PERFORM FROM old_rows LIMIT 1;
  ELSE
    PERFORM FROM new_rows LIMIT 1;
  END IF;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  -- A transaction keeps the stripe it locked first (its own lock is never skipped).
  SELECT stripe INTO chosen FROM freshness.stripes WHERE name = TG_TABLE_NAME
  ORDER BY (stripe + 32 - mine) % 32 LIMIT 1 FOR UPDATE SKIP LOCKED;
  -- Only when 32 writers of this table are all open at once does one wait.
  UPDATE freshness.stripes SET version = version + 1 WHERE name = TG_TABLE_NAME AND stripe = coalesce(chosen, mine);
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOR t IN SELECT DISTINCT name FROM freshness.stripes LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION freshness.bump()', t || '_version_i', t);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION freshness.bump()', t || '_version_u', t);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION freshness.bump()', t || '_version_d', t);
  END LOOP;
END $$;
