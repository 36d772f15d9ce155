/**
 * Roles granted and taken away, and fees assigned, paid and adjusted, for a member's history
 * (history.ts). Role links are records while held (created_at, granted_by); a link taken away is
 * deleted, so the user.roles.* audit rows (links before and after) tell it. Fees are records
 * (assignments and orders) with the exemption/reduction audit rows for adjustments undone since.
 * Fee events come only for campaigns whose payments the caller may see (payment-campaigns.read in
 * the campaign's organization); the others are left out without a trace.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { auditLogs } from '../db/tables/audit';
import type { Db } from '../db/client';
import type { Actor } from '../lib/context';
import { can, P } from '../access/payments';
import { paymentAssignments, paymentCampaigns, paymentOrders } from '../db/tables/payments';
import { userRoles } from '../db/tables/roles';
import { idsOf, type AuditRow, type Event, type NameBook } from './history-sources';
import { allRows } from '../db/engine';
import { filterInOrder } from '../lib/in-order';

const SAME_ACTION_MS = 60_000;

type Link = { roleId: number; organizationId: number | null };
const key = (l: Link) => `${l.roleId}|${l.organizationId ?? ''}`;
/** The active links of a user.roles.* snapshot. */
function activeLinks(list: unknown[]): Map<string, Link> {
  const out = new Map<string, Link>();
  for (const x of list) {
    const l = x as { roleId?: unknown; organizationId?: unknown; isActive?: unknown };
    const roleId = idsOf(l.roleId)[0];
    if (roleId === undefined || l.isActive === false) continue;
    const link = { roleId, organizationId: idsOf(l.organizationId)[0] ?? null };
    out.set(key(link), link);
  }
  return out;
}

export async function roleEvents(db: Db, userId: number, book: NameBook, rows: AuditRow[]): Promise<Event[]> {
  const out: Event[] = [];
  const granted: { row: AuditRow; link: Link; used: boolean }[] = [];
  for (const r of rows) {
    if (!r.action.startsWith('user.roles.')) continue;
    const before = activeLinks(r.beforeList);
    const after = activeLinks(r.afterList);
    for (const [k, l] of after) if (!before.has(k)) granted.push({ row: r, link: l, used: false });
    for (const [k, l] of before) {
      if (after.has(k)) continue;
      out.push({
        id: `role-off:${r.id}:${k}`,
        at: r.createdAt.toISOString(),
        kind: 'role_revoked',
        ...(await where(book, l, r.labels.names)),
        actor: await book.actorOf(r),
      });
    }
  }
  const links = await allRows(
    db
      .select()
      .from(userRoles)
      .where(and(eq(userRoles.userId, userId), eq(userRoles.isActive, true))),
  );
  for (const l of links) {
    const link = { roleId: l.roleId, organizationId: l.organizationId };
    const ev = granted.find(
      (g) => !g.used && key(g.link) === key(link) && Math.abs(g.row.createdAt.getTime() - l.createdAt.getTime()) <= SAME_ACTION_MS,
    );
    if (ev) ev.used = true;
    out.push({
      id: `role:${l.id}`,
      at: l.createdAt.toISOString(),
      kind: 'role_granted',
      ...(await where(book, link, ev?.row.labels.names)),
      actor: ev ? await book.actorOf(ev.row) : await book.user(l.grantedBy),
    });
  }
  // Grants the links no longer show: taken away since, or a link switched on again (its created_at is the first grant's).
  for (const g of granted.filter((x) => !x.used)) {
    out.push({
      id: `role-log:${g.row.id}:${key(g.link)}`,
      at: g.row.createdAt.toISOString(),
      kind: 'role_granted',
      ...(await where(book, g.link, g.row.labels.names)),
      actor: await book.actorOf(g.row),
    });
  }
  return out;
}

const where = async (book: NameBook, l: Link, names?: Record<string, string>) => ({
  role: await book.label('role', l.roleId, names),
  ...(l.organizationId != null ? { organization: await book.org(l.organizationId, names) } : {}),
});

export async function feeEvents(db: Db, actor: Actor, userId: number, book: NameBook): Promise<Event[]> {
  const assignments = await allRows(
    db
      .select({ a: paymentAssignments, organizationId: paymentCampaigns.organizationId })
      .from(paymentAssignments)
      .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, paymentAssignments.campaignId))
      .where(eq(paymentAssignments.userId, userId)),
  );
  const allowed = new Map<number, boolean>();
  const mayRead = async (organizationId: number) => {
    if (!allowed.has(organizationId)) allowed.set(organizationId, await can(db, actor, P.read, organizationId));
    return allowed.get(organizationId)!;
  };
  const seen = (await filterInOrder(assignments, (x) => mayRead(x.organizationId))).map((x) => x.a);
  if (seen.length === 0) return [];
  const ids = seen.map((a) => a.id);
  const out: Event[] = [];
  const campaign = async (id: number) => ({ campaign: await book.label('payment_campaign', id) });

  const logs = await allRows(
    db
      .select()
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.entity, 'payment_assignment'),
          inArray(auditLogs.entityId, ids.map(String)),
          inArray(auditLogs.action, ['assignment.exempt', 'assignment.reduce', 'assignment.revoke_adjustment']),
        ),
      ),
  );
  for (const a of seen) {
    out.push({
      id: `fee:${a.id}`,
      at: a.createdAt.toISOString(),
      kind: 'fee_assigned',
      ...(await campaign(a.campaignId)),
      amount: a.originalAmount ?? a.amount,
      actor: await book.user(a.assignedBy),
    });
    const mine = logs.filter((l) => l.entityId === String(a.id));
    for (const l of mine) {
      const before = parseObj(l.before);
      const after = parseObj(l.after);
      const reason = typeof after.reason === 'string' && after.reason ? { reason: after.reason } : {};
      const actorLabel = await book.user(l.actorId, parseObj(l.labels).actor as string | undefined);
      const base = {
        id: `fee-adj:${l.id}`,
        at: l.createdAt.toISOString(),
        ...(await campaign(a.campaignId)),
        ...reason,
        actor: actorLabel,
      };
      const was = Number(before.amount);
      if (l.action === 'assignment.exempt') out.push({ ...base, kind: 'fee_exempted', amount: was });
      else if (l.action === 'assignment.reduce')
        out.push({ ...base, kind: 'fee_reduced', amount: Math.max(0, was - Number(after.amount)) });
      else out.push({ ...base, kind: 'fee_adjustment_revoked', amount: Number(after.amount) });
    }
    // An adjustment no audit row tells (seeded or imported data): the record's own.
    if (a.adjustment && a.adjustedAt && !mine.some((l) => l.action !== 'assignment.revoke_adjustment')) {
      const was = a.originalAmount ?? a.amount;
      out.push({
        id: `fee-adj-rec:${a.id}`,
        at: a.adjustedAt.toISOString(),
        kind: a.adjustment === 'EXEMPTED' ? 'fee_exempted' : 'fee_reduced',
        ...(await campaign(a.campaignId)),
        amount: a.adjustment === 'EXEMPTED' ? was : was - a.amount,
        ...(a.adjustmentReason ? { reason: a.adjustmentReason } : {}),
        actor: await book.user(a.adjustedBy),
      });
    }
  }

  // Money: counted orders (sandbox money is not money), their reversals and refunds.
  const orders = await allRows(
    db
      .select()
      .from(paymentOrders)
      .where(
        and(
          inArray(paymentOrders.assignmentId, ids),
          eq(paymentOrders.status, 'PAID'),
          isNull(paymentOrders.reversesOrderId),
          eq(paymentOrders.isTest, false),
        ),
      ),
  );
  const paidByOrder = new Set<number>();
  for (const o of orders) {
    paidByOrder.add(o.assignmentId);
    const amount = o.receivedAmount || o.amount;
    out.push({
      id: `paid:${o.id}`,
      at: (o.paidAt ?? o.updatedAt).toISOString(),
      kind: 'fee_paid',
      ...(await campaign(o.campaignId)),
      amount,
      ...(o.note ? { note: o.note } : {}),
      actor: o.paymentMethod === 'MANUAL' ? await book.user(o.recordedBy) : undefined,
    });
    if (o.reversedAt) {
      out.push({
        id: `reversed:${o.id}`,
        at: o.reversedAt.toISOString(),
        kind: 'fee_reversed',
        ...(await campaign(o.campaignId)),
        amount,
        ...(o.reversalReason ? { reason: o.reversalReason } : {}),
        actor: await book.user(o.reversedBy),
      });
    }
    if (o.resolution === 'REFUNDED' && o.resolvedAt) {
      out.push({
        id: `refunded:${o.id}`,
        at: o.resolvedAt.toISOString(),
        kind: 'fee_refunded',
        ...(await campaign(o.campaignId)),
        ...(o.attentionAmount != null ? { amount: o.attentionAmount } : {}),
        ...(o.resolutionNote ? { note: o.resolutionNote } : {}),
        actor: await book.user(o.resolvedBy),
      });
    }
  }
  // A fee marked paid with no order (older data): its own paid date.
  for (const a of seen) {
    if (a.status === 'PAID' && a.paidAt && !paidByOrder.has(a.id) && !a.isTestPayment) {
      out.push({
        id: `paid-rec:${a.id}`,
        at: a.paidAt.toISOString(),
        kind: 'fee_paid',
        ...(await campaign(a.campaignId)),
        amount: a.paidAmount ?? a.amount,
      });
    }
  }
  return out;
}

function parseObj(s: string | null): Record<string, unknown> {
  try {
    const v: unknown = s ? JSON.parse(s) : null;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
