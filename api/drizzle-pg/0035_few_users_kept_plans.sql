-- A membership written by hand (one user, or a few) with the plans its session keeps: the figure functions plan every
-- statement per call (0017: generic plans built on a small database's statistics had scanned whole tables), and that
-- planning was three fifths of such a write. Since 0025 and 0033 each statement reaches its rows by key, and the generic
-- plans, made for a short array of ids, are those keys: a membership insert or delete, committed, on the 100k bench
-- database in psql, 4.4–5.8 ms planned per call, 1.6–2.0 ms with the plans kept (docs/benchmark.md, session 29). Up to 16
-- users a call; a bulk change or an import's final sync (thousands of ids) is still planned for its own size. The mode is
-- set for the call only: each function's SET clause restores it on return. Same statements, same figures.
CREATE OR REPLACE FUNCTION figures.sync_member_figures(ids integer[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan AS $$
DECLARE
  hashjoin text := current_setting('enable_hashjoin');
  mergejoin text := current_setting('enable_mergejoin');
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  IF cardinality(ids) <= 16 THEN
    PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
  END IF;
  -- One work table per session, emptied at commit (created once: not a catalog write per statement).
  IF to_regclass('pg_temp.figures_delta') IS NULL THEN
    CREATE TEMP TABLE figures_delta (user_id integer, membership_id integer, unit integer, org integer, term bigint, type text, sign integer) ON COMMIT DELETE ROWS;
  END IF;
  IF to_regclass('pg_temp.figures_pairs') IS NULL THEN
    CREATE TEMP TABLE figures_pairs (user_id integer, org integer, s integer) ON COMMIT DELETE ROWS;
  END IF;
  DELETE FROM figures_delta;
  INSERT INTO figures_delta SELECT n.user_id, n.membership_id, n.unit, n.org, n.term, n.type, 1 FROM figures.cover_now(ids) n;
  INSERT INTO figures_delta SELECT s.user_id, s.membership_id, s.unit, s.org, s.term, s.type, -1 FROM figures.cover_seen(ids) s;
  DELETE FROM figures_pairs;
  INSERT INTO figures_pairs SELECT user_id, org, (max(sign) + min(sign)) / 2 FROM figures_delta GROUP BY user_id, org HAVING max(sign) + min(sign) <> 0;

  INSERT INTO organization_member_counts (organization_id) SELECT org FROM figures_delta WHERE sign = 1 AND org <> 0 GROUP BY org ON CONFLICT DO NOTHING;
  UPDATE organization_member_counts c SET direct = c.direct + d.n
  FROM (SELECT unit, sum(sign) AS n FROM figures_delta WHERE org = 0 GROUP BY unit HAVING sum(sign) <> 0) d WHERE c.organization_id = d.unit;
  PERFORM set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true);
  UPDATE organization_member_counts c SET subtree = c.subtree + d.n
  FROM (SELECT org, sum(s) AS n FROM figures_pairs WHERE org <> 0 GROUP BY org) d WHERE c.organization_id = d.org;
  PERFORM set_config('enable_hashjoin', hashjoin, true), set_config('enable_mergejoin', mergejoin, true);

  INSERT INTO member_figures (organization_id, term_start)
  SELECT DISTINCT d.org, v.t FROM (SELECT org, term FROM figures_delta WHERE sign = 1 GROUP BY org, term) d, LATERAL (VALUES (0::bigint), (d.term)) v(t)
  ON CONFLICT DO NOTHING;
  UPDATE member_figures f SET members = f.members + d.n, doan = f.doan + d.doan, hoi = f.hoi + d.hoi
  FROM (SELECT y.org, sum(y.s) AS n, sum(y.s * (u.membership_status IN ('doan_vien', 'both'))::int) AS doan, sum(y.s * (u.membership_status IN ('hoi_vien', 'both'))::int) AS hoi
    FROM figures_pairs y JOIN users u ON u.id = y.user_id AND u.id = ANY (ids) GROUP BY y.org) d WHERE f.organization_id = d.org AND f.term_start = 0;
  PERFORM set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true);
  UPDATE member_figures f SET members = f.members + d.n
  FROM (SELECT org, term, sum(s) AS n FROM (SELECT org, term, (max(sign) + min(sign)) / 2 AS s FROM figures_delta GROUP BY user_id, org, term) y
    WHERE s <> 0 GROUP BY org, term) d WHERE f.organization_id = d.org AND f.term_start = d.term;
  PERFORM set_config('enable_hashjoin', hashjoin, true), set_config('enable_mergejoin', mergejoin, true);

  -- Buckets: the unit's type, its family, 'all' (no type is named as a family or 'all').
  INSERT INTO unit_member_figures (organization_id, bucket, user_type, membership_status, n)
  SELECT y.org, y.bucket, u.user_type, u.membership_status, sum(y.s)
  FROM (SELECT user_id, org, type AS bucket, (max(sign) + min(sign)) / 2 AS s FROM figures_delta GROUP BY user_id, org, type
    UNION ALL SELECT user_id, org, figures.family(type), (max(sign) + min(sign)) / 2 FROM figures_delta GROUP BY user_id, org, figures.family(type)
    UNION ALL SELECT user_id, org, 'all', s FROM figures_pairs) y JOIN users u ON u.id = y.user_id AND u.id = ANY (ids)
  WHERE y.s <> 0 GROUP BY 1, 2, 3, 4
  ON CONFLICT (organization_id, bucket, user_type, membership_status) DO UPDATE SET n = unit_member_figures.n + excluded.n;

  INSERT INTO user_facet_counts (organization_id, user_type, membership_status, is_active, n)
  SELECT y.org, u.user_type, u.membership_status, u.is_active::int, sum(y.s)
  FROM figures_pairs y JOIN users u ON u.id = y.user_id AND u.id = ANY (ids) WHERE y.org <> 0 GROUP BY 1, 2, 3, 4
  ON CONFLICT (organization_id, user_type, membership_status, is_active) DO UPDATE SET n = user_facet_counts.n + excluded.n;

  INSERT INTO campaign_figures (campaign_id, organization_id, assigned, paid, test_paid, expected, collected, overdue_count, overdue_amount, pending_count, pending_amount)
  SELECT a.campaign_id, y.org, sum(y.s * f.assigned), sum(y.s * f.paid), sum(y.s * f.test_paid), sum(y.s * f.expected), sum(y.s * f.collected),
    sum(y.s * f.overdue_count), sum(y.s * f.overdue_amount), sum(y.s * f.pending_count), sum(y.s * f.pending_amount)
  FROM figures_pairs y JOIN payment_assignments a ON a.user_id = y.user_id AND a.user_id = ANY (ids), LATERAL figures.fee(a.status, a.amount, a.paid_amount, a.is_test_payment) f
  WHERE y.org <> 0 GROUP BY 1, 2
  ON CONFLICT (campaign_id, organization_id) DO UPDATE SET assigned = campaign_figures.assigned + excluded.assigned, paid = campaign_figures.paid + excluded.paid,
    test_paid = campaign_figures.test_paid + excluded.test_paid, expected = campaign_figures.expected + excluded.expected,
    collected = campaign_figures.collected + excluded.collected, overdue_count = campaign_figures.overdue_count + excluded.overdue_count,
    overdue_amount = campaign_figures.overdue_amount + excluded.overdue_amount, pending_count = campaign_figures.pending_count + excluded.pending_count,
    pending_amount = campaign_figures.pending_amount + excluded.pending_amount;

  DELETE FROM figures.members_seen WHERE user_id = ANY (ids);
  INSERT INTO figures.members_seen SELECT id, user_id, organization_id, joined_term FROM organization_members WHERE user_id = ANY (ids) AND is_active;
  DELETE FROM figures_delta;
  DELETE FROM figures_pairs;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION figures.sync_reports(ids integer[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan AS $$
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  IF cardinality(ids) <= 16 THEN
    PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
  END IF;
  IF to_regclass('pg_temp.figures_cells') IS NULL THEN
    CREATE TEMP TABLE figures_cells (LIKE figures.cells_seen) ON COMMIT DELETE ROWS;
  END IF;
  DELETE FROM figures_cells;
  INSERT INTO figures_cells SELECT * FROM figures.cells_now(ids);
  INSERT INTO report_member_cells (organization_id, membership_status, user_type, gender, ethnicity, joined_day, ended_day, end_reason, transfer_in, n)
  SELECT p.org, d.membership_status, d.user_type, d.gender, d.ethnicity, d.joined_day, d.ended_day, d.end_reason, d.transfer_in, sum(d.sign)
  FROM (SELECT c.path, c.membership_status, c.user_type, c.gender, c.ethnicity, c.joined_day, c.ended_day, c.end_reason, c.transfer_in, 1 AS sign
      FROM figures_cells c
    UNION ALL SELECT s.path, s.membership_status, s.user_type, s.gender, s.ethnicity, s.joined_day, s.ended_day, s.end_reason, s.transfer_in, -1
      FROM figures.cells_seen s WHERE s.user_id = ANY (ids)) d, LATERAL figures.path_ids(d.path) p(org)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9 HAVING sum(d.sign) <> 0
  ON CONFLICT (organization_id, membership_status, user_type, gender, ethnicity, joined_day, ended_day, end_reason, transfer_in)
    DO UPDATE SET n = report_member_cells.n + excluded.n;
  DELETE FROM figures.cells_seen WHERE user_id = ANY (ids);
  INSERT INTO figures.cells_seen SELECT * FROM figures_cells;
  DELETE FROM figures_cells;
  DELETE FROM report_live_members WHERE user_id = ANY (ids);
  INSERT INTO report_live_members (membership_id, organization_id, user_id) SELECT * FROM figures.live_now(ids);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION figures.lock_and_sync_reports(ids integer[]) RETURNS void LANGUAGE plpgsql
SET plan_cache_mode = force_custom_plan AS $$
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  END IF;
  IF cardinality(ids) <= 16 THEN
    PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
  END IF;
  PERFORM 1 FROM users WHERE id = ANY (ids) ORDER BY id FOR NO KEY UPDATE;
  PERFORM figures.sync_reports(ids);
END $$;
