-- A users import on PostgreSQL runs in one transaction (imports/runs.ts). Its users inserts counted the new users in the
-- whole-tree facet (user_facet_counts, unit 0, by type, status and active) at once (0011 figures.users_added), which locked
-- that row until the import committed: anyone creating a user of the same kind meanwhile waited for the whole import.
-- Users inserted under the import's 'new_users' pause are now counted there by figures.index_new_users, which the import
-- calls for exactly them, with the figures at the end of its transaction: once each, for the rows whose users_index row it
-- writes (a user indexed already was counted by its insert).
CREATE OR REPLACE FUNCTION figures.users_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM trigger_pauses WHERE name = 'new_users') THEN RETURN NULL; END IF;
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n)
  SELECT 0, user_type, membership_status, is_active::int, count(*) FROM new_rows GROUP BY 2, 3, 4
  ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = user_facet_counts.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The users counted are those without a users_index row before this statement (its insert's own rows are not seen by
-- the rest of it): the rows the insert writes. Read by id, not joined to the insert's output: a join planned without the
-- ids may loop over every user (0013).
CREATE OR REPLACE FUNCTION figures.index_new_users(ids integer[]) RETURNS void LANGUAGE sql AS $$
  WITH added AS (
    INSERT INTO users_index (id, search_vector, orgs)
    SELECT u.id, coalesce(users_search_vector(u.search_text), ''), s.orgs FROM users u, LATERAL figures.scope_orgs(ARRAY[u.id]) s
    WHERE u.id = ANY (ids)
    ON CONFLICT (id) DO NOTHING)
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n)
  SELECT 0, u.user_type, u.membership_status, u.is_active::int, count(*) FROM users u
  WHERE u.id = ANY (ids) AND NOT EXISTS (SELECT 1 FROM users_index x WHERE x.id = u.id) GROUP BY 2, 3, 4
  ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = user_facet_counts.n + excluded.n;
  INSERT INTO member_scopes (organization_id, user_id) SELECT unnest(x.orgs), x.id FROM users_index x WHERE x.id = ANY (ids)
  ON CONFLICT DO NOTHING $$;
