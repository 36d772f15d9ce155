import type { Context } from 'hono';
import { auditLabels } from './labels';
import { auditOrganization, userAuditOrganizations } from './organization';
import { auditLogOrganizations, auditLogs } from '../db/tables/audit';
import type { Db } from '../db/client';
import type { AppEnv } from '../lib/context';
import { clientIp } from '../lib/headers';
import { sql } from 'drizzle-orm';
import { firstRow, runQuery, sqlRun, type SqlRunner } from '../db/engine';
import { isPg } from '../db/postgres';

type Tx = Pick<Db, 'insert' | 'select'> & SqlRunner;

const SECRET_KEY = /pass(word)?|hash|secret|token|api_?key|checksum/i;

/** Deep copy with secret-looking fields replaced, so audit rows never hold credentials. */
export function maskSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecrets);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? (v == null ? v : '***') : maskSecrets(v);
    return out;
  }
  return value;
}

export interface AuditEntry {
  actorId: number | null;
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
  /** The organization the change concerns; derived from the entity when omitted (audit/organization.ts). */
  organizationId?: number | null;
  /** Further organizations a change to a user concerns; derived when omitted (userAuditOrganizations). */
  organizationIds?: number[];
}

/**
 * Call inside the write's transaction so the change and its record commit together. PostgreSQL writes the
 * row and its organizations in one statement (a round trip is most of what a small statement costs there).
 */
export async function audit(tx: Tx, e: AuditEntry): Promise<void> {
  const organizationId = e.organizationId === undefined ? await auditOrganization(tx, e) : e.organizationId;
  const insert = tx.insert(auditLogs).values({
    actorId: e.actorId,
    action: e.action,
    entity: e.entity,
    entityId: e.entityId == null ? null : String(e.entityId),
    before: e.before === undefined ? null : JSON.stringify(maskSecrets(e.before)),
    after: e.after === undefined ? null : JSON.stringify(maskSecrets(e.after)),
    ip: e.ip ?? null,
    organizationId,
    labels: JSON.stringify(await auditLabels(tx, e, organizationId)),
  });
  const more = [...new Set(e.organizationIds ?? (await userAuditOrganizations(tx, e)))];
  if (isPg(tx) && more.length) {
    await sqlRun(
      tx,
      sql`WITH a AS (${insert.returning({ id: auditLogs.id }).getSQL()}) INSERT INTO ${auditLogOrganizations} (audit_log_id, organization_id) SELECT a.id, o FROM a, unnest(${`{${more.join(',')}}`}::int[]) o`,
    );
    return;
  }
  const row = await firstRow(insert.returning({ id: auditLogs.id }));
  if (more.length)
    await runQuery(tx.insert(auditLogOrganizations).values(more.map((organizationId) => ({ auditLogId: row.id, organizationId }))));
}

/** Who and where, for services that audit: built once per request. */
export function auditContext(c: Context<AppEnv>): { actorId: number | null; ip: string | null } {
  return { actorId: c.get('actor')?.id ?? null, ip: clientIp(c) };
}
