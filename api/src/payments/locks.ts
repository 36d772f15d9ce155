/**
 * What a money transaction locks before it reads what it decides on (issue 29 item 3): on
 * PostgreSQL two requests at once (two API processes, two webhooks, a click and a webhook) would
 * otherwise both read the fee as unpaid and both write. Always in one order, campaign, then
 * assignment, then orders, so two transactions that meet wait instead of deadlocking; the callers
 * read the rows again after this. On SQLite this is nothing: the write transaction is already alone.
 *
 * The campaign is locked shared: every payment of a campaign may run at once, while a status change
 * (complete, cancel: an UPDATE of the row) waits for them and they for it. The assignment is the
 * fee's money and is locked exclusively, and so are the orders the transaction changes.
 */
import type { Tx } from '../db/client';
import { lockRows } from '../db/engine';
import { paymentAssignments, paymentCampaigns, paymentOrders } from '../db/tables/payments';

export async function lockFee(tx: Tx, fee: { campaignId: number; assignmentId: number; orderIds?: number[] }): Promise<void> {
  await lockRows(tx, paymentCampaigns, [fee.campaignId], 'share');
  await lockRows(tx, paymentAssignments, [fee.assignmentId]);
  if (fee.orderIds?.length) await lockRows(tx, paymentOrders, fee.orderIds);
}
