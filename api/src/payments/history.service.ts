/**
 * GET /payment-admin/payment-history/{campaignId} (001 §3, §7): a campaign's payment orders for
 * its report viewers. The spec's rows carry the payOS credentials; ours carry them masked only.
 */
import { normalizeText, type AdminPaymentHistoryQuery } from '@doanhoi/shared';
import { and, count, desc, eq, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Deps } from '../lib/context';
import { searchTextLike } from '../lib/text-filter';
import { totalPages } from '../lib/totals';
import { maskSecret, decryptSecret } from '../payos/crypto';
import { users } from '../db/tables/users';
import { iso } from './mappers';
import { configRow } from './credentials';
import { loadCampaign } from './rules';
import { feeLevels, paymentAssignments, paymentOrders } from '../db/tables/payments';
import { allRows, firstRow } from '../db/engine';

const recorder = alias(users, 'recorder');
const resolver = alias(users, 'resolver');

export async function paymentHistory({ db, env }: Deps, campaignId: number, q: AdminPaymentHistoryQuery) {
  await loadCampaign(db, campaignId);
  const needle = normalizeText(q.search);
  let search: SQL | undefined;
  if (needle) {
    const digits = q.search!.trim();
    search = or(searchTextLike(users.searchText, needle), /^\d+$/.test(digits) ? eq(paymentOrders.orderCode, Number(digits)) : undefined);
  }
  const where = and(
    eq(paymentOrders.campaignId, campaignId),
    q.status === 'ALL' ? undefined : eq(paymentOrders.status, q.status),
    q.attention === 'OPEN' ? and(isNotNull(paymentOrders.attention), isNull(paymentOrders.resolution)) : undefined,
    q.attention === 'RESOLVED' ? and(isNotNull(paymentOrders.attention), isNotNull(paymentOrders.resolution)) : undefined,
    q.includeTest === 'false' ? eq(paymentOrders.isTest, false) : undefined,
    search,
  );
  const total = (await firstRow(
    db.select({ n: count() }).from(paymentOrders).innerJoin(users, eq(users.id, paymentOrders.userId)).where(where),
  ))!.n;
  const rows = await allRows(
    db
      .select({
        o: paymentOrders,
        user: { id: users.id, familyName: users.familyName, givenName: users.givenName, code: users.code, email: users.email },
        feeLevel: { id: feeLevels.id, levelName: feeLevels.levelName },
        assignmentStatus: paymentAssignments.status,
        recorder: { id: recorder.id, familyName: recorder.familyName, givenName: recorder.givenName },
        resolver: { id: resolver.id, familyName: resolver.familyName, givenName: resolver.givenName },
      })
      .from(paymentOrders)
      .innerJoin(users, eq(users.id, paymentOrders.userId))
      .innerJoin(paymentAssignments, eq(paymentAssignments.id, paymentOrders.assignmentId))
      .innerJoin(feeLevels, eq(feeLevels.id, paymentAssignments.feeLevelId))
      .leftJoin(recorder, eq(recorder.id, paymentOrders.recordedBy))
      .leftJoin(resolver, eq(resolver.id, paymentOrders.resolvedBy))
      .where(where)
      // Unpaid orders last on both engines (PostgreSQL puts NULLs first in a descending order).
      .orderBy(sql`${paymentOrders.paidAt} desc nulls last`, desc(paymentOrders.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
  );
  const config = await configRow(db, campaignId);
  const masked = config
    ? {
        client_id: maskSecret(config.clientId),
        api_key: maskSecret(decryptSecret(config.apiKeyEnc, env.appSecret)),
        checksum_key: maskSecret(decryptSecret(config.checksumKeyEnc, env.appSecret)),
      }
    : { client_id: null, api_key: null, checksum_key: null };
  return {
    success: true,
    data: {
      items: rows.map((r) => {
        const online = r.o.paymentMethod === 'ONLINE';
        return {
          id: r.o.id,
          order_code: r.o.orderCode,
          amount: r.o.amount,
          status: r.o.status,
          payment_method: r.o.paymentMethod,
          manual_method: r.o.manualMethod,
          note: r.o.note,
          description: r.o.description,
          paid_at: iso(r.o.paidAt),
          created_at: r.o.createdAt.toISOString(),
          recorded_by: r.recorder ? { id: r.recorder.id, familyName: r.recorder.familyName, givenName: r.recorder.givenName } : null,
          received_amount: r.o.receivedAmount,
          is_test: r.o.isTest,
          attention: r.o.attention,
          attention_reason: r.o.attentionReason,
          attention_amount: r.o.attentionAmount,
          resolution: r.o.resolution,
          resolved_at: iso(r.o.resolvedAt),
          resolved_by: r.resolver ? { id: r.resolver.id, familyName: r.resolver.familyName, givenName: r.resolver.givenName } : null,
          resolution_note: r.o.resolutionNote,
          // A reversed mark-paid and its reversing entry (issue 15.3): both stay in the history.
          reversed_at: iso(r.o.reversedAt),
          reversal_reason: r.o.reversalReason,
          reverses_order_id: r.o.reversesOrderId,
          ...(online ? masked : { client_id: null, api_key: null, checksum_key: null }),
          assignment: { id: r.o.assignmentId, status: r.assignmentStatus, user: r.user, feeLevel: r.feeLevel },
        };
      }),
      total,
      page: q.page,
      limit: q.limit,
      totalPages: totalPages(total, q.limit),
    },
  };
}
