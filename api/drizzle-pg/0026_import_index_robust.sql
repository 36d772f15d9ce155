-- A users import's end-of-run index (issue 29: a 10k import within 1.5× of SQLite), two costs found on the bench.
-- 1. figures.index_new_users (0022, LANGUAGE sql) planned its statements without the ids, on whatever statistics
--    users_index had: on one bench run of two it took 5.6 s instead of 1.2 (pg_stat_statements), the plans of 0018/0019/0021
--    4–5 s in three of twelve. Now PL/pgSQL planned per call (the ids a constant: `= ANY (ids)` is an index or bitmap scan
--    over them, or a hashed filter) with nested loops off while it runs: every join is a hash join, so no plan reads a
--    table once per id, whatever the statistics say — linear in the ids and the rows they reach. The users counted in the
--    whole-tree facet are those the index insert wrote (its RETURNING), as 0014's NOT EXISTS before it counted them.
CREATE OR REPLACE FUNCTION figures.index_new_users(ids integer[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan SET enable_nestloop = off AS $$
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  WITH added AS (
    INSERT INTO users_index (id, search_vector, orgs)
    SELECT u.id, coalesce(users_search_vector(u.search_text), ''), coalesce(s.orgs, '{}')
    FROM users u LEFT JOIN (SELECT m.user_id, array_agg(DISTINCT p ORDER BY p) AS orgs
        FROM organization_members m JOIN organizations o ON o.id = m.organization_id, figures.path_ids(o.path) p
        WHERE m.user_id = ANY (ids) AND m.is_active GROUP BY m.user_id) s ON s.user_id = u.id
    WHERE u.id = ANY (ids)
    ON CONFLICT (id) DO NOTHING
    RETURNING id)
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n)
  SELECT 0, u.user_type, u.membership_status, u.is_active::int, count(*) FROM added a JOIN users u ON u.id = a.id
  WHERE u.id = ANY (ids) GROUP BY 2, 3, 4
  ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = user_facet_counts.n + excluded.n;
  INSERT INTO member_scopes (organization_id, user_id) SELECT unnest(x.orgs), x.id FROM users_index x WHERE x.id = ANY (ids)
  ON CONFLICT DO NOTHING;
END $$;
--> statement-breakpoint
-- 2. member_scopes is users_index.orgs as rows, written only from users_index rows (whose id references users): its own
--    foreign key checked every row against users (30,000 checks in a 10k import, ≈ 0.26 s) to protect one thing, that a
--    deleted user leaves no rows. A statement trigger on users now deletes them, set-wise (db/pg/member-scopes.test.ts).
ALTER TABLE member_scopes DROP CONSTRAINT member_scopes_user_id_fkey;
--> statement-breakpoint
CREATE FUNCTION member_scopes_users_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM member_scopes m USING old_rows o WHERE m.user_id = o.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER member_scopes_users_d AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION member_scopes_users_deleted();
