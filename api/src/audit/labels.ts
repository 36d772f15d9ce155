/**
 * The names an audit row speaks of (issue 26), captured when the row is written: the actor, the
 * record itself, the person, organization and campaign it concerns, and every id its snapshots
 * name (a role link's role and organization, a user's class and departments, the organizations
 * a membership change added or removed). Read back as they were, so the log still says
 * "Chi đoàn 22CNTT1" after that organization is renamed or deleted. Older rows got the live
 * names by the 0030 backfill.
 */
import { AUDIT_REF_MANY, AUDIT_REF_ONE, type AuditLabels, type AuditRefKind } from '@doanhoi/shared';
import { eq, inArray, sql, type Column, type SQL, type Table } from 'drizzle-orm';
import { classes } from '../db/tables/classes';
import { departments } from '../db/tables/departments';
import { organizations } from '../db/tables/organizations';
import { feeLevels, paymentAssignments, paymentCampaigns, paymentOrders, payosConfigs } from '../db/tables/payments';
import { roles } from '../db/tables/roles';
import { users } from '../db/tables/users';
import { currentTransaction, firstRow, sqlAll, type SqlRunner } from '../db/engine';
import type { AuditReader, AuditTarget } from './organization';

/** Enough names for a sentence; a bulk removal of hundreds is told by its count. */
const MAX_PER_KIND = 50;

const isKind = (entity: string): entity is AuditRefKind =>
  ['user', 'organization', 'role', 'department', 'class', 'payment_campaign', 'fee_level'].includes(entity);
const asId = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);
const rec = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const personName = (s: Record<string, unknown>) => [str(s.familyName), str(s.givenName)].filter(Boolean).join(' ') || undefined;

function collect(v: unknown, wanted: Map<AuditRefKind, Set<number>>, key?: string): void {
  const add = (kind: AuditRefKind, id: number | null) => {
    if (id == null) return;
    const set = wanted.get(kind) ?? new Set<number>();
    if (set.size < MAX_PER_KIND) set.add(id);
    wanted.set(kind, set);
  };
  if (Array.isArray(v)) {
    if (key && AUDIT_REF_MANY[key]) for (const x of v) add(AUDIT_REF_MANY[key]!, asId(x));
    else for (const x of v) collect(x, wanted);
    return;
  }
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (AUDIT_REF_ONE[k] && typeof x === 'number') add(AUDIT_REF_ONE[k]!, asId(x));
      else collect(x, wanted, k);
    }
  }
}

/** One query for every kind of record named; a transaction's own lookups are remembered (bulk writes name the same campaign each row). */
const perTransaction = new WeakMap<object, Map<string, string | null>>();

/** The name column of each kind's table, and the table. */
const NAMED: Record<AuditRefKind, { table: Table; id: Column; name: SQL }> = {
  user: { table: users, id: users.id, name: sql`${users.familyName} || ' ' || ${users.givenName}` },
  organization: { table: organizations, id: organizations.id, name: sql`${organizations.name}` },
  role: { table: roles, id: roles.id, name: sql`${roles.displayName}` },
  department: { table: departments, id: departments.id, name: sql`${departments.name}` },
  class: { table: classes, id: classes.id, name: sql`${classes.name}` },
  payment_campaign: { table: paymentCampaigns, id: paymentCampaigns.id, name: sql`${paymentCampaigns.name}` },
  fee_level: { table: feeLevels, id: feeLevels.id, name: sql`${feeLevels.levelName}` },
};

/**
 * The names of these records, every kind in one statement (UNION ALL): an audited write named its
 * actor, its person and its unit in a round trip each (PostgreSQL: each about a quarter of a
 * millisecond of the API's and the server's CPU).
 */
async function lookup(db: AuditReader, wanted: [AuditRefKind, number[]][]): Promise<{ kind: AuditRefKind; id: number; name: string }[]> {
  const parts = wanted.map(([kind, ids]) => {
    const t = NAMED[kind];
    // The kind is one of NAMED's keys, never input: a literal, so PostgreSQL types the column as text in every branch.
    return sql`SELECT ${sql.raw(`'${kind}'`)} AS kind, ${t.id} AS id, ${t.name} AS name FROM ${t.table} WHERE ${inArray(t.id, ids)}`;
  });
  const rows = await sqlAll<{ kind: AuditRefKind; id: number; name: string }>(
    db as unknown as SqlRunner,
    sql.join(parts, sql` UNION ALL `),
  );
  return rows.map((r) => ({ kind: r.kind, id: Number(r.id), name: r.kind === 'user' ? r.name.trim() : r.name }));
}

async function resolve(db: AuditReader, wanted: Map<AuditRefKind, Set<number>>): Promise<Record<string, string>> {
  // Kept for the transaction it is asked in (db/engine.ts); outside one never (names change between requests).
  const tx = currentTransaction();
  const cache = tx ? (perTransaction.get(tx) ?? new Map<string, string | null>()) : new Map<string, string | null>();
  if (tx) perTransaction.set(tx, cache);
  const missing: [AuditRefKind, number[]][] = [];
  for (const [kind, set] of wanted) {
    const ids = [...set].filter((id) => !cache.has(`${kind}:${id}`));
    if (ids.length) missing.push([kind, ids]);
    for (const id of ids) cache.set(`${kind}:${id}`, null);
  }
  if (missing.length) for (const r of await lookup(db, missing)) cache.set(`${r.kind}:${r.id}`, r.name);
  const names: Record<string, string> = {};
  for (const [kind, set] of wanted)
    for (const id of set) {
      const name = cache.get(`${kind}:${id}`);
      if (name) names[`${kind}:${id}`] = name;
    }
  return names;
}

/** The record's own name as its snapshot gives it (a deleted record's `before`). */
function snapshotName(entity: string, snap: Record<string, unknown>): string | undefined {
  if (entity === 'user') return personName(snap);
  if (entity === 'role') return str(snap.displayName) ?? str(snap.name);
  if (entity === 'fee_level') return str(snap.levelName);
  if (entity === 'import_session') return str(snap.fileName);
  return str(snap.name);
}

export async function auditLabels(
  db: AuditReader,
  e: AuditTarget & { action: string; actorId: number | null },
  organizationId: number | null,
): Promise<AuditLabels> {
  const wanted = new Map<AuditRefKind, Set<number>>();
  const id = asId(Number(e.entityId));
  const snap = { ...rec(e.before), ...rec(e.after) };
  // Assignments and orders name their member and campaign only in their row.
  let extra: { userId: number | null; campaignId: number | null } | undefined;
  if (id != null && e.entity === 'payment_assignment' && (snap.userId == null || snap.campaignId == null)) {
    extra = await firstRow(
      db
        .select({ userId: paymentAssignments.userId, campaignId: paymentAssignments.campaignId })
        .from(paymentAssignments)
        .where(eq(paymentAssignments.id, id)),
    );
  } else if (id != null && e.entity === 'payment_order') {
    extra = await firstRow(
      db.select({ userId: paymentOrders.userId, campaignId: paymentOrders.campaignId }).from(paymentOrders).where(eq(paymentOrders.id, id)),
    );
  } else if (id != null && e.entity === 'payos_config' && snap.campaignId == null) {
    const row = await firstRow(db.select({ campaignId: payosConfigs.campaignId }).from(payosConfigs).where(eq(payosConfigs.id, id)));
    extra = row && { userId: null, campaignId: row.campaignId };
  }
  const userId = asId(snap.userId) ?? extra?.userId ?? null;
  const campaignId = asId(snap.campaignId) ?? extra?.campaignId ?? null;
  collect(e.before, wanted);
  collect(e.after, wanted);
  const want = (kind: AuditRefKind, v: number | null) => v != null && wanted.set(kind, (wanted.get(kind) ?? new Set()).add(v));
  if (isKind(e.entity)) want(e.entity, id);
  want('user', e.actorId);
  want('user', userId);
  want('payment_campaign', campaignId);
  want('organization', organizationId);
  const names = await resolve(db, wanted);

  const target = snapshotName(e.entity, snap) ?? (isKind(e.entity) && id != null ? names[`${e.entity}:${id}`] : undefined);
  const labels: AuditLabels = {
    actor: e.actorId == null ? undefined : names[`user:${e.actorId}`],
    target,
    user: e.entity === 'user' ? target : userId != null ? names[`user:${userId}`] : undefined,
    organization: organizationId != null ? names[`organization:${organizationId}`] : undefined,
    campaign: e.entity === 'payment_campaign' ? target : campaignId != null ? names[`payment_campaign:${campaignId}`] : undefined,
  };
  const out = Object.fromEntries(Object.entries(labels).filter(([, v]) => v !== undefined)) as AuditLabels;
  if (Object.keys(names).length) out.names = names;
  return out;
}
