-- figures.sync_scopes with the plans its session keeps, as 0035 did for the figure functions: a SQL function's
-- statements are planned again at every call, half of its cost for one membership write (the 100k bench database, 200
-- calls in psql: 0.6–0.8 ms a call as SQL, 0.3 ms with the plans kept). Up to 16 users a call the generic plans (an index
-- probe per id: users_index_pkey, member_scopes_user_idx) are kept; an import's final sync (thousands of ids) is still
-- planned for its own size. Same statements, same rows.
CREATE OR REPLACE FUNCTION figures.sync_scopes(ids integer[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan AS $$
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  IF cardinality(ids) <= 16 THEN
    PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
  END IF;
  UPDATE users_index x SET orgs = s.orgs FROM figures.scope_orgs(ARRAY(SELECT i.id FROM users_index i WHERE i.id = ANY (ids))) s
  WHERE x.id = s.user_id AND x.id = ANY (ids) AND x.orgs IS DISTINCT FROM s.orgs;
  DELETE FROM member_scopes m USING unnest(ids) i(id) WHERE m.user_id = i.id
    AND NOT EXISTS (SELECT 1 FROM users_index x WHERE x.id = m.user_id AND m.organization_id = ANY (x.orgs));
  INSERT INTO member_scopes (organization_id, user_id) SELECT unnest(x.orgs), x.id FROM users_index x WHERE x.id = ANY (ids)
  ON CONFLICT DO NOTHING;
END $$;
