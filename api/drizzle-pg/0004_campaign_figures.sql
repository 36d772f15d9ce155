-- Campaign figures and weeks (SQLite's drizzle/0019, 0021, 0037) on PostgreSQL, same rules, row by row: each
-- fee or order moves only its own share, so PostgreSQL's row triggers (run after the whole statement) agree
-- with SQLite's. A fee counts in organization 0 and once in every unit at or above its member's active
-- memberships; what a membership change moves is figures.sync_members (the member figures migration).
CREATE FUNCTION figures.fee_add(campaign integer, member integer, sign integer, status text, amount bigint, paid_amount bigint, test boolean)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO campaign_figures (campaign_id, organization_id, assigned, paid, test_paid, expected, collected, overdue_count, overdue_amount, pending_count, pending_amount)
  SELECT campaign, x.org, sign * f.assigned, sign * f.paid, sign * f.test_paid, sign * f.expected, sign * f.collected,
    sign * f.overdue_count, sign * f.overdue_amount, sign * f.pending_count, sign * f.pending_amount
  FROM (SELECT 0 AS org UNION SELECT figures.path_ids(o.path) FROM organization_members m JOIN organizations o ON o.id = m.organization_id
      WHERE m.user_id = member AND m.is_active) x, figures.fee(status, amount, paid_amount, test) f
  WHERE EXISTS (SELECT 1 FROM payment_campaigns WHERE id = campaign)
  ON CONFLICT (campaign_id, organization_id) DO UPDATE SET assigned = campaign_figures.assigned + excluded.assigned, paid = campaign_figures.paid + excluded.paid,
    test_paid = campaign_figures.test_paid + excluded.test_paid, expected = campaign_figures.expected + excluded.expected,
    collected = campaign_figures.collected + excluded.collected, overdue_count = campaign_figures.overdue_count + excluded.overdue_count,
    overdue_amount = campaign_figures.overdue_amount + excluded.overdue_amount, pending_count = campaign_figures.pending_count + excluded.pending_count,
    pending_amount = campaign_figures.pending_amount + excluded.pending_amount $$;
--> statement-breakpoint
CREATE FUNCTION figures.fee_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM figures.fee_add(OLD.campaign_id, OLD.user_id, -1, OLD.status, OLD.amount, OLD.paid_amount, OLD.is_test_payment);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM figures.fee_add(NEW.campaign_id, NEW.user_id, 1, NEW.status, NEW.amount, NEW.paid_amount, NEW.is_test_payment);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER campaign_figures_a_i AFTER INSERT ON payment_assignments FOR EACH ROW EXECUTE FUNCTION figures.fee_changed();
--> statement-breakpoint
CREATE TRIGGER campaign_figures_a_u AFTER UPDATE OF campaign_id, user_id, status, amount, paid_amount, is_test_payment ON payment_assignments
FOR EACH ROW EXECUTE FUNCTION figures.fee_changed();
--> statement-breakpoint
CREATE TRIGGER campaign_figures_a_d AFTER DELETE ON payment_assignments FOR EACH ROW EXECUTE FUNCTION figures.fee_changed();
--> statement-breakpoint
-- Money an order brought in, counted in its payment's week (weeks start Monday 00:00 Vietnam time).
CREATE FUNCTION figures.order_week_add(campaign integer, paid_at bigint, assignment integer, sign integer, received bigint, attention text, attention_amount bigint, resolution text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE wk integer := ((paid_at + 284400000) / 604800000)::integer;
BEGIN
  INSERT INTO campaign_week_fees (campaign_id, week, assignment_id, orders, collected)
  SELECT campaign, wk, assignment, sign, sign * greatest(0, received - CASE WHEN attention = 'REFUND_DUE' AND coalesce(resolution, '') <> 'ACCEPTED' THEN coalesce(attention_amount, 0) ELSE 0 END)
  WHERE EXISTS (SELECT 1 FROM payment_campaigns WHERE id = campaign)
  ON CONFLICT (campaign_id, week, assignment_id) DO UPDATE SET orders = campaign_week_fees.orders + excluded.orders, collected = campaign_week_fees.collected + excluded.collected;
  IF sign < 0 THEN
    DELETE FROM campaign_week_fees WHERE campaign_id = campaign AND week = wk AND assignment_id = assignment AND orders = 0;
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION figures.order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.received_amount > 0 AND NOT OLD.is_test AND OLD.paid_at IS NOT NULL AND OLD.reversed_at IS NULL THEN
    PERFORM figures.order_week_add(OLD.campaign_id, OLD.paid_at, OLD.assignment_id, -1, OLD.received_amount, OLD.attention, OLD.attention_amount, OLD.resolution);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.received_amount > 0 AND NOT NEW.is_test AND NEW.paid_at IS NOT NULL AND NEW.reversed_at IS NULL THEN
    PERFORM figures.order_week_add(NEW.campaign_id, NEW.paid_at, NEW.assignment_id, 1, NEW.received_amount, NEW.attention, NEW.attention_amount, NEW.resolution);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER campaign_weeks_o_i AFTER INSERT ON payment_orders FOR EACH ROW EXECUTE FUNCTION figures.order_changed();
--> statement-breakpoint
CREATE TRIGGER campaign_weeks_o_u AFTER UPDATE OF received_amount, attention, attention_amount, resolution, paid_at, is_test, reversed_at, campaign_id, assignment_id
ON payment_orders FOR EACH ROW EXECUTE FUNCTION figures.order_changed();
--> statement-breakpoint
CREATE TRIGGER campaign_weeks_o_d AFTER DELETE ON payment_orders FOR EACH ROW EXECUTE FUNCTION figures.order_changed();
--> statement-breakpoint
-- A week's payments: the fees paid in it (one per fee however many orders), and what they brought in.
CREATE FUNCTION figures.week_fee_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO campaign_weeks (campaign_id, week, payments, collected) SELECT NEW.campaign_id, NEW.week, 1, NEW.collected
    WHERE EXISTS (SELECT 1 FROM payment_campaigns WHERE id = NEW.campaign_id)
    ON CONFLICT (campaign_id, week) DO UPDATE SET payments = campaign_weeks.payments + excluded.payments, collected = campaign_weeks.collected + excluded.collected;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO campaign_weeks (campaign_id, week, payments, collected) SELECT NEW.campaign_id, NEW.week, 0, NEW.collected - OLD.collected
    WHERE EXISTS (SELECT 1 FROM payment_campaigns WHERE id = NEW.campaign_id)
    ON CONFLICT (campaign_id, week) DO UPDATE SET payments = campaign_weeks.payments + excluded.payments, collected = campaign_weeks.collected + excluded.collected;
  ELSE
    INSERT INTO campaign_weeks (campaign_id, week, payments, collected) SELECT OLD.campaign_id, OLD.week, -1, -OLD.collected
    WHERE EXISTS (SELECT 1 FROM payment_campaigns WHERE id = OLD.campaign_id)
    ON CONFLICT (campaign_id, week) DO UPDATE SET payments = campaign_weeks.payments + excluded.payments, collected = campaign_weeks.collected + excluded.collected;
    DELETE FROM campaign_weeks WHERE campaign_id = OLD.campaign_id AND week = OLD.week AND payments = 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER campaign_week_fees_i AFTER INSERT ON campaign_week_fees FOR EACH ROW EXECUTE FUNCTION figures.week_fee_changed();
--> statement-breakpoint
CREATE TRIGGER campaign_week_fees_u AFTER UPDATE OF collected ON campaign_week_fees FOR EACH ROW WHEN (NEW.collected <> OLD.collected) EXECUTE FUNCTION figures.week_fee_changed();
--> statement-breakpoint
CREATE TRIGGER campaign_week_fees_d AFTER DELETE ON campaign_week_fees FOR EACH ROW EXECUTE FUNCTION figures.week_fee_changed();
--> statement-breakpoint
CREATE FUNCTION figures.campaign_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM campaign_figures WHERE campaign_id = OLD.id;
  DELETE FROM campaign_week_fees WHERE campaign_id = OLD.id;
  DELETE FROM campaign_weeks WHERE campaign_id = OLD.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER campaign_figures_c_d AFTER DELETE ON payment_campaigns FOR EACH ROW EXECUTE FUNCTION figures.campaign_gone();
