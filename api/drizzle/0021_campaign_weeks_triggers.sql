-- The weekly collection chart's figures (payments/schema.ts campaignWeekFees, campaignWeeks), kept
-- by triggers like campaign_figures (0019). An order counts in the week of its paid_at (Vietnam
-- Monday to Sunday: dashboard/weeks.ts, index = (ms + 284400000) / 604800000) when money arrived
-- on it (received_amount > 0), not through the sandbox and not reversed; its money is what
-- payments/money.ts countedOf counts. campaign_week_fees holds one row per campaign, week and fee
-- (how many such orders, their money); campaign_weeks holds each week's distinct fees and money.
INSERT INTO campaign_week_fees (campaign_id, week, assignment_id, orders, collected) SELECT o.campaign_id, CAST((o.paid_at + 284400000) / 604800000 AS INTEGER), o.assignment_id, count(*), sum(max(0, o.received_amount - CASE WHEN o.attention = 'REFUND_DUE' AND coalesce(o.resolution, '') <> 'ACCEPTED' THEN coalesce(o.attention_amount, 0) ELSE 0 END)) FROM payment_orders o WHERE o.received_amount > 0 AND o.is_test = 0 AND o.paid_at IS NOT NULL AND o.reversed_at IS NULL GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO campaign_weeks (campaign_id, week, payments, collected) SELECT campaign_id, week, count(*), sum(collected) FROM campaign_week_fees GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER `campaign_week_fees_i` AFTER INSERT ON `campaign_week_fees` BEGIN
  INSERT INTO campaign_weeks (campaign_id, week, payments, collected) SELECT NEW.campaign_id, NEW.week, 1, NEW.collected WHERE EXISTS (SELECT 1 FROM payment_campaigns WHERE id = NEW.campaign_id) ON CONFLICT (campaign_id, week) DO UPDATE SET payments = payments + excluded.payments, collected = collected + excluded.collected;
END;
--> statement-breakpoint
CREATE TRIGGER `campaign_week_fees_u` AFTER UPDATE OF collected ON `campaign_week_fees` WHEN NEW.collected <> OLD.collected BEGIN
  INSERT INTO campaign_weeks (campaign_id, week, payments, collected) SELECT NEW.campaign_id, NEW.week, 0, NEW.collected - OLD.collected WHERE EXISTS (SELECT 1 FROM payment_campaigns WHERE id = NEW.campaign_id) ON CONFLICT (campaign_id, week) DO UPDATE SET payments = payments + excluded.payments, collected = collected + excluded.collected;
END;
--> statement-breakpoint
CREATE TRIGGER `campaign_week_fees_d` AFTER DELETE ON `campaign_week_fees` BEGIN
  INSERT INTO campaign_weeks (campaign_id, week, payments, collected) SELECT OLD.campaign_id, OLD.week, -1, -OLD.collected WHERE EXISTS (SELECT 1 FROM payment_campaigns WHERE id = OLD.campaign_id) ON CONFLICT (campaign_id, week) DO UPDATE SET payments = payments + excluded.payments, collected = collected + excluded.collected;
  DELETE FROM campaign_weeks WHERE campaign_id = OLD.campaign_id AND week = OLD.week AND payments = 0;
END;
--> statement-breakpoint
CREATE TRIGGER `campaign_weeks_o_i` AFTER INSERT ON `payment_orders` WHEN NEW.received_amount > 0 AND NEW.is_test = 0 AND NEW.paid_at IS NOT NULL AND NEW.reversed_at IS NULL BEGIN
  INSERT INTO campaign_week_fees (campaign_id, week, assignment_id, orders, collected) SELECT NEW.campaign_id, CAST((NEW.paid_at + 284400000) / 604800000 AS INTEGER), NEW.assignment_id, 1, max(0, NEW.received_amount - CASE WHEN NEW.attention = 'REFUND_DUE' AND coalesce(NEW.resolution, '') <> 'ACCEPTED' THEN coalesce(NEW.attention_amount, 0) ELSE 0 END) WHERE EXISTS (SELECT 1 FROM payment_campaigns WHERE id = NEW.campaign_id) ON CONFLICT (campaign_id, week, assignment_id) DO UPDATE SET orders = orders + excluded.orders, collected = collected + excluded.collected;
END;
--> statement-breakpoint
CREATE TRIGGER `campaign_weeks_o_d` AFTER DELETE ON `payment_orders` WHEN OLD.received_amount > 0 AND OLD.is_test = 0 AND OLD.paid_at IS NOT NULL AND OLD.reversed_at IS NULL BEGIN
  INSERT INTO campaign_week_fees (campaign_id, week, assignment_id, orders, collected) SELECT OLD.campaign_id, CAST((OLD.paid_at + 284400000) / 604800000 AS INTEGER), OLD.assignment_id, -1, -max(0, OLD.received_amount - CASE WHEN OLD.attention = 'REFUND_DUE' AND coalesce(OLD.resolution, '') <> 'ACCEPTED' THEN coalesce(OLD.attention_amount, 0) ELSE 0 END) WHERE EXISTS (SELECT 1 FROM payment_campaigns WHERE id = OLD.campaign_id) ON CONFLICT (campaign_id, week, assignment_id) DO UPDATE SET orders = orders + excluded.orders, collected = collected + excluded.collected;
  DELETE FROM campaign_week_fees WHERE campaign_id = OLD.campaign_id AND week = CAST((OLD.paid_at + 284400000) / 604800000 AS INTEGER) AND assignment_id = OLD.assignment_id AND orders = 0;
END;
--> statement-breakpoint
-- A webhook settling a pending order adds one row; resolving, reversing or moving an order takes its old contribution out first.
CREATE TRIGGER `campaign_weeks_o_u` AFTER UPDATE OF received_amount, attention, attention_amount, resolution, paid_at, is_test, reversed_at, campaign_id, assignment_id ON `payment_orders` WHEN (OLD.received_amount > 0 AND OLD.is_test = 0 AND OLD.paid_at IS NOT NULL AND OLD.reversed_at IS NULL) OR (NEW.received_amount > 0 AND NEW.is_test = 0 AND NEW.paid_at IS NOT NULL AND NEW.reversed_at IS NULL) BEGIN
  INSERT INTO campaign_week_fees (campaign_id, week, assignment_id, orders, collected) SELECT OLD.campaign_id, CAST((OLD.paid_at + 284400000) / 604800000 AS INTEGER), OLD.assignment_id, -1, -max(0, OLD.received_amount - CASE WHEN OLD.attention = 'REFUND_DUE' AND coalesce(OLD.resolution, '') <> 'ACCEPTED' THEN coalesce(OLD.attention_amount, 0) ELSE 0 END) WHERE OLD.received_amount > 0 AND OLD.is_test = 0 AND OLD.paid_at IS NOT NULL AND OLD.reversed_at IS NULL AND EXISTS (SELECT 1 FROM payment_campaigns WHERE id = OLD.campaign_id) ON CONFLICT (campaign_id, week, assignment_id) DO UPDATE SET orders = orders + excluded.orders, collected = collected + excluded.collected;
  DELETE FROM campaign_week_fees WHERE campaign_id = OLD.campaign_id AND week = CAST((OLD.paid_at + 284400000) / 604800000 AS INTEGER) AND assignment_id = OLD.assignment_id AND orders = 0;
  INSERT INTO campaign_week_fees (campaign_id, week, assignment_id, orders, collected) SELECT NEW.campaign_id, CAST((NEW.paid_at + 284400000) / 604800000 AS INTEGER), NEW.assignment_id, 1, max(0, NEW.received_amount - CASE WHEN NEW.attention = 'REFUND_DUE' AND coalesce(NEW.resolution, '') <> 'ACCEPTED' THEN coalesce(NEW.attention_amount, 0) ELSE 0 END) WHERE NEW.received_amount > 0 AND NEW.is_test = 0 AND NEW.paid_at IS NOT NULL AND NEW.reversed_at IS NULL AND EXISTS (SELECT 1 FROM payment_campaigns WHERE id = NEW.campaign_id) ON CONFLICT (campaign_id, week, assignment_id) DO UPDATE SET orders = orders + excluded.orders, collected = collected + excluded.collected;
END;
--> statement-breakpoint
-- A deleted campaign leaves no weeks behind (its orders go by cascade, after it: the EXISTS guards above).
CREATE TRIGGER `campaign_weeks_c_d` AFTER DELETE ON `payment_campaigns` BEGIN
  DELETE FROM campaign_week_fees WHERE campaign_id = OLD.id;
  DELETE FROM campaign_weeks WHERE campaign_id = OLD.id;
END;
