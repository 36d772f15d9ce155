/**
 * PENDING assignments of a campaign whose end has passed become OVERDUE (001 §4). Run on request
 * (POST /payment/assignments/check-overdue, scoped to the caller) and every few minutes by jobs.ts.
 */
import { and, eq, inArray, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { audit } from '../audit/writer';
import { organizations } from '../db/tables/organizations';
import type { Actor } from '../lib/context';
import { assertCan, orgScope, P, scopeCondition } from '../access/payments';
import { loadCampaign } from './rules';
import { paymentAssignments, paymentCampaigns } from '../db/tables/payments';
import { allRows, withTransaction } from '../db/engine';

export async function checkOverdue(
  db: Db,
  opts: { actorId: number | null; ip?: string | null; campaignId?: number; scope?: SQL; now?: Date } = { actorId: null },
): Promise<{ updatedCount: number }> {
  const now = opts.now ?? new Date();
  const campaigns = (
    await allRows(
      db
        .select({ id: paymentCampaigns.id })
        .from(paymentCampaigns)
        .innerJoin(organizations, eq(organizations.id, paymentCampaigns.organizationId))
        .where(
          and(
            lt(paymentCampaigns.endDate, now),
            // DRAFT campaigns collect nothing; CANCELLED ones show "payment expired" instead.
            inArray(paymentCampaigns.status, ['ACTIVE', 'COMPLETED']),
            opts.campaignId ? eq(paymentCampaigns.id, opts.campaignId) : undefined,
            opts.scope,
          ),
        ),
    )
  ).map((c) => c.id);
  if (campaigns.length === 0) return { updatedCount: 0 };
  const updated = await withTransaction(db, async (tx) => {
    const rows = await allRows(
      tx
        .update(paymentAssignments)
        .set({ status: 'OVERDUE' })
        .where(and(eq(paymentAssignments.status, 'PENDING'), inArray(paymentAssignments.campaignId, campaigns)))
        .returning({ id: paymentAssignments.id, campaignId: paymentAssignments.campaignId }),
    );
    if (rows.length > 0) {
      await audit(tx, {
        actorId: opts.actorId,
        ip: opts.ip ?? null,
        action: 'assignment.check_overdue',
        entity: 'payment_assignment',
        after: {
          updatedCount: rows.length,
          campaignIds: [...new Set(rows.map((r) => r.campaignId))],
          assignmentIds: rows.map((r) => r.id).slice(0, 500),
        },
      });
    }
    return rows.length;
  });
  return { updatedCount: updated };
}

/** The request form: only campaigns where the caller manages assignments. */
export async function checkOverdueFor(db: Db, actor: Actor, ip: string | null, campaignId?: number): Promise<{ updatedCount: number }> {
  if (campaignId) await assertCan(db, actor, P.manage, (await loadCampaign(db, campaignId)).organizationId);
  const scope = scopeCondition(await orgScope(db, actor, P.manage), organizations.path);
  return checkOverdue(db, { actorId: actor.id, ip, campaignId, scope });
}
