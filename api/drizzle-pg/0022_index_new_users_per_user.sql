-- figures.index_new_users and figures.scope_orgs as before 0018 (0014 and 0007): each user's units read by a subquery of its
-- own, the users by `id = ANY (ids)` in a LANGUAGE sql function. The set-wise versions (0018, 0019, 0021) took 4.1–5.1 s in
-- three bench runs of twelve (a plan that could not be caught again), against 0.94–1.31 s otherwise and 1.1–1.5 s for this
-- form, which has shown no such run: linear whatever the statistics, 60 µs a user more.
CREATE OR REPLACE FUNCTION figures.scope_orgs(ids integer[]) RETURNS TABLE (user_id integer, orgs integer[]) LANGUAGE sql STABLE AS $$
  SELECT u.id, coalesce((SELECT array_agg(DISTINCT p ORDER BY p) FROM organization_members m JOIN organizations o ON o.id = m.organization_id,
      figures.path_ids(o.path) p WHERE m.user_id = u.id AND m.is_active), '{}')
  FROM unnest(ids) u(id) $$;
--> statement-breakpoint
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
