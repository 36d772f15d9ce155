import {
  fullName,
  formatDateTime,
  hasPermission,
  type AuditExportQuery,
  type AuditLabels,
  type AuditListQuery,
  type AuditListResponse,
  type AuditLog,
} from '@doanhoi/shared';
import { and, asc, count, desc, eq, exists, gte, inArray, like, lt, lte, not, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Actor, Deps } from '../lib/context';
import { maskSecrets } from './writer';
import { forbidden } from '../lib/errors';
import { cachedTotal, totalPages } from '../lib/totals';
import { organizations } from '../db/tables/organizations';
import { orgScope, scopeCondition, scopeKey, type OrgScope } from '../access/payments';
import { users } from '../db/tables/users';
import { userRowRedactor } from './redact';
import { auditLogOrganizations, auditLogs } from '../db/tables/audit';
import { allRows, firstRow } from '../db/engine';
import { scopeHolds } from '../access/scope';

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
export const AUDIT_ORG_CODE = 'audit.access';
export const AUDIT_GLOBAL_CODE = 'system.view_logs';

/** A bare day is a Vietnam calendar day (UTC+7, no daylight saving); anything else carries its zone. */
function startOf(value: string): Date {
  return new Date(DATE_ONLY.test(value) ? `${value}T00:00:00+07:00` : value);
}

/**
 * Stored snapshots are JSON; an unreadable one is shown as recorded rather than failing the page.
 * Masked again on the way out: rows written before masking (or by hand) must not show credentials either.
 */
function parseSnapshot(text: string | null): unknown {
  if (text == null) return null;
  try {
    return maskSecrets(JSON.parse(text));
  } catch {
    return text;
  }
}

function parseLabels(text: string | null): AuditLabels {
  if (text == null) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as AuditLabels) : {};
  } catch {
    return {};
  }
}

const selection = {
  log: auditLogs,
  actor: { id: users.id, code: users.code, familyName: users.familyName, givenName: users.givenName, email: users.email },
  organization: { id: organizations.id, name: organizations.name, code: organizations.code, type: organizations.type },
};

type Row = {
  log: typeof auditLogs.$inferSelect;
  actor: AuditLog['actor'] | { id: null };
  organization: AuditLog['organization'] | { id: null };
};

/**
 * Which rows show their IP address (docs/decisions.md): a global log reader sees every row's; an
 * organization's auditor only the rows it made itself, never another officer's (nor a webhook's).
 */
type IpRule = (actorId: number | null) => boolean;

function toLog({ log, actor, organization }: Row, showIp: IpRule): AuditLog {
  const labels = parseLabels(log.labels);
  return {
    id: log.id,
    actor: actor && actor.id != null ? (actor as AuditLog['actor']) : null,
    action: log.action,
    entity: log.entity,
    entityId: log.entityId,
    before: parseSnapshot(log.before),
    after: parseSnapshot(log.after),
    ...(showIp(log.actorId) ? { ip: log.ip } : {}),
    labels,
    organization: organization && organization.id != null ? (organization as AuditLog['organization']) : null,
    createdAt: log.createdAt.toISOString(),
  };
}

const linked = alias(organizations, 'linked_org');

/**
 * A change to a user has no organization of its own: it shows the first organization it concerns
 * (audit_log_organizations) that the caller may see, so the column is not blank for user rows.
 */
async function withConcernedOrganization(db: Deps['db'], scope: OrgScope, logs: AuditLog[]): Promise<AuditLog[]> {
  const ids = logs.filter((l) => l.organization == null).map((l) => l.id);
  if (ids.length === 0) return logs;
  const rows = await allRows(
    db
      .select({ logId: auditLogOrganizations.auditLogId, id: linked.id, name: linked.name, code: linked.code, type: linked.type })
      .from(auditLogOrganizations)
      .innerJoin(linked, eq(linked.id, auditLogOrganizations.organizationId))
      .where(and(inArray(auditLogOrganizations.auditLogId, ids), scope.all ? undefined : scopeCondition(scope, linked.path)))
      .orderBy(asc(linked.path)),
  );
  const first = new Map<number, AuditLog['organization']>();
  for (const { logId, ...org } of rows) if (!first.has(logId)) first.set(logId, org as AuditLog['organization']);
  return logs.map((l) => (l.organization == null && first.has(l.id) ? { ...l, organization: first.get(l.id)! } : l));
}

/**
 * The row's own organization lies in the scope, or one of the further organizations it concerns
 * (a change to a user: audit_log_organizations) does.
 */
function withinScope(db: Deps['db'], scope: OrgScope): SQL | undefined {
  if (scope.all) return undefined;
  const further = db
    .select({ one: sql`1` })
    .from(auditLogOrganizations)
    .innerJoin(linked, eq(linked.id, auditLogOrganizations.organizationId))
    .where(and(eq(auditLogOrganizations.auditLogId, auditLogs.id), scopeCondition(scope, linked.path)));
  return or(scopeCondition(scope, organizations.path), exists(further));
}

/**
 * Who changed what and when: read-only, newest first. A global system.view_logs holder (or a super
 * admin) reads every row; an audit.access holder reads the rows of the organizations beneath its grants,
 * and the changes to users that concern them, with other organizations' entries left out (redact.ts).
 */
export async function auditService({ db }: Deps, actor: Actor) {
  const global = hasPermission(actor.roles, AUDIT_GLOBAL_CODE);
  const scope = global ? ({ all: true } as const) : await orgScope(db, actor, AUDIT_ORG_CODE);
  const showIp: IpRule = global ? () => true : (actorId) => actorId === actor.id;
  const rowsToLogs = (rows: Row[]) => rows.map((r) => toLog(r, showIp));

  async function filters(q: AuditExportQuery): Promise<SQL | undefined> {
    // `to` as a bare day includes that whole day; as an instant it is inclusive.
    let to: SQL | undefined;
    if (q.to !== undefined) {
      to = DATE_ONLY.test(q.to)
        ? lt(auditLogs.createdAt, new Date(startOf(q.to).getTime() + DAY_MS))
        : lte(auditLogs.createdAt, startOf(q.to));
    }
    const chosen = [...new Set([...(q.action === undefined ? [] : [q.action]), ...(q.actions ?? [])])];
    let org: SQL | undefined;
    if (q.organizationId !== undefined) {
      const row = await firstRow(db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, q.organizationId)));
      // An organization outside the caller's reach is refused rather than answered empty.
      if (!scope.all && (!row || !scopeHolds(scope, row.path))) forbidden();
      // Rows of a deleted organization are kept (no foreign key): its own id still matches.
      org = row
        ? or(eq(auditLogs.organizationId, q.organizationId), withinScope(db, { all: false, paths: [row.path] }))
        : eq(auditLogs.organizationId, q.organizationId);
    }
    return and(
      withinScope(db, scope),
      org,
      q.actorId === undefined ? undefined : eq(auditLogs.actorId, q.actorId),
      q.entity === undefined ? undefined : eq(auditLogs.entity, q.entity),
      q.entityId === undefined ? undefined : eq(auditLogs.entityId, q.entityId),
      chosen.length ? inArray(auditLogs.action, chosen) : undefined,
      q.from === undefined ? undefined : gte(auditLogs.createdAt, startOf(q.from)),
      to,
      // Actions asked for by name are shown even when they are sign-ins: choosing "Đăng nhập" shows sign-ins.
      q.excludeAuth && !chosen.length ? not(like(auditLogs.action, 'auth.%')) : undefined,
    );
  }

  const base = (where: SQL | undefined) =>
    db
      .select(selection)
      .from(auditLogs)
      .leftJoin(users, eq(users.id, auditLogs.actorId))
      .leftJoin(organizations, eq(organizations.id, auditLogs.organizationId))
      .where(where)
      .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id));

  return {
    async list(q: AuditListQuery): Promise<AuditListResponse> {
      const where = await filters(q);
      const { page, limit, ...rest } = q;
      // audit_log_organizations rows are only written with their audit row, so audit_logs' version covers them.
      const total = await cachedTotal(
        db,
        ['audit_logs', 'organizations'],
        `${scopeKey(scope)}|${JSON.stringify(rest)}`,
        async () =>
          (await firstRow(
            db.select({ n: count() }).from(auditLogs).leftJoin(organizations, eq(organizations.id, auditLogs.organizationId)).where(where),
          ))!.n,
      );
      const logs = rowsToLogs(
        (await allRows(
          base(where)
            .limit(limit)
            .offset((page - 1) * limit),
        )) as Row[],
      );
      return {
        data: await withConcernedOrganization(db, scope, logs.map(await userRowRedactor(db, scope, logs))),
        total,
        page,
        limit,
        totalPages: totalPages(total, limit),
      };
    },

    /**
     * The filtered rows for the xlsx export, newest first, keyset-paged on (createdAt, id). The
     * filters are checked now (an out-of-scope organization is a 403), the rows read as the file streams.
     */
    async exportPages(q: AuditExportQuery, pageSize: number): Promise<() => AsyncGenerator<Record<string, string | null>[]>> {
      const where = await filters(q);
      return () => pages(where, pageSize);
    },
  };

  async function* pages(where: SQL | undefined, pageSize: number): AsyncGenerator<Record<string, string | null>[]> {
    let last: { at: Date; id: number } | null = null;
    for (;;) {
      const after: SQL | undefined = last
        ? or(lt(auditLogs.createdAt, last.at), and(eq(auditLogs.createdAt, last.at), lt(auditLogs.id, last.id)))
        : undefined;
      const rows = (await allRows(base(and(where, after)).limit(pageSize))) as Row[];
      if (rows.length === 0) return;
      const tail = rows[rows.length - 1]!.log;
      last = { at: tail.createdAt, id: tail.id };
      const logs = rowsToLogs(rows);
      yield (await withConcernedOrganization(db, scope, logs.map(await userRowRedactor(db, scope, logs)))).map((l) => ({
        time: formatDateTime(l.createdAt),
        actorCode: l.actor?.code ?? null,
        actorName: l.actor ? fullName(l.actor) : (l.labels.actor ?? null),
        action: l.action,
        entity: l.entity,
        entityId: l.entityId,
        target: l.labels.target ?? null,
        organization: l.organization ? `${l.organization.name} (${l.organization.code})` : null,
        ip: l.ip ?? null,
        before: l.before == null ? null : JSON.stringify(l.before),
        after: l.after == null ? null : JSON.stringify(l.after),
      }));
    }
  }
}
