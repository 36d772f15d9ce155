-- users_index rows are written only from users rows (figures.index_new_users, the users triggers), so its foreign key to
-- users protected one thing, that a deleted user leaves no row. Its check ran once per new user, 10,000 in a 10k import,
-- each planned again under index_new_users' force_custom_plan (0026): 122 ms of planning and 25 ms of checks
-- (pg_stat_statements, track = all); without that setting the checks kept a plan made while users was small and one
-- import spent 1.3 s in them. As 0026 did for member_scopes, the statement trigger on users removes the deleted users'
-- rows; no other trigger on users reads users_index (figures.user_changed, figures.members_first).
ALTER TABLE users_index DROP CONSTRAINT users_index_id_fkey;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION member_scopes_users_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM member_scopes m USING old_rows o WHERE m.user_id = o.id;
  DELETE FROM users_index x USING old_rows o WHERE x.id = o.id;
  RETURN NULL;
END $$;
