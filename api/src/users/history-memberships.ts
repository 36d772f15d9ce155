/**
 * Joined, left, removed and transferred, for a member's history (history.ts). The records give the
 * dates: each membership row (its latest stint: joined_at, ended_at, end_reason) and each transfer.
 * The audit rows give who did it, and the events the records no longer hold: an earlier stint in a
 * unit joined again, a membership deleted, a transfer whose unit was deleted since. One action is
 * one event, naming the unit acted on (the deepest of the chain it joined or left).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { dayStart } from '../organizations/membership-end';
import { organizationMembers } from '../db/tables/organizations';
import { transfers } from '../db/tables/transfers';
import { deepest, idsOf, recordedOnDay, type AuditRow, type Event, type NameBook } from './history-sources';
import { allRows } from '../db/engine';
import { mapInOrder } from '../lib/in-order';

/** An audit row and the record it stands for are written together (join() takes the time per unit): within this, they are one action. */
const SAME_ACTION_MS = 60_000;

interface Evidence {
  row: AuditRow;
  orgIds: number[];
  /** The unit acted on when the row says it. */
  unit?: number;
  used: boolean;
}

const vnDay = (d: Date) => new Date(d.getTime() + 7 * 3600_000).toISOString().slice(0, 10);
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

export async function membershipEvents(db: Db, userId: number, book: NameBook, rows: AuditRow[]): Promise<Event[]> {
  const out: Event[] = [];
  const joins: Evidence[] = [];
  const leaves: (Evidence & { day?: string; reason?: string; note?: string })[] = [];
  const acceptedJoins = new Map<number, number[]>();
  for (const r of rows) {
    const a = r.after;
    switch (r.action) {
      case 'user.create':
        if (idsOf(a.organizationIds).length) joins.push({ row: r, orgIds: idsOf(a.organizationIds), used: false });
        break;
      case 'membership.add':
        // An add of someone already there joins nothing (organizationIds empty): no event.
        if (idsOf(a.organizationIds).length)
          joins.push({ row: r, orgIds: idsOf(a.organizationIds), unit: Number(r.entityId), used: false });
        break;
      case 'membership.set':
      case 'user.bulk_update': {
        if (idsOf(a.added).length) joins.push({ row: r, orgIds: idsOf(a.added), used: false });
        const removed = r.action === 'membership.set' ? idsOf(a.removed) : [];
        if (removed.length) out.push(await removal(book, r, removed));
        const end = a.endedMembership as Record<string, unknown> | undefined;
        if (end && idsOf(end.organizationIds).length)
          leaves.push({
            row: r,
            orgIds: idsOf(end.organizationIds),
            unit: idsOf(end.organizationId)[0],
            day: text(end.endedAt),
            reason: text(end.reason),
            note: text(end.note),
            used: false,
          });
        break;
      }
      case 'membership.end':
        if (idsOf(a.ended).length)
          leaves.push({
            row: r,
            orgIds: idsOf(a.ended),
            unit: idsOf(a.organizationId)[0],
            day: text(a.endedAt),
            reason: text(a.reason),
            note: text(a.note),
            used: false,
          });
        break;
      case 'membership.remove':
        out.push(await removal(book, r, idsOf(a.removed), Number(r.entityId)));
        break;
      case 'membership.bulk_remove':
        out.push(await removal(book, r, [Number(r.entityId)]));
        break;
      case 'transfer.accept':
        if (typeof a.transferId === 'number') acceptedJoins.set(a.transferId, idsOf(a.joined));
        break;
    }
  }

  const transferRows = await allRows(db.select().from(transfers).where(eq(transfers.userId, userId)));
  // Units joined by an accepted transfer, on its day: the transfer event tells them.
  const byTransfer = new Set<string>();
  for (const t of transferRows) {
    if (t.status !== 'ACCEPTED') continue;
    for (const id of acceptedJoins.get(t.id) ?? [t.toOrganizationId]) byTransfer.add(`${id}@${dayStart(t.effectiveDate).getTime()}`);
  }

  const records = await allRows(db.select().from(organizationMembers).where(eq(organizationMembers.userId, userId)));
  // Rows joined in one action share (nearly) one instant; rows ended in one action share a day and a reason.
  const joinGroups = group(
    records.filter((m) => !byTransfer.has(`${m.organizationId}@${m.joinedAt.getTime()}`)),
    (m) => m.joinedAt.getTime(),
  );
  for (const g of joinGroups) {
    const orgIds = g.map((m) => m.organizationId);
    const at = g[0]!.joinedAt;
    const ev = joins.find(
      (e) => !e.used && e.orgIds.some((id) => orgIds.includes(id)) && Math.abs(e.row.createdAt.getTime() - at.getTime()) <= SAME_ACTION_MS,
    );
    if (ev) ev.used = true;
    // One event per chain joined: a Chi đoàn and a Chi hội saved together are both told.
    for (const unit of ev?.unit && orgIds.includes(ev.unit) ? [ev.unit] : await chainEnds(book, orgIds)) {
      out.push({
        id: `join:${unit}:${at.getTime()}`,
        at: at.toISOString(),
        kind: 'joined',
        organization: await book.org(unit, ev?.row.labels.names),
        actor: ev && (await book.actorOf(ev.row)),
      });
    }
  }

  const ended = records.filter((m) => !m.isActive && m.endedAt && m.endReason && m.endReason !== 'transferred');
  const endGroups = new Map<string, typeof ended>();
  for (const m of ended) {
    const key = `${m.endedAt!.getTime()}|${m.endReason}|${m.endNote ?? ''}`;
    endGroups.set(key, [...(endGroups.get(key) ?? []), m]);
  }
  for (const g of endGroups.values()) {
    const orgIds = g.map((m) => m.organizationId);
    const first = g[0]!;
    const day = vnDay(first.endedAt!);
    const ev = [...leaves]
      .reverse()
      .find((e) => !e.used && e.day === day && e.reason === first.endReason && e.orgIds.some((id) => orgIds.includes(id)));
    if (ev) ev.used = true;
    const unit = ev?.unit && orgIds.includes(ev.unit) ? ev.unit : (await deepest(book, orgIds))!;
    out.push({
      id: `left:${unit}:${first.endedAt!.getTime()}`,
      at: first.endedAt!.toISOString(),
      kind: 'left',
      organization: await book.org(unit, ev?.row.labels.names),
      reason: first.endReason!,
      ...(first.endNote ? { note: first.endNote } : {}),
      actor: ev && (await book.actorOf(ev.row)),
      ...recordedOnDay(first.endedAt!, ev?.row.createdAt),
    });
  }

  // What the rows no longer hold: an earlier stint (joined again since, or deleted), an ending undone by a new join.
  for (const e of joins.filter((x) => !x.used)) {
    const unit = e.unit ?? (await deepest(book, e.orgIds))!;
    out.push({
      id: `join-log:${e.row.id}`,
      at: e.row.createdAt.toISOString(),
      kind: 'joined',
      organization: await book.org(unit, e.row.labels.names),
      actor: await book.actorOf(e.row),
    });
  }
  for (const e of leaves.filter((x) => !x.used && x.day)) {
    const unit = e.unit ?? (await deepest(book, e.orgIds))!;
    out.push({
      id: `left-log:${e.row.id}`,
      at: dayStart(e.day!).toISOString(),
      kind: 'left',
      organization: await book.org(unit, e.row.labels.names),
      ...(e.reason ? { reason: e.reason } : {}),
      ...(e.note ? { note: e.note } : {}),
      actor: await book.actorOf(e.row),
      ...recordedOnDay(dayStart(e.day!), e.row.createdAt),
    });
  }

  out.push(...(await transferEvents(book, transferRows, rows)));
  return out;
}

/** The deepest unit of each chain among `ids` (a unit no other of them lies beneath); the deepest one when none is known. */
async function chainEnds(book: NameBook, ids: number[]): Promise<number[]> {
  const paths = (await mapInOrder(ids, async (id) => ({ id, path: await book.path(id) }))).filter((x) => x.path);
  const ends = paths.filter((x) => !paths.some((y) => y.id !== x.id && y.path.startsWith(x.path))).map((x) => x.id);
  return ends.length ? ends : [(await deepest(book, ids))!];
}

async function removal(book: NameBook, r: AuditRow, orgIds: number[], unit?: number): Promise<Event> {
  const id = unit ?? (await deepest(book, orgIds))!;
  return {
    id: `removed:${r.id}`,
    at: r.createdAt.toISOString(),
    kind: 'removed',
    organization: await book.org(id, r.labels.names),
    actor: await book.actorOf(r),
  };
}

/** Consecutive items (by key order) whose keys lie within SAME_ACTION_MS of the group's first. */
function group<T>(items: T[], key: (x: T) => number): T[][] {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  const groups: T[][] = [];
  for (const x of sorted) {
    const last = groups[groups.length - 1];
    if (last && key(x) - key(last[0]!) <= 2_000) last.push(x);
    else groups.push([x]);
  }
  return groups;
}

type TransferRow = typeof transfers.$inferSelect;

/**
 * Each request, refusal, cancellation and acceptance. A transfer whose unit was deleted is gone
 * (its row cascades); its audit rows still tell it with the names they kept.
 */
async function transferEvents(book: NameBook, list: TransferRow[], rows: AuditRow[]): Promise<Event[]> {
  const out: Event[] = [];
  const logOf = (id: number, action: string) => rows.find((r) => r.action === action && r.after.transferId === id);
  const kept = new Set(list.map((t) => t.id));
  for (const t of list) {
    const names = (logOf(t.id, 'transfer.request') ?? logOf(t.id, 'transfer.accept'))?.labels.names;
    const base = { organization: await book.org(t.toOrganizationId, names), fromOrganization: await book.org(t.fromOrganizationId, names) };
    const by = async (userId: number | null, action: string) => {
      const log = logOf(t.id, action);
      return log ? await book.actorOf(log) : await book.user(userId);
    };
    out.push({
      id: `transfer:${t.id}:request`,
      at: t.createdAt.toISOString(),
      kind: 'transfer_requested',
      ...base,
      reason: t.reason,
      actor: await by(t.requestedBy, 'transfer.request'),
    });
    if (t.status === 'ACCEPTED')
      out.push({
        id: `transfer:${t.id}:accept`,
        at: dayStart(t.effectiveDate).toISOString(),
        kind: 'transferred',
        ...base,
        reason: t.reason,
        actor: await by(t.decidedBy, 'transfer.accept'),
        ...recordedOnDay(dayStart(t.effectiveDate), t.decidedAt),
      });
    if (t.status === 'REFUSED' && t.decidedAt)
      out.push({
        id: `transfer:${t.id}:refuse`,
        at: t.decidedAt.toISOString(),
        kind: 'transfer_refused',
        ...base,
        ...(t.refuseReason ? { reason: t.refuseReason } : {}),
        actor: await by(t.decidedBy, 'transfer.refuse'),
      });
    if (t.status === 'CANCELLED' && t.decidedAt)
      out.push({
        id: `transfer:${t.id}:cancel`,
        at: t.decidedAt.toISOString(),
        kind: 'transfer_cancelled',
        ...base,
        actor: await by(t.decidedBy, 'transfer.cancel'),
      });
  }
  const kinds = {
    'transfer.request': 'transfer_requested',
    'transfer.accept': 'transferred',
    'transfer.refuse': 'transfer_refused',
    'transfer.cancel': 'transfer_cancelled',
  } as const;
  for (const r of rows) {
    const kind = kinds[r.action as keyof typeof kinds];
    const tid = r.after.transferId;
    if (!kind || typeof tid !== 'number' || kept.has(tid)) continue;
    const day = text(r.after.effectiveDate);
    const reason = text(r.after.reason);
    out.push({
      id: `transfer-log:${r.id}`,
      at: kind === 'transferred' && day ? dayStart(day).toISOString() : r.createdAt.toISOString(),
      kind,
      organization: await book.org(idsOf(r.after.toOrganizationId)[0] ?? 0, r.labels.names),
      fromOrganization: await book.org(idsOf(r.after.fromOrganizationId)[0] ?? 0, r.labels.names),
      ...(reason ? { reason } : {}),
      actor: await book.actorOf(r),
      ...(kind === 'transferred' && day ? recordedOnDay(dayStart(day), r.createdAt) : {}),
    });
  }
  return out;
}
