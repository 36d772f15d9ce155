/**
 * The audit rows of a bulk change of users (bulk-update.ts), one per changed user, written in a
 * few multi-row statements. audit/writer.ts writes one row with a handful of look-ups each, which
 * held the single writer (and every other request) for seconds over 10,000 users. The rows are
 * the ones audit() writes for these entries: no organization of their own (user rows), the
 * organizations their readers may come from in audit_log_organizations, and the labels
 * audit/labels.ts would capture — the actor, the user, and the class, departments and units named
 * in the snapshots (bulk-update.test.ts compares them with auditLabels).
 */
import type { AuditLabels } from '@doanhoi/shared';
import { auditLogOrganizations, auditLogs } from '../db/tables/audit';
import { classes } from '../db/tables/classes';
import type { Tx } from '../db/client';
import { inJsonValues } from '../db/sqlite';
import { departments } from '../db/tables/departments';
import { organizations } from '../db/tables/organizations';
import { users } from '../db/tables/users';
import { allRows, runQuery } from '../db/engine';

export interface BulkAuditEntry {
  userId: number;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  organizationIds: number[];
}

const ONE: Record<string, 'class' | 'department' | 'organization'> = {
  classId: 'class',
  managementDepartmentId: 'department',
  trainingDepartmentId: 'department',
  organizationId: 'organization',
};
const MANY: Record<string, 'organization'> = { added: 'organization', organizationIds: 'organization' };
const CHUNK = 500;

/** Every `kind:id` a snapshot names, as audit/labels.ts collects them. */
function named(v: unknown, out: Set<string>, key?: string): void {
  if (Array.isArray(v)) {
    if (key && MANY[key]) for (const x of v) if (typeof x === 'number') out.add(`${MANY[key]}:${x}`);
    return;
  }
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (ONE[k] && typeof x === 'number') out.add(`${ONE[k]}:${x}`);
      else named(x, out, k);
    }
  }
}

async function names(tx: Tx, keys: Set<string>): Promise<Map<string, string>> {
  const ids = (kind: string) => [...keys].filter((k) => k.startsWith(`${kind}:`)).map((k) => Number(k.slice(kind.length + 1)));
  const out = new Map<string, string>();
  const put = (kind: string, rows: { id: number; name: string }[]) => rows.forEach((r) => out.set(`${kind}:${r.id}`, r.name));
  const userIds = ids('user');
  for (let i = 0; i < userIds.length; i += CHUNK) {
    const rows = await allRows(
      tx
        .select({ id: users.id, f: users.familyName, g: users.givenName })
        .from(users)
        .where(inJsonValues(users.id, userIds.slice(i, i + CHUNK))),
    );
    put(
      'user',
      rows.map((r) => ({ id: r.id, name: `${r.f} ${r.g}`.trim() })),
    );
  }
  const small = [
    ['class', classes],
    ['department', departments],
    ['organization', organizations],
  ] as const;
  for (const [kind, table] of small) {
    const list = ids(kind);
    if (list.length)
      put(kind, await allRows(tx.select({ id: table.id, name: table.name }).from(table).where(inJsonValues(table.id, list))));
  }
  return out;
}

export async function writeBulkAudit(tx: Tx, actorId: number, ip: string | null, entries: BulkAuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const perEntry = entries.map((e) => {
    const keys = new Set<string>();
    named(e.before, keys);
    named(e.after, keys);
    keys.add(`user:${e.userId}`);
    keys.add(`user:${actorId}`);
    return keys;
  });
  const known = await names(tx, new Set(perEntry.flatMap((k) => [...k])));
  const createdAt = new Date();
  for (let i = 0; i < entries.length; i += CHUNK) {
    const chunk = entries.slice(i, i + CHUNK);
    const rows = chunk.map((e, j) => {
      const own: Record<string, string> = {};
      for (const k of perEntry[i + j]!) if (known.has(k)) own[k] = known.get(k)!;
      const target = own[`user:${e.userId}`];
      const labels: AuditLabels = { actor: own[`user:${actorId}`], target, user: target, names: own };
      return {
        actorId,
        action: 'user.bulk_update',
        entity: 'user',
        entityId: String(e.userId),
        before: JSON.stringify(e.before),
        after: JSON.stringify(e.after),
        ip,
        organizationId: null,
        labels: JSON.stringify(Object.fromEntries(Object.entries(labels).filter(([, v]) => v !== undefined))),
        createdAt,
      };
    });
    // RETURNING's order is not promised: each row is found again by its user (one per user).
    const idOf = new Map(
      (await allRows(tx.insert(auditLogs).values(rows).returning({ id: auditLogs.id, entityId: auditLogs.entityId }))).map((r) => [
        r.entityId,
        r.id,
      ]),
    );
    const links = chunk.flatMap((e) =>
      [...new Set(e.organizationIds)].map((organizationId) => ({ auditLogId: idOf.get(String(e.userId))!, organizationId })),
    );
    for (let k = 0; k < links.length; k += CHUNK) await runQuery(tx.insert(auditLogOrganizations).values(links.slice(k, k + CHUNK)));
  }
}
