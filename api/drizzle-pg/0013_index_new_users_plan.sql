-- figures.index_new_users (0012) joined the users to figures.scope_orgs(ids) by id. A LANGUAGE sql function's statements are
-- planned without the argument's value, and on a database whose statistics were taken while users was small the join came
-- out as a nested loop comparing every id with every user: quadratic in the users indexed at once (19.7 ms a 100-user batch
-- on average over a 10k import, 6.3 s for its 10,000 users in one call). Each user's row now comes from its own scope
-- (LATERAL, one user a call), the users read by id: linear whatever the statistics (≈ 1 s for the 10,000).
CREATE OR REPLACE FUNCTION figures.index_new_users(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO users_index (id, search_vector, orgs)
  SELECT u.id, coalesce(users_search_vector(u.search_text), ''), s.orgs FROM users u, LATERAL figures.scope_orgs(ARRAY[u.id]) s
  WHERE u.id = ANY (ids)
  ON CONFLICT (id) DO NOTHING;
  INSERT INTO member_scopes (organization_id, user_id) SELECT unnest(x.orgs), x.id FROM users_index x WHERE x.id = ANY (ids)
  ON CONFLICT DO NOTHING $$;
