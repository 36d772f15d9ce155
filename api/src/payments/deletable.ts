/**
 * Whether "Xóa" on a campaign would be accepted (issue 25 item 6): the list and the page hide what
 * the server refuses. The rule is the one campaigns.service remove() applies: only a finished
 * campaign (COMPLETED or CANCELLED) without money records goes. Money records are orders that
 * were paid, received money or carry a money flag; sandbox test payments are not money.
 */
import type { CampaignDeleteBlock, CampaignStatus } from '@doanhoi/shared';
import { and, count, eq, gt, inArray, isNotNull, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { paymentOrders } from '../db/tables/payments';
import { allRows } from '../db/engine';

/** The orders that are money records (kept forever, so their campaign is kept too). */
export const moneyRecord = () =>
  and(
    eq(paymentOrders.isTest, false),
    or(eq(paymentOrders.status, 'PAID'), gt(paymentOrders.receivedAmount, 0), isNotNull(paymentOrders.attention)),
  );

/** Money records per campaign, in one grouped query on the orders' campaign index. */
export async function moneyRecordCounts(db: Pick<Db, 'select'>, ids: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>(ids.map((id) => [id, 0]));
  if (ids.length === 0) return out;
  const rows = await allRows(
    db
      .select({ id: paymentOrders.campaignId, n: count() })
      .from(paymentOrders)
      .where(and(inArray(paymentOrders.campaignId, ids), moneyRecord()))
      .groupBy(paymentOrders.campaignId),
  );
  for (const r of rows) out.set(r.id, r.n);
  return out;
}

/** Why this campaign cannot be deleted, or null when the server would accept "Xóa". */
export function campaignDeleteBlock(status: CampaignStatus, moneyRecords: number): CampaignDeleteBlock | null {
  if (status !== 'COMPLETED' && status !== 'CANCELLED') return 'NOT_FINISHED';
  return moneyRecords > 0 ? 'HAS_PAYMENTS' : null;
}
