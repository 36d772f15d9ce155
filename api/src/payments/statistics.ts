/**
 * Collection figures of a campaign (001 §2 statistics tab). They reconcile (issue 11.4):
 * totalExpected = Σ assignment amounts, collected = real money applied to fees (capped per fee),
 * uncollected = totalExpected − collected, and every real đồng held is collected + extraReceived +
 * refundDue. Sandbox (test) money is reported apart and counted nowhere else; so are the fees it
 * settled (paidCount leaves them out, testPaidCount holds them; docs/decisions.md).
 */
import type { CampaignStatistics } from '@doanhoi/shared';
import { and, asc, count, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { countedOf } from './money';
import { loadCampaign } from './rules';
import { feeLevels, paymentAssignments, paymentOrders } from '../db/tables/payments';
import { allRows } from '../db/engine';

export async function campaignStatistics(db: Db, campaignId: number, now = Date.now()): Promise<CampaignStatistics> {
  const campaign = await loadCampaign(db, campaignId);
  const ended = now > campaign.endDate.getTime();
  const rows = await allRows(
    db
      .select({
        feeLevelId: feeLevels.id,
        levelName: feeLevels.levelName,
        amount: feeLevels.amount,
        status: paymentAssignments.status,
        n: count(paymentAssignments.id),
        expected: sql<number>`coalesce(sum(${paymentAssignments.amount}), 0)`,
        testPaid: sql<number>`coalesce(sum(case when ${paymentAssignments.isTestPayment} then 1 else 0 end), 0)`,
        reduced: sql<number>`coalesce(sum(case when ${paymentAssignments.adjustment} = 'REDUCED' then 1 else 0 end), 0)`,
        waived: sql<number>`coalesce(sum(${paymentAssignments.originalAmount} - ${paymentAssignments.amount}), 0)`,
      })
      .from(feeLevels)
      .leftJoin(paymentAssignments, eq(paymentAssignments.feeLevelId, feeLevels.id))
      .where(eq(feeLevels.campaignId, campaignId))
      .groupBy(feeLevels.id, paymentAssignments.status)
      .orderBy(asc(feeLevels.orderIndex), asc(feeLevels.id)),
  );

  const byLevel = new Map<number, CampaignStatistics['byFeeLevel'][number]>();
  let totalMembers = 0;
  let pending = 0;
  let paid = 0;
  let overdue = 0;
  let expected = 0;
  let testPaidCount = 0;
  let exemptedCount = 0;
  let reducedCount = 0;
  let waivedAmount = 0;
  for (const r of rows) {
    let level = byLevel.get(r.feeLevelId);
    if (!level)
      byLevel.set(r.feeLevelId, (level = { feeLevelId: r.feeLevelId, levelName: r.levelName, amount: r.amount, count: 0, paidCount: 0 }));
    if (!r.status) continue;
    level.count += r.n;
    totalMembers += r.n;
    expected += Number(r.expected);
    reducedCount += Number(r.reduced);
    waivedAmount += Number(r.waived);
    if (r.status === 'EXEMPTED') {
      // Waived entirely: owed by no one, so neither pending nor overdue (its amount is 0 in expected).
      exemptedCount += r.n;
    } else if (r.status === 'PAID') {
      // A fee settled by sandbox money is a test, not a payment: it counts apart (testPaidCount), as
      // its money does (testReceived), so "paid" never disagrees with "collected" (issue 26 item 9).
      const test = Number(r.testPaid);
      paid += r.n - test;
      level.paidCount += r.n - test;
      testPaidCount += test;
    } else if (r.status === 'OVERDUE' || ended) {
      // A PENDING assignment past the campaign end is shown as overdue (001 §4).
      overdue += r.n;
    } else {
      pending += r.n;
    }
  }

  // Only orders that received money: a handful per paying member.
  const money = await allRows(
    db
      .select({
        o: {
          assignmentId: paymentOrders.assignmentId,
          isTest: paymentOrders.isTest,
          receivedAmount: paymentOrders.receivedAmount,
          attention: paymentOrders.attention,
          attentionAmount: paymentOrders.attentionAmount,
          resolution: paymentOrders.resolution,
          reversedAt: paymentOrders.reversedAt,
        },
        amount: paymentAssignments.amount,
        status: paymentAssignments.status,
      })
      .from(paymentOrders)
      .innerJoin(paymentAssignments, eq(paymentAssignments.id, paymentOrders.assignmentId))
      .where(and(eq(paymentOrders.campaignId, campaignId), gt(paymentOrders.receivedAmount, 0))),
  );
  const perAssignment = new Map<number, { amount: number; status: string; counted: number }>();
  let refundDue = 0;
  let refundDueCount = 0;
  let attentionCount = 0;
  let testReceived = 0;
  let testRefundDue = 0;
  let testAttentionCount = 0;
  for (const m of money) {
    const open = m.o.attention !== null && m.o.resolution === null;
    if (m.o.isTest) {
      testReceived += m.o.receivedAmount;
      // A sandbox walk must show its flags too (issue 11), but never inside the real figures.
      if (open) testAttentionCount++;
      if (open && m.o.attention === 'REFUND_DUE') testRefundDue += m.o.attentionAmount ?? 0;
      continue;
    }
    if (open) attentionCount++;
    if (open && m.o.attention === 'REFUND_DUE') {
      refundDue += m.o.attentionAmount ?? 0;
      refundDueCount++;
    }
    // A reversed mark-paid counts nothing: its fee is unpaid, not partly paid (no balance due).
    if (m.o.reversedAt) continue;
    const a = perAssignment.get(m.o.assignmentId) ?? { amount: m.amount, status: m.status, counted: 0 };
    a.counted += countedOf(m.o);
    perAssignment.set(m.o.assignmentId, a);
  }
  let collected = 0;
  let extraReceived = 0;
  let balanceDue = 0;
  let balanceDueCount = 0;
  for (const a of perAssignment.values()) {
    collected += Math.min(a.counted, a.amount);
    extraReceived += Math.max(0, a.counted - a.amount);
    if (a.counted < a.amount && a.status !== 'PAID') {
      balanceDue += a.amount - a.counted;
      balanceDueCount++;
    }
  }
  return {
    campaignId,
    totalMembers,
    pendingCount: pending,
    paidCount: paid,
    overdueCount: overdue,
    totalExpected: expected,
    exemptedCount,
    reducedCount,
    waivedAmount,
    collected,
    uncollected: expected - collected,
    totalReceived: collected + extraReceived + refundDue,
    extraReceived,
    refundDue,
    refundDueCount,
    balanceDue,
    balanceDueCount,
    attentionCount,
    testReceived,
    testPaidCount,
    testRefundDue,
    testAttentionCount,
    collectionPercentage: expected > 0 ? Math.round((collected / expected) * 1000) / 10 : 0,
    endDate: campaign.endDate.toISOString(),
    byFeeLevel: [...byLevel.values()],
  };
}
