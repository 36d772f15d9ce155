/** Reading transfers: the scoped, paginated list and the response shape of one request. */
import type { Transfer, TransferStatus } from '@doanhoi/shared';
import { and, count, desc, eq, gte, inArray, lt, or, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../db/client';
import type { Actor } from '../lib/context';
import { totalPages } from '../lib/totals';
import { organizations } from '../db/tables/organizations';
import { scopeHolds, subtreeRange, type UserScope } from '../access/scope';
import { users } from '../db/tables/users';
import { DECIDE_CODES, decidingOrg, holdsIn, REQUEST_CODES, requestingOrg, transferScope } from './access';
import { transfers } from '../db/tables/transfers';
import { allRows, firstRow } from '../db/engine';
import { mapInOrder } from '../lib/in-order';

const fromOrg = alias(organizations, 'from_org');
const toOrg = alias(organizations, 'to_org');

type Row = typeof transfers.$inferSelect;
const orgRef = (o: typeof organizations.$inferSelect) => ({ id: o.id, name: o.name, code: o.code, type: o.type });

function subtree(column: SQLWrapper, paths: string[]): SQL | undefined {
  if (paths.length === 0) return undefined;
  return or(...paths.map((p) => and(gte(column, subtreeRange(p)[0]), lt(column, subtreeRange(p)[1]))!));
}

/** Rows with their member and units, mapped; `canDecide`/`canCancel` for this caller. */
async function mapRows(
  db: Db,
  actor: Actor,
  rows: { t: Row; u: typeof users.$inferSelect; f: typeof organizations.$inferSelect; o: typeof organizations.$inferSelect }[],
): Promise<Transfer[]> {
  const peopleIds = [...new Set(rows.flatMap((r) => [r.t.requestedBy, r.t.decidedBy]).filter((x): x is number => x != null))];
  const people = new Map(
    peopleIds.length
      ? (
          await allRows(
            db
              .select({ id: users.id, code: users.code, familyName: users.familyName, givenName: users.givenName })
              .from(users)
              .where(inArray(users.id, peopleIds)),
          )
        ).map((p) => [p.id, p])
      : [],
  );
  return await mapInOrder(rows, async ({ t, u, f, o }) => {
    const pending = t.status === 'PENDING';
    return {
      id: t.id,
      status: t.status,
      userId: t.userId,
      fromOrganizationId: t.fromOrganizationId,
      toOrganizationId: t.toOrganizationId,
      user: { id: u.id, code: u.code, familyName: u.familyName, givenName: u.givenName },
      fromOrganization: orgRef(f),
      toOrganization: orgRef(o),
      reason: t.reason,
      effectiveDate: t.effectiveDate,
      requestedSide: t.requestedSide,
      requestedBy: (t.requestedBy != null && people.get(t.requestedBy)) || null,
      createdAt: t.createdAt.toISOString(),
      decidedBy: (t.decidedBy != null && people.get(t.decidedBy)) || null,
      decidedAt: t.decidedAt?.toISOString() ?? null,
      refuseReason: t.refuseReason ?? null,
      canDecide: pending && (await holdsIn(db, actor, DECIDE_CODES, decidingOrg(t))),
      canCancel:
        pending &&
        (t.requestedBy === actor.id ||
          (t.requestedSide === 'from' && t.userId === actor.id) ||
          (await holdsIn(db, actor, REQUEST_CODES, requestingOrg(t)))),
    };
  });
}

const base = (db: Db) =>
  db
    .select({ t: transfers, u: users, f: fromOrg, o: toOrg })
    .from(transfers)
    .innerJoin(users, eq(users.id, transfers.userId))
    .innerJoin(fromOrg, eq(fromOrg.id, transfers.fromOrganizationId))
    .innerJoin(toOrg, eq(toOrg.id, transfers.toOrganizationId));

export async function transferById(db: Db, actor: Actor, id: number): Promise<Transfer | undefined> {
  const row = await firstRow(base(db).where(eq(transfers.id, id)));
  return row ? (await mapRows(db, actor, [row]))[0] : undefined;
}

/** May the caller see this request: one of its units is in their scope, or it concerns or came from them. */
export function canSee(scope: UserScope, actor: Actor, t: Transfer, paths: { from: string; to: string }): boolean {
  if (scope.all || t.userId === actor.id || t.requestedBy?.id === actor.id) return true;
  return scopeHolds(scope, paths.from) || scopeHolds(scope, paths.to);
}

export interface ListQuery {
  page: number;
  limit: number;
  status?: TransferStatus;
  organizationId?: number;
  direction?: 'incoming' | 'outgoing';
  userId?: number;
}

/**
 * GET /transfers: what the caller may see (requests from or to a unit in their scope, and their
 * own), newest first; `organizationId` narrows to requests from or to that unit or a unit beneath it.
 */
export async function listTransfers(db: Db, actor: Actor, q: ListQuery) {
  const scope = await transferScope(db, actor);
  const conds: (SQL | undefined)[] = [];
  if (!scope.all) {
    const own = or(eq(transfers.userId, actor.id), eq(transfers.requestedBy, actor.id));
    conds.push(or(own, subtree(fromOrg.path, scope.paths), subtree(toOrg.path, scope.paths)));
  }
  if (q.status) conds.push(eq(transfers.status, q.status));
  if (q.userId) conds.push(eq(transfers.userId, q.userId));
  let paths: string[] | null = null;
  if (q.organizationId) {
    const o = await firstRow(db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, q.organizationId)));
    paths = o ? [o.path] : ['/none/'];
  } else if (q.direction && !scope.all) paths = scope.paths;
  if (paths) {
    const incoming = subtree(toOrg.path, paths);
    const outgoing = subtree(fromOrg.path, paths);
    conds.push(q.direction === 'incoming' ? incoming : q.direction === 'outgoing' ? outgoing : or(incoming, outgoing));
  }
  const where = and(...conds.filter(Boolean));
  const total = (await firstRow(
    db
      .select({ n: count() })
      .from(transfers)
      .innerJoin(fromOrg, eq(fromOrg.id, transfers.fromOrganizationId))
      .innerJoin(toOrg, eq(toOrg.id, transfers.toOrganizationId))
      .where(where),
  ))!.n;
  const rows =
    total > (q.page - 1) * q.limit
      ? await allRows(
          base(db)
            .where(where)
            .orderBy(desc(transfers.id))
            .limit(q.limit)
            .offset((q.page - 1) * q.limit),
        )
      : [];
  return { data: await mapRows(db, actor, rows), total, page: q.page, limit: q.limit, totalPages: totalPages(total, q.limit) };
}
