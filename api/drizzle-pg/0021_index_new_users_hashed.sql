-- figures.index_new_users (0019) with its users read by `u.id = ANY (ids)` again: planned on a call's own ids (a
-- connection's first calls of a PL/pgSQL statement get custom plans), the array is a constant and the test a hash
-- lookup. 0019's join to the distinct ids was planned, on statistics that counted two users, as a nested loop testing
-- every user against every id: 4.2–4.5 s in two bench runs of five.
CREATE OR REPLACE FUNCTION figures.index_new_users(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH added AS (
    INSERT INTO users_index (id, search_vector, orgs)
    SELECT u.id, coalesce(users_search_vector(u.search_text), ''), s.orgs FROM figures.scope_orgs(ids) s JOIN users u ON u.id = s.user_id
    ON CONFLICT (id) DO NOTHING)
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n)
  SELECT 0, u.user_type, u.membership_status, u.is_active::int, count(*) FROM users u
  WHERE u.id = ANY (ids) AND NOT EXISTS (SELECT 1 FROM users_index x WHERE x.id = u.id) GROUP BY 2, 3, 4
  ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = user_facet_counts.n + excluded.n;
  INSERT INTO member_scopes (organization_id, user_id) SELECT unnest(x.orgs), x.id FROM users_index x WHERE x.id = ANY (ids)
  ON CONFLICT DO NOTHING;
END $$;
