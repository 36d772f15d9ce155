-- An import's new members, figured once per import instead of once per batch (organizations/bulk-members.ts).
-- 1. The report cells join the member figures in the 'new_members' pause: a paused insert is synced by its caller.
CREATE OR REPLACE FUNCTION figures.reports_members_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF EXISTS (SELECT 1 FROM trigger_pauses WHERE name = 'new_members') THEN RETURN NULL; END IF;
    PERFORM figures.lock_and_sync_reports(ARRAY(SELECT DISTINCT user_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM figures.lock_and_sync_reports(ARRAY(SELECT DISTINCT user_id FROM old_rows));
  ELSE
    PERFORM figures.lock_and_sync_reports(ARRAY(SELECT o.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.organization_id, o.user_id, o.is_active, o.joined_at, o.ended_at, o.end_reason) IS DISTINCT FROM (n.organization_id, n.user_id, n.is_active, n.joined_at, n.ended_at, n.end_reason)
      UNION SELECT n.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.organization_id, o.user_id, o.is_active, o.joined_at, o.ended_at, o.end_reason) IS DISTINCT FROM (n.organization_id, n.user_id, n.is_active, n.joined_at, n.ended_at, n.end_reason)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Everything a paused insert of these users' memberships left undone: member figures, scopes, report cells.
-- Each part compares the users' memberships now with what it last counted, so calling it late (at the end
-- of an import's transaction) or twice gives the same figures.
CREATE FUNCTION figures.sync_new_members(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM figures.sync_members(ids);
  PERFORM figures.lock_and_sync_reports(ids);
END $$;
--> statement-breakpoint
-- New users counted in the whole-tree facet (unit 0) once per statement, not with one upsert of the same row per user.
CREATE FUNCTION figures.users_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n)
  SELECT 0, user_type, membership_status, is_active::int, count(*) FROM new_rows GROUP BY 2, 3, 4
  ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = user_facet_counts.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER user_figures_i ON users;
--> statement-breakpoint
CREATE TRIGGER user_figures_i AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION figures.users_added();
