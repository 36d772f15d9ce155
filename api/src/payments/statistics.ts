/** Collection figures of a campaign (001 §2 statistics tab), from one grouped query. */
import type { CampaignStatistics } from '@doanhoi/shared';
import { asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loadCampaign } from './rules';
import { feeLevels, paymentAssignments } from './schema';

export function campaignStatistics(db: Db, campaignId: number, now = Date.now()): CampaignStatistics {
  const campaign = loadCampaign(db, campaignId);
  const ended = now > campaign.endDate.getTime();
  const rows = db
    .select({
      feeLevelId: feeLevels.id,
      levelName: feeLevels.levelName,
      amount: feeLevels.amount,
      orderIndex: feeLevels.orderIndex,
      status: paymentAssignments.status,
      n: count(paymentAssignments.id),
      paid: sql<number>`coalesce(sum(coalesce(${paymentAssignments.paidAmount}, ${feeLevels.amount})), 0)`,
    })
    .from(feeLevels)
    .leftJoin(paymentAssignments, eq(paymentAssignments.feeLevelId, feeLevels.id))
    .where(eq(feeLevels.campaignId, campaignId))
    .groupBy(feeLevels.id, paymentAssignments.status)
    .orderBy(asc(feeLevels.orderIndex), asc(feeLevels.id))
    .all();

  const byLevel = new Map<number, CampaignStatistics['byFeeLevel'][number]>();
  let totalMembers = 0;
  let pending = 0;
  let paid = 0;
  let overdue = 0;
  let expected = 0;
  let collected = 0;
  let uncollected = 0;
  for (const r of rows) {
    let level = byLevel.get(r.feeLevelId);
    if (!level) byLevel.set(r.feeLevelId, (level = { feeLevelId: r.feeLevelId, levelName: r.levelName, amount: r.amount, count: 0, paidCount: 0 }));
    if (!r.status) continue;
    level.count += r.n;
    totalMembers += r.n;
    expected += r.n * r.amount;
    if (r.status === 'PAID') {
      paid += r.n;
      level.paidCount += r.n;
      collected += r.paid;
    } else {
      uncollected += r.n * r.amount;
      // A PENDING assignment past the campaign end is shown as overdue (001 §4).
      if (r.status === 'OVERDUE' || ended) overdue += r.n;
      else pending += r.n;
    }
  }
  return {
    campaignId,
    totalMembers,
    pendingCount: pending,
    paidCount: paid,
    overdueCount: overdue,
    totalExpected: expected,
    collected,
    uncollected,
    collectionPercentage: expected > 0 ? Math.round((collected / expected) * 1000) / 10 : 0,
    endDate: campaign.endDate.toISOString(),
    byFeeLevel: [...byLevel.values()],
  };
}
