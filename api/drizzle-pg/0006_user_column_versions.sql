-- The finer users versions on PostgreSQL (SQLite's drizzle/0045, same names and rules): 'users:access'
-- (email, is_active, must_change_password), 'users:counted' (user_type, membership_status, is_active) and
-- 'users:search' (search_text), each bumped by a statement that inserted or deleted a user, or changed one
-- of its columns' values in some row; a statement that sets them to what they were bumps none, as
-- SQLite's WHEN does. Striped as every table's version (0002), so freshness.versions lists them too.
INSERT INTO freshness.stripes (name, stripe)
SELECT t, s FROM unnest(ARRAY['users:access', 'users:counted', 'users:search']) t, generate_series(0, 31) s;
--> statement-breakpoint
-- freshness.bump()'s stripe choice for a version not named after the table it watches.
CREATE FUNCTION freshness.bump_name(version_name text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  mine smallint := pg_backend_pid() % 32;
  chosen smallint;
BEGIN
  SELECT stripe INTO chosen FROM freshness.stripes WHERE name = version_name
  ORDER BY (stripe + 32 - mine) % 32 LIMIT 1 FOR UPDATE SKIP LOCKED;
  UPDATE freshness.stripes SET version = version + 1 WHERE name = version_name AND stripe = coalesce(chosen, mine);
END $$;
--> statement-breakpoint
CREATE FUNCTION freshness.bump_user_columns() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  access_changed boolean;
  counted_changed boolean;
  search_changed boolean;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    -- One pass over the statement's rows; the API never rewrites a user id, so it pairs old with new.
    SELECT
      bool_or(o.email IS DISTINCT FROM n.email OR o.is_active IS DISTINCT FROM n.is_active
        OR o.must_change_password IS DISTINCT FROM n.must_change_password),
      bool_or(o.user_type IS DISTINCT FROM n.user_type OR o.membership_status IS DISTINCT FROM n.membership_status
        OR o.is_active IS DISTINCT FROM n.is_active),
      bool_or(o.search_text IS DISTINCT FROM n.search_text)
    INTO access_changed, counted_changed, search_changed
    FROM old_rows o JOIN new_rows n ON n.id = o.id;
  ELSE
    IF TG_OP = 'INSERT' THEN
      PERFORM FROM new_rows LIMIT 1;
    ELSE
      PERFORM FROM old_rows LIMIT 1;
    END IF;
    access_changed := FOUND;
    counted_changed := FOUND;
    search_changed := FOUND;
  END IF;
  IF access_changed THEN PERFORM freshness.bump_name('users:access'); END IF;
  IF counted_changed THEN PERFORM freshness.bump_name('users:counted'); END IF;
  IF search_changed THEN PERFORM freshness.bump_name('users:search'); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Transition tables rule out a column list (AFTER UPDATE OF): the function compares the values itself.
CREATE TRIGGER users_columns_version_i AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION freshness.bump_user_columns();
--> statement-breakpoint
CREATE TRIGGER users_columns_version_u AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION freshness.bump_user_columns();
--> statement-breakpoint
CREATE TRIGGER users_columns_version_d AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION freshness.bump_user_columns();
