-- Each active member under each unit at or above their membership, by unit then user (users_index.orgs as
-- rows): a scope's members newest first are one backward b-tree walk, which a page of a subtree's members and
-- its checkpoints merge with users by id. Collecting a faculty's 12,000 members from its 624 units took 44 ms
-- a page at 1M users (docs/benchmark.md). Kept with users_index by figures.sync_scopes and users_index_rebuild.
CREATE TABLE member_scopes (
  organization_id integer NOT NULL,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (organization_id, user_id)
);
--> statement-breakpoint
CREATE INDEX member_scopes_user_idx ON member_scopes (user_id);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION figures.sync_scopes(ids integer[]) RETURNS void LANGUAGE sql AS $$
  UPDATE users_index x SET orgs = s.orgs FROM figures.scope_orgs(ids) s WHERE x.id = s.user_id AND x.orgs IS DISTINCT FROM s.orgs;
  DELETE FROM member_scopes m WHERE m.user_id = ANY (ids)
    AND NOT EXISTS (SELECT 1 FROM users_index x WHERE x.id = m.user_id AND m.organization_id = ANY (x.orgs));
  INSERT INTO member_scopes (organization_id, user_id) SELECT unnest(x.orgs), x.id FROM users_index x WHERE x.id = ANY (ids)
  ON CONFLICT DO NOTHING $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION users_index_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM users_index;
  INSERT INTO users_index (id, search_vector, orgs)
  SELECT u.id, coalesce(users_search_vector(u.search_text), ''), coalesce(s.orgs, '{}') FROM users u
  LEFT JOIN (SELECT m.user_id, array_agg(DISTINCT p ORDER BY p) AS orgs FROM organization_members m
      JOIN organizations o ON o.id = m.organization_id, figures.path_ids(o.path) p WHERE m.is_active GROUP BY m.user_id) s ON s.user_id = u.id;
  DELETE FROM member_scopes;
  INSERT INTO member_scopes (organization_id, user_id) SELECT unnest(orgs), id FROM users_index ORDER BY 1, 2 $$;
--> statement-breakpoint
INSERT INTO member_scopes (organization_id, user_id) SELECT unnest(orgs), id FROM users_index ORDER BY 1, 2;
--> statement-breakpoint
ANALYZE users_index;
--> statement-breakpoint
ANALYZE member_scopes;
