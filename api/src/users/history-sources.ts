/**
 * What a member's history (history.ts) reads besides the records: the audit rows on the user and
 * the membership rows written on organizations, parsed once; and the names an event shows — the
 * record's own while it exists, else the name the audit row captured (audit/labels.ts).
 */
import type { AuditLabels } from '@doanhoi/shared';
import type { HistoryLabel, UserHistoryEvent } from '@doanhoi/shared/schemas/user-history';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { auditLogs } from '../db/tables/audit';
import type { Db } from '../db/client';
import { organizations } from '../db/tables/organizations';
import { paymentCampaigns } from '../db/tables/payments';
import { roles } from '../db/tables/roles';
import { users } from '../db/tables/users';
import { allRows, firstRow } from '../db/engine';
import { onPg } from '../db/dialect';

/** `sortAt`: where a day's event (a transfer's effective day, an ending) stands among that day's others — when it was recorded, if on that day. Not sent. */
export type Event = UserHistoryEvent & { sortAt?: string };

const vnDay = (d: Date) => new Date(d.getTime() + 7 * 3600_000).toISOString().slice(0, 10);
/** The instant a day's event was recorded, when that was on the day itself (else the day's start orders it). */
export const recordedOnDay = (day: Date, recorded: Date | null | undefined): { sortAt?: string } =>
  recorded && vnDay(recorded) === vnDay(day) ? { sortAt: recorded.toISOString() } : {};

export interface AuditRow {
  id: number;
  action: string;
  entity: string;
  entityId: string | null;
  actorId: number | null;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  /** user.roles.* snapshots are lists of links. */
  beforeList: unknown[];
  afterList: unknown[];
  labels: AuditLabels;
  createdAt: Date;
}

/** Actions on the user that the history reads (sign-ins and profile edits are not history). */
const USER_ACTIONS = [
  'user.create',
  'user.bulk_update',
  'membership.set',
  'membership.end',
  'user.roles.grant',
  'user.roles.assign',
  'user.roles.revoke_on_leave',
  'transfer.request',
  'transfer.accept',
  'transfer.refuse',
  'transfer.cancel',
];

const parse = (s: string | null): unknown => {
  if (!s) return null;
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
};
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

function toRow(r: typeof auditLogs.$inferSelect): AuditRow {
  const before = parse(r.before);
  const after = parse(r.after);
  return {
    id: r.id,
    action: r.action,
    entity: r.entity,
    entityId: r.entityId,
    actorId: r.actorId,
    before: obj(before),
    after: obj(after),
    beforeList: Array.isArray(before) ? before : [],
    afterList: Array.isArray(after) ? after : [],
    labels: obj(parse(r.labels)) as AuditLabels,
    createdAt: r.createdAt,
  };
}

/**
 * The user's own audit rows (the entity index), and the membership rows kept on organizations that
 * name them: an add, a removal, a bulk removal. Those carry the user only in their snapshot, so
 * they are matched on its exact JSON prefix (audit() writes `{"userId":N,…}` first) or list.
 */
export async function auditRowsOf(db: Db, userId: number): Promise<AuditRow[]> {
  const own = await allRows(
    db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entity, 'user'), eq(auditLogs.entityId, String(userId)), inArray(auditLogs.action, USER_ACTIONS))),
  );
  const onOrganizations = await allRows(
    db
      .select()
      .from(auditLogs)
      .where(
        and(
          eq(auditLogs.entity, 'organization'),
          or(
            and(eq(auditLogs.action, 'membership.add'), sql`${auditLogs.after} LIKE ${`{"userId":${userId},%`}`),
            and(eq(auditLogs.action, 'membership.remove'), eq(auditLogs.before, JSON.stringify({ userId }))),
            and(
              eq(auditLogs.action, 'membership.bulk_remove'),
              onPg()
                ? sql`(${auditLogs.before})::jsonb -> 'userIds' @> ${JSON.stringify([userId])}::jsonb`
                : sql`EXISTS (SELECT 1 FROM json_each(${auditLogs.before}, '$.userIds') WHERE value = ${userId})`,
            ),
          ),
        ),
      ),
  );
  return [...own, ...onOrganizations].map(toRow).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
}

type Kind = 'organization' | 'user' | 'role' | 'payment_campaign';

/** Names by kind and id, each looked up once per request. */
export function nameBook(db: Db) {
  const memo = new Map<string, { name: string; path?: string } | null>();
  async function current(kind: Kind, id: number) {
    const key = `${kind}:${id}`;
    if (!memo.has(key)) {
      let found: { name: string; path?: string } | undefined;
      if (kind === 'organization')
        found = await firstRow(
          db.select({ name: organizations.name, path: organizations.path }).from(organizations).where(eq(organizations.id, id)),
        );
      else if (kind === 'user') {
        const u = await firstRow(db.select({ f: users.familyName, g: users.givenName }).from(users).where(eq(users.id, id)));
        found = u && { name: `${u.f} ${u.g}`.trim() };
      } else if (kind === 'role') found = await firstRow(db.select({ name: roles.displayName }).from(roles).where(eq(roles.id, id)));
      else found = await firstRow(db.select({ name: paymentCampaigns.name }).from(paymentCampaigns).where(eq(paymentCampaigns.id, id)));
      memo.set(key, found ?? null);
    }
    return memo.get(key)!;
  }
  /** The live name, else the audit row's, else the bare id. */
  const label = async (kind: Kind, id: number, names?: Record<string, string>, fallback?: string): Promise<HistoryLabel> => {
    const live = await current(kind, id);
    if (live) return { id, name: live.name };
    return { id: null, name: names?.[`${kind}:${id}`] ?? fallback ?? `#${id}` };
  };
  return {
    label,
    org: (id: number, names?: Record<string, string>) => label('organization', id, names),
    /** The organization's path now ('' once deleted): the deepest of a chain is the unit acted on. */
    path: async (id: number) => (await current('organization', id))?.path ?? '',
    user: async (id: number | null | undefined, fallback?: string): Promise<HistoryLabel | undefined> =>
      id != null ? await label('user', id, undefined, fallback) : fallback ? { id: null, name: fallback } : undefined,
    /** Who wrote an audit row: the user now, or the name the row kept. */
    actorOf: async (r: AuditRow): Promise<HistoryLabel | undefined> =>
      r.actorId != null
        ? await label('user', r.actorId, r.labels.names, r.labels.actor)
        : r.labels.actor
          ? { id: null, name: r.labels.actor }
          : undefined,
  };
}
export type NameBook = ReturnType<typeof nameBook>;

/** Positive integer ids of a snapshot value (a list, or one id). */
export const idsOf = (v: unknown): number[] =>
  (Array.isArray(v) ? v : [v]).filter((x): x is number => typeof x === 'number' && Number.isInteger(x) && x > 0);

/** The deepest of these organizations (the unit acted on; its parents joined or left with it). */
export async function deepest(book: NameBook, ids: number[]): Promise<number | undefined> {
  let best: number | undefined;
  for (const id of ids) if (best === undefined || (await book.path(id)).length > (await book.path(best)).length) best = id;
  return best;
}
