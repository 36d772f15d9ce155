/**
 * The trigger-kept weekly collection (migration 0021) against a fresh grouped count of the orders
 * after random writes of every kind that moves it: orders inserted, paid in some week, flagged and
 * resolved, reversed, moved to another week, fee or campaign, deleted, with their fee or their
 * campaign. A drift would show wrong money on the dashboard's weekly chart for good.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orgWorld } from '../organizations/fixture';
import { campaignWeeks, feeLevels, paymentCampaigns } from '../db/tables/payments';
import { WEEK_MS, WEEK_SHIFT_MS } from './weeks';
import { seededRandom } from '../lib/seeded-random';
import { allRows, firstRow, runQuery } from '../db/engine';
import { TEST_ENGINE } from '../test/harness';

const DAY = 86_400_000;

// SQLite's triggers, written through its own connection; PostgreSQL's are held to them by db/pg/triggers.test.ts.
describe.skipIf(TEST_ENGINE === 'pg')('campaign_weeks stay equal to a fresh count of the orders', () => {
  it('after 400 random writes to orders, fees and campaigns', async () => {
    const { t, org } = await orgWorld([]);
    const c = t.db.$client;
    const userIds: number[] = [];
    for (let i = 0; i < 6; i++) userIds.push((await t.createUser(`CW${i}`)).id);
    const newCampaign = async (i: number) => {
      const id = (
        await firstRow(
          t.db
            .insert(paymentCampaigns)
            .values({ organizationId: org.doan, name: `Đợt ${i}`, startDate: new Date(), endDate: new Date(Date.now() + 86_400_000) })
            .returning(),
        )
      ).id;
      const level = (await firstRow(t.db.insert(feeLevels).values({ campaignId: id, levelName: 'Mức 1', amount: 50_000 }).returning())).id;
      for (const userId of userIds)
        c.prepare(
          "INSERT INTO payment_assignments (campaign_id, user_id, fee_level_id, amount, status, created_at, updated_at) VALUES (?, ?, ?, 50000, 'PENDING', ?, ?)",
        ).run(id, userId, level, Date.now(), Date.now());
      return id;
    };
    let campaigns = [await newCampaign(1), await newCampaign(2)];
    const random = seededRandom(Number(process.env.WEEKS_SEED ?? 20261126));
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    // Instants around Vietnam's Sunday/Monday midnight over four weeks, where a week's edge is easy to get wrong.
    const monday = Math.floor((Date.now() + WEEK_SHIFT_MS) / WEEK_MS) * WEEK_MS - WEEK_SHIFT_MS;
    const paidAt = () => pick([null, monday - 1, monday, monday + 3 * DAY, monday - 8 * DAY, monday - 14 * DAY + 1, monday - 21 * DAY]);
    let code = 1;

    const expected = () =>
      c
        .prepare(
          `SELECT campaign_id AS campaignId, (paid_at + ${WEEK_SHIFT_MS}) / ${WEEK_MS} AS week, count(DISTINCT assignment_id) AS payments,
             sum(max(0, received_amount - CASE WHEN attention = 'REFUND_DUE' AND coalesce(resolution, '') <> 'ACCEPTED' THEN coalesce(attention_amount, 0) ELSE 0 END)) AS collected
           FROM payment_orders WHERE received_amount > 0 AND is_test = 0 AND paid_at IS NOT NULL AND reversed_at IS NULL
           GROUP BY 1, 2 ORDER BY 1, 2`,
        )
        .all();
    const kept = async () => await allRows(t.db.select().from(campaignWeeks).orderBy(campaignWeeks.campaignId, campaignWeeks.week));

    let checks = 0;
    let busyChecks = 0;
    for (let step = 0; step < 400; step++) {
      const r = random();
      const campaignId = await pick(campaigns);
      const fees = c.prepare('SELECT id FROM payment_assignments WHERE campaign_id = ? ORDER BY id').pluck().all(campaignId) as number[];
      const fee = pick([0, ...fees]);
      const anyOrder = pick([0, ...(c.prepare('SELECT id FROM payment_orders ORDER BY id').pluck().all() as number[])]);
      if (r < 0.35 && fee) {
        const userId = c.prepare('SELECT user_id FROM payment_assignments WHERE id = ?').pluck().get(fee);
        c.prepare(
          `INSERT INTO payment_orders (order_code, assignment_id, campaign_id, user_id, amount, description, status, paid_at, received_amount, is_test, attention, attention_amount, resolution, created_at, updated_at)
           VALUES (?, ?, ?, ?, 50000, 'DP', ?, ?, ?, ?, ?, ?, ?, 0, 0)`,
        ).run(
          code++,
          fee,
          campaignId,
          userId,
          'PAID',
          paidAt(),
          pick([0, 30_000, 50_000, 70_000]),
          random() < 0.15 ? 1 : 0,
          pick([null, null, 'REFUND_DUE', 'BALANCE_DUE']),
          pick([null, 20_000, 50_000]),
          pick([null, null, 'ACCEPTED', 'REFUNDED']),
        );
      } else if (r < 0.5) {
        // A webhook's money arriving, or a treasurer resolving a flag.
        c.prepare('UPDATE payment_orders SET received_amount = ?, paid_at = coalesce(paid_at, ?), status = ? WHERE id = ?').run(
          pick([0, 50_000, 80_000]),
          paidAt(),
          'PAID',
          anyOrder,
        );
      } else if (r < 0.6) {
        c.prepare('UPDATE payment_orders SET attention = ?, attention_amount = ?, resolution = ? WHERE id = ?').run(
          pick([null, 'REFUND_DUE']),
          pick([null, 10_000, 30_000]),
          pick([null, 'ACCEPTED', 'REFUNDED']),
          anyOrder,
        );
      } else if (r < 0.68) {
        c.prepare('UPDATE payment_orders SET reversed_at = ? WHERE id = ?').run(pick([null, Date.now()]), anyOrder);
      } else if (r < 0.76) {
        c.prepare('UPDATE payment_orders SET paid_at = ?, is_test = ? WHERE id = ?').run(paidAt(), random() < 0.2 ? 1 : 0, anyOrder);
      } else if (r < 0.82 && fee) {
        // Moved to another fee, perhaps of another campaign.
        c.prepare('UPDATE OR IGNORE payment_orders SET assignment_id = ?, campaign_id = ? WHERE id = ?').run(fee, campaignId, anyOrder);
      } else if (r < 0.9) {
        c.prepare('DELETE FROM payment_orders WHERE id = ?').run(anyOrder);
      } else if (fee) {
        // A fee deleted with its orders, and assigned again.
        const a = c.prepare('SELECT user_id, fee_level_id FROM payment_assignments WHERE id = ?').get(fee) as {
          user_id: number;
          fee_level_id: number;
        };
        c.prepare('DELETE FROM payment_assignments WHERE id = ?').run(fee);
        c.prepare(
          "INSERT INTO payment_assignments (campaign_id, user_id, fee_level_id, amount, status, created_at, updated_at) VALUES (?, ?, ?, 50000, 'PENDING', 0, 0)",
        ).run(campaignId, a.user_id, a.fee_level_id);
      }
      if (step === 200) {
        await runQuery(t.db.delete(paymentCampaigns).where(eq(paymentCampaigns.id, campaigns[0]!)));
        campaigns = [...campaigns.slice(1), await newCampaign(3)];
      }
      if (step % 20 === 19) {
        const now = expected() as { payments: number }[];
        expect(await kept(), `after step ${step}`).toEqual(now);
        checks++;
        if (now.length >= 4 && now.some((w) => w.payments > 1)) busyChecks++;
      }
    }
    expect(checks).toBe(20);
    // The checks compared real weeks: several of them, with more than one fee paid in one week.
    expect(busyChecks).toBeGreaterThan(10);
    expect(
      c
        .prepare('SELECT count(*) FROM campaign_week_fees WHERE campaign_id NOT IN (SELECT id FROM payment_campaigns) OR orders <= 0')
        .pluck()
        .get(),
    ).toBe(0);
  });
});
