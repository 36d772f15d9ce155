import type { AuditListQuery, AuditListResponse, AuditLog } from '@doanhoi/shared';
import { and, count, desc, eq, gte, lt, lte, type SQL } from 'drizzle-orm';
import type { Deps } from '../lib/context';
import { cachedTotal, totalPages } from '../lib/totals';
import { users } from '../users/schema';
import { auditLogs } from './schema';

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A bare day is a Vietnam calendar day (UTC+7, no daylight saving); anything else carries its zone. */
function startOf(value: string): Date {
  return new Date(DATE_ONLY.test(value) ? `${value}T00:00:00+07:00` : value);
}

/** Stored snapshots are JSON; an unreadable one is shown as recorded rather than failing the page. */
function parseSnapshot(text: string | null): unknown {
  if (text == null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Who changed what and when: read-only, newest first. */
export function auditService({ db }: Deps) {
  function filters(q: AuditListQuery): SQL | undefined {
    // `to` as a bare day includes that whole day; as an instant it is inclusive.
    let to: SQL | undefined;
    if (q.to !== undefined) {
      to = DATE_ONLY.test(q.to)
        ? lt(auditLogs.createdAt, new Date(startOf(q.to).getTime() + DAY_MS))
        : lte(auditLogs.createdAt, startOf(q.to));
    }
    return and(
      q.actorId === undefined ? undefined : eq(auditLogs.actorId, q.actorId),
      q.entity === undefined ? undefined : eq(auditLogs.entity, q.entity),
      q.entityId === undefined ? undefined : eq(auditLogs.entityId, q.entityId),
      q.action === undefined ? undefined : eq(auditLogs.action, q.action),
      q.from === undefined ? undefined : gte(auditLogs.createdAt, startOf(q.from)),
      to,
    );
  }

  return {
    list(q: AuditListQuery): AuditListResponse {
      const where = filters(q);
      const { page, limit, ...rest } = q;
      const total = cachedTotal(db, ['audit_logs'], JSON.stringify(rest), () =>
        db.select({ n: count() }).from(auditLogs).where(where).get()!.n,
      );
      const rows = db
        .select({
          log: auditLogs,
          actor: { id: users.id, code: users.code, familyName: users.familyName, givenName: users.givenName, email: users.email },
        })
        .from(auditLogs)
        .leftJoin(users, eq(users.id, auditLogs.actorId))
        .where(where)
        .orderBy(desc(auditLogs.createdAt), desc(auditLogs.id))
        .limit(limit)
        .offset((page - 1) * limit)
        .all();
      const data: AuditLog[] = rows.map(({ log, actor }) => ({
        id: log.id,
        actor: actor && actor.id != null ? actor : null,
        action: log.action,
        entity: log.entity,
        entityId: log.entityId,
        before: parseSnapshot(log.before),
        after: parseSnapshot(log.after),
        ip: log.ip,
        createdAt: log.createdAt.toISOString(),
      }));
      return { data, total, page, limit, totalPages: totalPages(total, limit) };
    },
  };
}
