-- A users import into a fresh database (issue 29: within 1.5× of SQLite), two costs found with pg_stat_statements
-- and auto_explain on the bench (tests/bench/import-export.ts).
-- 1. The figure functions' statements were planned generically after their fifth call on a connection, while
--    organization_members and users were still small: a sequential scan for `user_id = ANY (ids)` kept for the rest of
--    the import (at its end 11–17 ms a statement for a batch of 100 users: members_seen, cover_now, cells_now, live_now,
--    the users lock). An import's sync (figures.sync_new_members, and everything it calls) plans them per call now; the
--    membership triggers keep their generic plans (every membership write would pay the planning).
--    (A CREATE OR REPLACE of sync_new_members must repeat the SET.)
ALTER FUNCTION figures.sync_new_members(integer[]) SET plan_cache_mode = force_custom_plan;
--> statement-breakpoint
-- 2. A new user's users_index row was inserted bare (no units) and rewritten by figures.sync_scopes once their
--    memberships came: every word and unit entered the GIN index (fastupdate off) twice, 8 + 9 ms a batch. An import
--    inserts its new users under the 'new_users' pause (imports/kinds/user-writes.ts) and indexes them once, with their
--    units, when their memberships are in: figures.index_new_users. Anyone else is indexed by the insert as before.
CREATE OR REPLACE FUNCTION users_index_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM trigger_pauses WHERE name = 'new_users') THEN RETURN NULL; END IF;
  INSERT INTO users_index (id, search_vector) SELECT id, coalesce(users_search_vector(search_text), '') FROM new_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The users_index rows of users inserted under the 'new_users' pause (none yet), with the units their memberships give
-- now, and their member_scopes rows: what users_index_added and figures.sync_scopes would have left.
CREATE FUNCTION figures.index_new_users(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO users_index (id, search_vector, orgs)
  SELECT u.id, coalesce(users_search_vector(u.search_text), ''), s.orgs FROM users u JOIN figures.scope_orgs(ids) s ON s.user_id = u.id
  ON CONFLICT (id) DO NOTHING;
  INSERT INTO member_scopes (organization_id, user_id) SELECT unnest(x.orgs), x.id FROM users_index x WHERE x.id = ANY (ids)
  ON CONFLICT DO NOTHING $$;
