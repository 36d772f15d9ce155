-- The report figures of SQLite's triggers (drizzle/0039 report_member_cells, 0041 report_live_members) on
-- PostgreSQL, same rules: a valid membership (active and not ended, or inactive and ended) of a unit with no
-- unit beneath it counts in every unit of its path, in the cell of its member record, Việt Nam joined and ended
-- days, reason and accepted-transfer mark; report_live_members holds the valid memberships of units with units
-- beneath them that no valid membership of the same member beneath them covers. As for the member figures
-- (0003), each write recomputes what the users it touched count now and applies the difference from what was
-- last counted (figures.cells_seen), once per statement: SQLite's per-row deltas would go wrong when one
-- statement inserts two units under one parent or two accepted transfers of one member. Not paused by
-- trigger_pauses (SQLite's are not either).
-- Writers of one user's figures queue on that user's row (FOR NO KEY UPDATE, taken by the membership
-- triggers here before 0003's member_figures_* run, as PostgreSQL fires them by name): under READ COMMITTED
-- two transactions adding one member to two units would otherwise both count them once more in the unit above.
CREATE TABLE figures.cells_seen (
  membership_id integer PRIMARY KEY,
  user_id integer NOT NULL,
  path text COLLATE "C" NOT NULL,
  membership_status text NOT NULL,
  user_type text NOT NULL,
  gender text NOT NULL,
  ethnicity text NOT NULL,
  joined_day integer NOT NULL,
  ended_day integer NOT NULL,
  end_reason text NOT NULL,
  transfer_in integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX cells_seen_user_idx ON figures.cells_seen (user_id);
--> statement-breakpoint
-- What these users' memberships count in report_member_cells now, one row per membership (its unit's path).
CREATE FUNCTION figures.cells_now(ids integer[]) RETURNS TABLE (membership_id integer, user_id integer, path text, membership_status text,
  user_type text, gender text, ethnicity text, joined_day integer, ended_day integer, end_reason text, transfer_in integer)
LANGUAGE sql STABLE AS $$
  SELECT m.id, m.user_id, x.path, u.membership_status, u.user_type, coalesce(u.gender, ''), coalesce(u.ethnicity, ''),
    ((m.joined_at + 25200000) / 86400000)::integer, coalesce((m.ended_at + 25200000) / 86400000, 0)::integer,
    CASE WHEN m.ended_at IS NULL THEN '' ELSE coalesce(m.end_reason, 'other') END,
    EXISTS (SELECT 1 FROM transfers t WHERE t.user_id = m.user_id AND t.to_organization_id = m.organization_id AND t.status = 'ACCEPTED')::integer
  FROM organization_members m JOIN organizations x ON x.id = m.organization_id JOIN users u ON u.id = m.user_id
  WHERE m.user_id = ANY (ids) AND (CASE WHEN m.is_active THEN m.ended_at IS NULL ELSE m.ended_at IS NOT NULL END)
    AND NOT EXISTS (SELECT 1 FROM organizations c WHERE c.parent_id = x.id) $$;
--> statement-breakpoint
-- These users' rows of report_live_members as they are now (paths compare bytewise: the column is COLLATE "C").
CREATE FUNCTION figures.live_now(ids integer[]) RETURNS TABLE (membership_id integer, organization_id integer, user_id integer)
LANGUAGE sql STABLE AS $$
  SELECT m.id, m.organization_id, m.user_id FROM organization_members m JOIN organizations x ON x.id = m.organization_id
  WHERE m.user_id = ANY (ids) AND (CASE WHEN m.is_active THEN m.ended_at IS NULL ELSE m.ended_at IS NOT NULL END)
    AND EXISTS (SELECT 1 FROM organizations c WHERE c.parent_id = x.id)
    AND NOT EXISTS (SELECT 1 FROM organization_members d JOIN organizations od ON od.id = d.organization_id
      WHERE d.user_id = m.user_id AND d.id <> m.id AND od.path > x.path AND od.path < substr(x.path, 1, length(x.path) - 1) || '0'
        AND (CASE WHEN d.is_active THEN d.ended_at IS NULL ELSE d.ended_at IS NOT NULL END)
        AND (d.joined_at + 25200000) / 86400000 <= (m.joined_at + 25200000) / 86400000
        AND (d.ended_at IS NULL OR (m.ended_at IS NOT NULL AND (d.ended_at + 25200000) / 86400000 >= (m.ended_at + 25200000) / 86400000))) $$;
--> statement-breakpoint
-- Brings these users' report rows from what was last counted to now. Idempotent.
CREATE FUNCTION figures.sync_reports(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO report_member_cells (organization_id, membership_status, user_type, gender, ethnicity, joined_day, ended_day, end_reason, transfer_in, n)
  SELECT p.org, d.membership_status, d.user_type, d.gender, d.ethnicity, d.joined_day, d.ended_day, d.end_reason, d.transfer_in, sum(d.sign)
  FROM (SELECT c.path, c.membership_status, c.user_type, c.gender, c.ethnicity, c.joined_day, c.ended_day, c.end_reason, c.transfer_in, 1 AS sign
      FROM figures.cells_now(ids) c
    UNION ALL SELECT s.path, s.membership_status, s.user_type, s.gender, s.ethnicity, s.joined_day, s.ended_day, s.end_reason, s.transfer_in, -1
      FROM figures.cells_seen s WHERE s.user_id = ANY (ids)) d, LATERAL figures.path_ids(d.path) p(org)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9 HAVING sum(d.sign) <> 0
  ON CONFLICT (organization_id, membership_status, user_type, gender, ethnicity, joined_day, ended_day, end_reason, transfer_in)
    DO UPDATE SET n = report_member_cells.n + excluded.n;
  DELETE FROM figures.cells_seen WHERE user_id = ANY (ids);
  INSERT INTO figures.cells_seen SELECT * FROM figures.cells_now(ids);
  DELETE FROM report_live_members WHERE user_id = ANY (ids);
  INSERT INTO report_live_members (membership_id, organization_id, user_id) SELECT * FROM figures.live_now(ids);
END $$;
--> statement-breakpoint
-- Takes the figures lock of these users (their rows, in id order), then syncs their report rows.
CREATE FUNCTION figures.lock_and_sync_reports(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM users WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
  PERFORM figures.sync_reports(ids);
END $$;
--> statement-breakpoint
CREATE FUNCTION figures.reports_members_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
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
-- Named to fire before member_figures_* (same event, name order), so their sync runs under the user lock.
CREATE TRIGGER cells_members_i AFTER INSERT ON organization_members REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION figures.reports_members_changed();
--> statement-breakpoint
CREATE TRIGGER cells_members_u AFTER UPDATE ON organization_members REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION figures.reports_members_changed();
--> statement-breakpoint
CREATE TRIGGER cells_members_d AFTER DELETE ON organization_members REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION figures.reports_members_changed();
--> statement-breakpoint
-- A member record edit moves the member between cells wherever they count (the UPDATE holds the row's lock).
CREATE FUNCTION figures.reports_user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM figures.sync_reports(ARRAY[NEW.id]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cells_user_u AFTER UPDATE OF membership_status, user_type, gender, ethnicity ON users FOR EACH ROW
  WHEN ((OLD.membership_status, OLD.user_type, OLD.gender, OLD.ethnicity) IS DISTINCT FROM (NEW.membership_status, NEW.user_type, NEW.gender, NEW.ethnicity))
  EXECUTE FUNCTION figures.reports_user_changed();
--> statement-breakpoint
-- An accepted transfer marks the membership it brought the member into.
CREATE FUNCTION figures.reports_transfers_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM figures.lock_and_sync_reports(ARRAY(SELECT DISTINCT user_id FROM new_rows WHERE status = 'ACCEPTED'));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM figures.lock_and_sync_reports(ARRAY(SELECT DISTINCT user_id FROM old_rows WHERE status = 'ACCEPTED'));
  ELSE
    PERFORM figures.lock_and_sync_reports(ARRAY(SELECT u FROM old_rows o JOIN new_rows n ON n.id = o.id, LATERAL (VALUES (o.user_id), (n.user_id)) v(u)
      WHERE 'ACCEPTED' IN (o.status, n.status) AND (o.status, o.user_id, o.to_organization_id) IS DISTINCT FROM (n.status, n.user_id, n.to_organization_id)
      GROUP BY u));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cells_transfers_i AFTER INSERT ON transfers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION figures.reports_transfers_changed();
--> statement-breakpoint
CREATE TRIGGER cells_transfers_u AFTER UPDATE ON transfers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION figures.reports_transfers_changed();
--> statement-breakpoint
CREATE TRIGGER cells_transfers_d AFTER DELETE ON transfers REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION figures.reports_transfers_changed();
--> statement-breakpoint
-- A unit's first unit beneath it takes its members out of the cells (the report counts them itself) and its last
-- one's removal puts them back; a new path or parent moves the unit's members and both parents'. A deleted unit's
-- own memberships went before it (0003 organizations_members_first_d); its cells go with it.
CREATE FUNCTION figures.reports_units_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM figures.lock_and_sync_reports(ARRAY(SELECT DISTINCT m.user_id FROM organization_members m
      WHERE m.organization_id IN (SELECT parent_id FROM new_rows)));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM figures.lock_and_sync_reports(ARRAY(SELECT DISTINCT m.user_id FROM organization_members m
      WHERE m.organization_id IN (SELECT parent_id FROM old_rows)));
    DELETE FROM report_member_cells WHERE organization_id IN (SELECT id FROM old_rows);
  ELSE
    PERFORM figures.lock_and_sync_reports(ARRAY(SELECT DISTINCT m.user_id FROM organization_members m
      WHERE m.organization_id IN (SELECT u FROM old_rows o JOIN new_rows n ON n.id = o.id,
        LATERAL (VALUES (n.id, o.path IS DISTINCT FROM n.path OR o.parent_id IS DISTINCT FROM n.parent_id),
          (o.parent_id, o.parent_id IS DISTINCT FROM n.parent_id), (n.parent_id, o.parent_id IS DISTINCT FROM n.parent_id)) v(u, moved)
        WHERE v.moved)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cells_units_i AFTER INSERT ON organizations REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION figures.reports_units_changed();
--> statement-breakpoint
CREATE TRIGGER cells_units_u AFTER UPDATE ON organizations REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION figures.reports_units_changed();
--> statement-breakpoint
CREATE TRIGGER cells_units_d AFTER DELETE ON organizations REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION figures.reports_units_changed();
--> statement-breakpoint
-- Counted from scratch once, so a database that held rows before this migration starts right.
DELETE FROM report_member_cells;
--> statement-breakpoint
DELETE FROM report_live_members;
--> statement-breakpoint
SELECT figures.sync_reports(ARRAY(SELECT DISTINCT user_id FROM organization_members));
