-- The member figures of SQLite's triggers (drizzle/0006, 0016, 0023, 0025, 0033, 0044) on PostgreSQL, same rules:
-- organization_member_counts (direct, and subtree: each user once per unit at or above an active membership),
-- member_figures (term 0: all time with the Đoàn/Hội split; per term joined), unit_member_figures (per bucket:
-- the unit's type, its family, 'all'), user_facet_counts (organization 0: every user), and the campaign figures
-- a membership moves. SQLite runs them per row, each row seeing the rows before it; PostgreSQL's row triggers
-- see the whole statement, so a statement ending several memberships of one user would count twice. Here the
-- figures a user's memberships give are recomputed for the users a statement touched and the difference from
-- what was last counted (figures.members_seen) applied once: exact for any statement, set-wise for an import.
-- The search queue (users_fts_pending) is PG-SEARCH's and not fed here.
CREATE SCHEMA figures;
--> statement-breakpoint
-- The active memberships the figures last counted.
CREATE TABLE figures.members_seen (
  membership_id integer PRIMARY KEY,
  user_id integer NOT NULL,
  organization_id integer NOT NULL,
  joined_term bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX members_seen_user_idx ON figures.members_seen (user_id);
--> statement-breakpoint
-- The units of a materialised path, root first ('/1/5/9/': 1, 5, 9; '/': none).
CREATE FUNCTION figures.path_ids(path text) RETURNS SETOF integer LANGUAGE sql IMMUTABLE AS $$
  SELECT unnest(string_to_array(btrim(path, '/'), '/'))::integer $$;
--> statement-breakpoint
CREATE FUNCTION figures.family(type text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN type IN ('doan_truong', 'doan_co_so', 'chi_doan') THEN 'doan'
    WHEN type IN ('hoi_sinh_vien_truong', 'lien_chi_hoi', 'chi_hoi') THEN 'hoi' ELSE 'clb' END $$;
--> statement-breakpoint
-- A fee's share of campaign_figures (drizzle/0019, 0037): what counts as collected never passes the amount.
CREATE FUNCTION figures.fee(status text, amount bigint, paid_amount bigint, test boolean,
  OUT assigned integer, OUT paid integer, OUT test_paid integer, OUT expected bigint, OUT collected bigint,
  OUT overdue_count integer, OUT overdue_amount bigint, OUT pending_count integer, OUT pending_amount bigint)
LANGUAGE sql IMMUTABLE AS $$
  SELECT 1, (status = 'PAID' AND NOT test)::int, (status = 'PAID' AND test)::int, amount, c, (status = 'OVERDUE')::int,
    CASE WHEN status = 'OVERDUE' THEN amount - c ELSE 0 END, (status = 'PENDING')::int, CASE WHEN status = 'PENDING' THEN amount - c ELSE 0 END
  FROM (SELECT CASE WHEN test THEN 0 ELSE least(coalesce(paid_amount, 0), amount) END AS c) x $$;
--> statement-breakpoint
-- What these users' active memberships cover: each membership once per unit at or above it and once for 0 (everything).
CREATE FUNCTION figures.cover_now(ids integer[]) RETURNS TABLE (membership_id integer, user_id integer, unit integer, org integer, term bigint, type text)
LANGUAGE sql STABLE AS $$
  SELECT m.id, m.user_id, m.organization_id, a.org, m.joined_term, o.type FROM organization_members m JOIN organizations o ON o.id = m.organization_id,
    LATERAL (SELECT 0 AS org UNION ALL SELECT figures.path_ids(o.path)) a
  WHERE m.user_id = ANY (ids) AND m.is_active $$;
--> statement-breakpoint
CREATE FUNCTION figures.cover_seen(ids integer[]) RETURNS TABLE (membership_id integer, user_id integer, unit integer, org integer, term bigint, type text)
LANGUAGE sql STABLE AS $$
  SELECT s.membership_id, s.user_id, s.organization_id, a.org, s.joined_term, o.type FROM figures.members_seen s JOIN organizations o ON o.id = s.organization_id,
    LATERAL (SELECT 0 AS org UNION ALL SELECT figures.path_ids(o.path)) a
  WHERE s.user_id = ANY (ids) $$;
--> statement-breakpoint
-- Brings every member figure of these users from what was last counted to their memberships now. Idempotent.
-- A users import that paused the triggers (trigger_pauses 'new_members') calls it for its users before lifting the pause.
CREATE FUNCTION figures.sync_members(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  -- One work table per session, emptied at commit (created once: not a catalog write per statement).
  IF to_regclass('pg_temp.figures_delta') IS NULL THEN
    CREATE TEMP TABLE figures_delta (user_id integer, membership_id integer, unit integer, org integer, term bigint, type text, sign integer) ON COMMIT DELETE ROWS;
  END IF;
  DELETE FROM figures_delta;
  INSERT INTO figures_delta SELECT n.user_id, n.membership_id, n.unit, n.org, n.term, n.type, 1 FROM figures.cover_now(ids) n;
  INSERT INTO figures_delta SELECT s.user_id, s.membership_id, s.unit, s.org, s.term, s.type, -1 FROM figures.cover_seen(ids) s;

  INSERT INTO organization_member_counts (organization_id) SELECT DISTINCT org FROM figures_delta WHERE sign = 1 AND org <> 0 ON CONFLICT DO NOTHING;
  UPDATE organization_member_counts c SET direct = c.direct + d.n
  FROM (SELECT unit, sum(sign) AS n FROM figures_delta WHERE org = 0 GROUP BY unit HAVING sum(sign) <> 0) d WHERE c.organization_id = d.unit;
  -- Distinct (user, unit) pairs present now minus those counted before: each user once per unit.
  UPDATE organization_member_counts c SET subtree = c.subtree + d.n
  FROM (SELECT org, sum(s) AS n FROM (SELECT user_id, org, sum(DISTINCT sign) AS s FROM (SELECT DISTINCT user_id, org, sign FROM figures_delta WHERE org <> 0) x GROUP BY user_id, org) y
    WHERE s <> 0 GROUP BY org) d WHERE c.organization_id = d.org;

  INSERT INTO member_figures (organization_id, term_start) SELECT DISTINCT org, t FROM figures_delta, LATERAL (VALUES (0::bigint), (term)) v(t) WHERE sign = 1 ON CONFLICT DO NOTHING;
  UPDATE member_figures f SET members = f.members + d.n, doan = f.doan + d.doan, hoi = f.hoi + d.hoi
  FROM (SELECT y.org, sum(y.s) AS n, sum(y.s * (u.membership_status IN ('doan_vien', 'both'))::int) AS doan, sum(y.s * (u.membership_status IN ('hoi_vien', 'both'))::int) AS hoi
    FROM (SELECT user_id, org, sum(DISTINCT sign) AS s FROM (SELECT DISTINCT user_id, org, sign FROM figures_delta) x GROUP BY user_id, org) y JOIN users u ON u.id = y.user_id
    WHERE y.s <> 0 GROUP BY y.org) d WHERE f.organization_id = d.org AND f.term_start = 0;
  UPDATE member_figures f SET members = f.members + d.n
  FROM (SELECT org, term, sum(s) AS n FROM (SELECT user_id, org, term, sum(DISTINCT sign) AS s FROM (SELECT DISTINCT user_id, org, term, sign FROM figures_delta) x GROUP BY user_id, org, term) y
    WHERE s <> 0 GROUP BY org, term) d WHERE f.organization_id = d.org AND f.term_start = d.term;

  INSERT INTO unit_member_figures (organization_id, bucket, user_type, membership_status, n)
  SELECT y.org, y.bucket, u.user_type, u.membership_status, sum(y.s)
  FROM (SELECT user_id, org, bucket, sum(DISTINCT sign) AS s FROM (SELECT DISTINCT user_id, org, b.bucket, sign FROM figures_delta,
      LATERAL (VALUES (type), (figures.family(type)), ('all')) b(bucket)) x GROUP BY user_id, org, bucket) y JOIN users u ON u.id = y.user_id
  WHERE y.s <> 0 GROUP BY 1, 2, 3, 4
  ON CONFLICT (organization_id, bucket, user_type, membership_status) DO UPDATE SET n = unit_member_figures.n + excluded.n;

  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n)
  SELECT y.org, u.user_type, u.membership_status, u.is_active::int, sum(y.s)
  FROM (SELECT user_id, org, sum(DISTINCT sign) AS s FROM (SELECT DISTINCT user_id, org, sign FROM figures_delta WHERE org <> 0) x GROUP BY user_id, org) y JOIN users u ON u.id = y.user_id
  WHERE y.s <> 0 GROUP BY 1, 2, 3, 4
  ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = user_facet_counts.n + excluded.n;

  INSERT INTO campaign_figures (campaign_id, organization_id, assigned, paid, test_paid, expected, collected, overdue_count, overdue_amount, pending_count, pending_amount)
  SELECT a.campaign_id, y.org, sum(y.s * f.assigned), sum(y.s * f.paid), sum(y.s * f.test_paid), sum(y.s * f.expected), sum(y.s * f.collected),
    sum(y.s * f.overdue_count), sum(y.s * f.overdue_amount), sum(y.s * f.pending_count), sum(y.s * f.pending_amount)
  FROM (SELECT user_id, org, sum(DISTINCT sign) AS s FROM (SELECT DISTINCT user_id, org, sign FROM figures_delta WHERE org <> 0) x GROUP BY user_id, org) y
    JOIN payment_assignments a ON a.user_id = y.user_id, LATERAL figures.fee(a.status, a.amount, a.paid_amount, a.is_test_payment) f
  WHERE y.s <> 0 GROUP BY 1, 2
  ON CONFLICT (campaign_id, organization_id) DO UPDATE SET assigned = campaign_figures.assigned + excluded.assigned, paid = campaign_figures.paid + excluded.paid,
    test_paid = campaign_figures.test_paid + excluded.test_paid, expected = campaign_figures.expected + excluded.expected,
    collected = campaign_figures.collected + excluded.collected, overdue_count = campaign_figures.overdue_count + excluded.overdue_count,
    overdue_amount = campaign_figures.overdue_amount + excluded.overdue_amount, pending_count = campaign_figures.pending_count + excluded.pending_count,
    pending_amount = campaign_figures.pending_amount + excluded.pending_amount;

  DELETE FROM figures.members_seen WHERE user_id = ANY (ids);
  INSERT INTO figures.members_seen SELECT id, user_id, organization_id, joined_term FROM organization_members WHERE user_id = ANY (ids) AND is_active;
  DELETE FROM figures_delta;
END $$;
--> statement-breakpoint
CREATE FUNCTION figures.members_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    -- A paused insert is counted by the import's own call of figures.sync_members.
    IF EXISTS (SELECT 1 FROM trigger_pauses WHERE name = 'new_members') THEN RETURN NULL; END IF;
    PERFORM figures.sync_members(ARRAY(SELECT DISTINCT user_id FROM new_rows WHERE is_active));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM figures.sync_members(ARRAY(SELECT DISTINCT user_id FROM old_rows WHERE is_active));
  ELSE
    PERFORM figures.sync_members(ARRAY(SELECT o.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.is_active, o.organization_id, o.user_id, o.joined_at) IS DISTINCT FROM (n.is_active, n.organization_id, n.user_id, n.joined_at)
      UNION SELECT n.user_id FROM old_rows o JOIN new_rows n ON n.id = o.id
      WHERE (o.is_active, o.organization_id, o.user_id, o.joined_at) IS DISTINCT FROM (n.is_active, n.organization_id, n.user_id, n.joined_at)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER member_figures_i AFTER INSERT ON organization_members REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION figures.members_changed();
--> statement-breakpoint
CREATE TRIGGER member_figures_u AFTER UPDATE ON organization_members REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION figures.members_changed();
--> statement-breakpoint
CREATE TRIGGER member_figures_d AFTER DELETE ON organization_members REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION figures.members_changed();
--> statement-breakpoint
-- A user's or a unit's memberships go before the row, so the figures still read who and where they were (SQLite's *_members_first_d).
CREATE FUNCTION figures.members_first() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    DELETE FROM organization_members WHERE user_id = OLD.id;
  ELSE
    DELETE FROM organization_members WHERE organization_id = OLD.id;
  END IF;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_members_first_d BEFORE DELETE ON users FOR EACH ROW EXECUTE FUNCTION figures.members_first();
--> statement-breakpoint
CREATE TRIGGER organizations_members_first_d BEFORE DELETE ON organizations FOR EACH ROW EXECUTE FUNCTION figures.members_first();
--> statement-breakpoint
-- A user's own attributes move their figures in every unit they are counted in (user_facets_u_*, member_figures_status, unit_figures_user_u).
CREATE FUNCTION figures.user_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND (TG_OP = 'DELETE' OR (OLD.user_type, OLD.membership_status, OLD.is_active) IS DISTINCT FROM (NEW.user_type, NEW.membership_status, NEW.is_active)) THEN
    INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n)
    SELECT x.org, OLD.user_type, OLD.membership_status, OLD.is_active::int, -1
    FROM (SELECT 0 AS org UNION SELECT figures.path_ids(o.path) FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = OLD.id AND m.is_active AND TG_OP = 'UPDATE') x
    ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = user_facet_counts.n + excluded.n;
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (OLD.user_type, OLD.membership_status, OLD.is_active) IS DISTINCT FROM (NEW.user_type, NEW.membership_status, NEW.is_active)) THEN
    INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n)
    SELECT x.org, NEW.user_type, NEW.membership_status, NEW.is_active::int, 1
    FROM (SELECT 0 AS org UNION SELECT figures.path_ids(o.path) FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = NEW.id AND m.is_active AND TG_OP = 'UPDATE') x
    ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = user_facet_counts.n + excluded.n;
  END IF;
  IF TG_OP <> 'UPDATE' THEN RETURN NULL; END IF;
  IF (OLD.membership_status IN ('doan_vien', 'both')) <> (NEW.membership_status IN ('doan_vien', 'both'))
     OR (OLD.membership_status IN ('hoi_vien', 'both')) <> (NEW.membership_status IN ('hoi_vien', 'both')) THEN
    UPDATE member_figures SET doan = doan + (NEW.membership_status IN ('doan_vien', 'both'))::int - (OLD.membership_status IN ('doan_vien', 'both'))::int,
      hoi = hoi + (NEW.membership_status IN ('hoi_vien', 'both'))::int - (OLD.membership_status IN ('hoi_vien', 'both'))::int
    WHERE term_start = 0 AND organization_id IN (SELECT 0 FROM organization_members WHERE user_id = NEW.id AND is_active
      UNION SELECT figures.path_ids(o.path) FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = NEW.id AND m.is_active);
  END IF;
  IF OLD.user_type <> NEW.user_type OR OLD.membership_status <> NEW.membership_status THEN
    INSERT INTO unit_member_figures (organization_id, bucket, user_type, membership_status, n)
    SELECT c.org, c.bucket, v.user_type, v.membership_status, v.n
    FROM (SELECT DISTINCT a.org, b.bucket FROM organization_members m JOIN organizations o ON o.id = m.organization_id,
        LATERAL (SELECT 0 AS org UNION ALL SELECT figures.path_ids(o.path)) a, LATERAL (VALUES (o.type), (figures.family(o.type)), ('all')) b(bucket)
      WHERE m.user_id = NEW.id AND m.is_active) c,
      (VALUES (OLD.user_type, OLD.membership_status, -1), (NEW.user_type, NEW.membership_status, 1)) v(user_type, membership_status, n)
    ON CONFLICT (organization_id, bucket, user_type, membership_status) DO UPDATE SET n = unit_member_figures.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_figures_i AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION figures.user_changed();
--> statement-breakpoint
CREATE TRIGGER user_figures_u AFTER UPDATE OF user_type, membership_status, is_active ON users FOR EACH ROW EXECUTE FUNCTION figures.user_changed();
--> statement-breakpoint
CREATE TRIGGER user_figures_d AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION figures.user_changed();
--> statement-breakpoint
-- A unit's figures go with it; a unit changing type moves its members between buckets above it (unit_figures_o_type).
CREATE FUNCTION figures.unit_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM campaign_figures WHERE organization_id = OLD.id;
    DELETE FROM member_figures WHERE organization_id = OLD.id;
    DELETE FROM unit_member_figures WHERE organization_id = OLD.id;
    DELETE FROM user_facet_counts WHERE organization_id = OLD.id;
    RETURN NULL;
  END IF;
  DELETE FROM unit_member_figures WHERE organization_id IN (SELECT 0 UNION ALL SELECT figures.path_ids(NEW.path))
    AND bucket IN (OLD.type, NEW.type, figures.family(OLD.type), figures.family(NEW.type));
  INSERT INTO unit_member_figures (organization_id, bucket, user_type, membership_status, n)
  SELECT x.org, x.bucket, u.user_type, u.membership_status, count(*)
  FROM (SELECT DISTINCT a.org, b.bucket, m.user_id FROM organization_members m JOIN organizations o ON o.id = m.organization_id,
      LATERAL (SELECT 0 AS org UNION ALL SELECT figures.path_ids(o.path)) a, LATERAL (VALUES (o.type), (figures.family(o.type)), ('all')) b(bucket)
    WHERE m.is_active AND a.org IN (SELECT 0 UNION ALL SELECT figures.path_ids(NEW.path))
      AND b.bucket IN (OLD.type, NEW.type, figures.family(OLD.type), figures.family(NEW.type))) x JOIN users u ON u.id = x.user_id
  GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER unit_figures_d AFTER DELETE ON organizations FOR EACH ROW EXECUTE FUNCTION figures.unit_changed();
--> statement-breakpoint
CREATE TRIGGER unit_figures_type AFTER UPDATE OF type ON organizations FOR EACH ROW WHEN (OLD.type <> NEW.type) EXECUTE FUNCTION figures.unit_changed();
