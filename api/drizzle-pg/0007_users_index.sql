-- The users index on PostgreSQL, as SQLite's users_fts (drizzle/0007, 0026): one row per user with its search
-- words and the units it is an active member of with every ancestor of them, under one GIN index, so a search
-- or a list inside subtrees is one index walk. users.search_vector (0001) held only the words: a scoped search
-- then probed every match's memberships or hashed the scope's members (12 ms a count at 100k users, 60 % of
-- the database's time under the read mix; docs/benchmark.md). The words are kept by users' own triggers, the
-- units by figures.sync_members, which every membership change and an import's paused insert already call.
CREATE TABLE users_index (
  id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  search_vector tsvector NOT NULL,
  orgs integer[] NOT NULL DEFAULT '{}'
);
--> statement-breakpoint
-- Pending-list updates would make every search scan the list between vacuums; a membership write pays instead.
CREATE INDEX users_index_search_idx ON users_index USING gin (search_vector, orgs) WITH (fastupdate = off);
--> statement-breakpoint
-- The units these users are active members of, with their ancestors, ascending.
CREATE FUNCTION figures.scope_orgs(ids integer[]) RETURNS TABLE (user_id integer, orgs integer[]) LANGUAGE sql STABLE AS $$
  SELECT u.id, coalesce((SELECT array_agg(DISTINCT p ORDER BY p) FROM organization_members m JOIN organizations o ON o.id = m.organization_id,
      figures.path_ids(o.path) p WHERE m.user_id = u.id AND m.is_active), '{}')
  FROM unnest(ids) u(id) $$;
--> statement-breakpoint
CREATE FUNCTION figures.sync_scopes(ids integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE users_index x SET orgs = s.orgs FROM figures.scope_orgs(ids) s WHERE x.id = s.user_id AND x.orgs IS DISTINCT FROM s.orgs $$;
--> statement-breakpoint
-- Every caller of figures.sync_members (the membership triggers, a paused import) now brings the index along.
ALTER FUNCTION figures.sync_members(integer[]) RENAME TO sync_member_figures;
--> statement-breakpoint
CREATE FUNCTION figures.sync_members(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM figures.sync_member_figures(ids);
  PERFORM figures.sync_scopes(ids);
END $$;
--> statement-breakpoint
CREATE FUNCTION users_index_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO users_index (id, search_vector) SELECT id, coalesce(users_search_vector(search_text), '') FROM new_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION users_index_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users_index SET search_vector = coalesce(users_search_vector(NEW.search_text), '') WHERE id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_index_i AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION users_index_added();
--> statement-breakpoint
CREATE TRIGGER users_index_u AFTER UPDATE OF search_text ON users FOR EACH ROW
WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text) EXECUTE FUNCTION users_index_words();
--> statement-breakpoint
-- A unit moved under another parent (not an API operation; a hand-run repair) moves its members' ancestors.
CREATE FUNCTION users_index_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM figures.sync_scopes(ARRAY(SELECT DISTINCT m.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
    JOIN organization_members m ON m.organization_id = n.id WHERE o.path IS DISTINCT FROM n.path AND m.is_active));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_index_o_u AFTER UPDATE ON organizations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION users_index_moved();
--> statement-breakpoint
-- The whole index from users and memberships: this migration, and db:copy (whose copy runs without triggers).
CREATE FUNCTION users_index_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM users_index;
  INSERT INTO users_index (id, search_vector, orgs)
  SELECT u.id, coalesce(users_search_vector(u.search_text), ''), coalesce(s.orgs, '{}') FROM users u
  LEFT JOIN (SELECT m.user_id, array_agg(DISTINCT p ORDER BY p) AS orgs FROM organization_members m
      JOIN organizations o ON o.id = m.organization_id, figures.path_ids(o.path) p WHERE m.is_active GROUP BY m.user_id) s ON s.user_id = u.id $$;
--> statement-breakpoint
SELECT users_index_rebuild();
--> statement-breakpoint
DROP INDEX users_search_idx;
--> statement-breakpoint
ALTER TABLE users DROP COLUMN search_vector;
