-- figures.index_new_users (0026) ran with plan_cache_mode = force_custom_plan so that its statements are planned with
-- the ids known. The setting also reached the foreign-key checks its users_index insert fires, one per new user, and
-- had each planned again: 122 ms of planning for the 25 ms of a 10k import's 10,000 checks (pg_stat_statements, track =
-- all). Its statements now run through EXECUTE … USING, planned once per call with the ids as a known value (the same
-- plans), and the function keeps the default plan cache, so the checks reuse their plan.
CREATE OR REPLACE FUNCTION figures.index_new_users(ids integer[]) RETURNS void LANGUAGE plpgsql
SET enable_nestloop = off AS $$
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  EXECUTE $q$
  WITH added AS (
    INSERT INTO users_index (id, search_vector, orgs)
    SELECT u.id, coalesce(users_search_vector(u.search_text), ''), coalesce(s.orgs, '{}')
    FROM users u LEFT JOIN (SELECT m.user_id, array_agg(DISTINCT p ORDER BY p) AS orgs
        FROM organization_members m JOIN organizations o ON o.id = m.organization_id, figures.path_ids(o.path) p
        WHERE m.user_id = ANY ($1) AND m.is_active GROUP BY m.user_id) s ON s.user_id = u.id
    WHERE u.id = ANY ($1)
    ON CONFLICT (id) DO NOTHING
    RETURNING id)
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n)
  SELECT 0, u.user_type, u.membership_status, u.is_active::int, count(*) FROM added a JOIN users u ON u.id = a.id
  WHERE u.id = ANY ($1) GROUP BY 2, 3, 4
  ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = user_facet_counts.n + excluded.n
  $q$ USING ids;
  EXECUTE $q$
  INSERT INTO member_scopes (organization_id, user_id) SELECT unnest(x.orgs), x.id FROM users_index x WHERE x.id = ANY ($1)
  ON CONFLICT DO NOTHING
  $q$ USING ids;
END $$;
--> statement-breakpoint
ALTER FUNCTION figures.index_new_users(integer[]) RESET plan_cache_mode;
