-- figures.index_new_users (0018) without `SET plan_cache_mode = force_custom_plan`: a function's setting holds for every
-- statement run beneath it, the foreign-key checks of its 40,000 index and scope rows among them, each then planned
-- again (member_scopes' insert took 0.6–1.2 s instead of 0.15–0.3 on the bench import database). Called once per import,
-- its statements get custom plans anyway (a connection's first five calls); later generic plans stay linear: the ids are
-- joined, distinct, never tested with `= ANY (ids)` (a parameter array there is a linear search per row).
CREATE OR REPLACE FUNCTION figures.index_new_users(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  WITH added AS (
    INSERT INTO users_index (id, search_vector, orgs)
    SELECT u.id, coalesce(users_search_vector(u.search_text), ''), s.orgs FROM figures.scope_orgs(ids) s JOIN users u ON u.id = s.user_id
    ON CONFLICT (id) DO NOTHING)
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n)
  SELECT 0, u.user_type, u.membership_status, u.is_active::int, count(*) FROM (SELECT DISTINCT v FROM unnest(ids) v) i(id) JOIN users u ON u.id = i.id
  WHERE NOT EXISTS (SELECT 1 FROM users_index x WHERE x.id = u.id) GROUP BY 2, 3, 4
  ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = user_facet_counts.n + excluded.n;
  INSERT INTO member_scopes (organization_id, user_id)
  SELECT unnest(x.orgs), x.id FROM (SELECT DISTINCT v FROM unnest(ids) v) i(id) JOIN users_index x ON x.id = i.id
  ON CONFLICT DO NOTHING;
END $$;
