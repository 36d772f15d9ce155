import { hasPermission, type UserListQuery, type UserListResponse } from '@doanhoi/shared';
import type { UserBulkFilter } from '@doanhoi/shared/schemas/users-bulk';
import type { Db } from '../db/client';
import { filterKey } from '../lib/text-filter';
import type { Actor } from '../lib/context';
import { forbidden } from '../lib/errors';
import { freshCache } from '../lib/freshness';
import { totalPages } from '../lib/totals';
import { pathIds } from '../access/organization-context';
import { listPage, searchWords, type ListFilter } from './list';
import { toUser } from '../access/user-mapper';
import { paidUserIds } from './paid';
import { scopeKey, userScope } from '../access/scope';
import { orgById } from '../access/organizations';

/** An organization's path: the row kept until the tree is written (access/organizations.ts orgById). */
export async function organizationPath(db: Db, id: number): Promise<string | null> {
  return (await orgById(db, id))?.path ?? null;
}

/** Does the caller hold `code` in this organization (its own or an ancestor's role, or globally)? */
export function holdsIn(actor: Actor, code: string, organizationId: number, path: string | null): boolean {
  const ctx = path ? { organizationId, ancestorIds: pathIds(path).filter((o) => o !== organizationId) } : null;
  return hasPermission(actor.roles, code, ctx);
}

/**
 * Pages already served, until the next write anywhere in the database: the users screen asks for
 * the same first pages over and over, and a page's rows carry class and department names that
 * other screens write. The key holds the caller's scope, so callers never share another scope's page.
 * Bounded by rows, not pages (20,000: 2,000 pages of 10, or 20 of the 1,000 a page may ask for), so that
 * large pages cannot fill memory; 200 pages were too few for admins paging 1–1,000 at random: a wider one
 * sent a tenth fewer statements a response under the read mix (docs/benchmark.md "Session 32").
 */
const listPages = freshCache<UserListResponse>(
  20_000,
  ['users', 'organization_members', 'organizations', 'classes', 'departments'],
  (page) => page.users.length,
);

/** A kept page's paid flags by its ids: a page served again sends no statement while no payment is written. Shared: never mutate. */
const paidFlags = freshCache<Set<number>>(2_000, ['payment_assignments', 'payment_orders']);

/**
 * The users list's filter for this caller, for GET /users and what acts on its rows (a bulk change,
 * bulk-checks.ts): the users.access scope, narrowed to an organization's subtree when asked (inside
 * the caller's scope, that subtree is the whole restriction), search words included; and its cache key.
 */
export async function listFilterFor(db: Db, actor: Actor, q: UserBulkFilter): Promise<{ filter: ListFilter; key: string }> {
  let scope = await userScope(db, actor, 'users.access');
  if (q.organizationId !== undefined) {
    const path = await organizationPath(db, q.organizationId);
    if (!scope.all && !holdsIn(actor, 'users.access', q.organizationId, path)) forbidden();
    scope = { all: false, paths: path ? [path] : [] };
  }
  const words = searchWords(q.search);
  const filter = {
    words,
    userType: q.userType,
    membershipStatus: q.membershipStatus,
    isActive: q.isActive,
    paths: scope.all ? null : scope.paths,
  };
  const key = filterKey({
    words: words.join(' '),
    userType: q.userType,
    membershipStatus: q.membershipStatus,
    isActive: q.isActive,
    scope: scopeKey(scope),
  });
  return { filter, key };
}

/**
 * GET /users for one caller: users in the caller's users.access scope (narrowed to an
 * organization's subtree when asked), newest first. A plain function rather than a usersService
 * method: the list is the hottest route, and building the service's closures cost more than a cached page.
 */
export async function listUsers(db: Db, actor: Actor, q: UserListQuery): Promise<UserListResponse> {
  const { filter, key } = await listFilterFor(db, actor, q);
  // The paid flags read with a page built by this request (its row statement, users/rows.ts).
  let paidNow: Set<number> | undefined;
  const page = await listPages.get(db, `${key}|${q.page}|${q.limit}`, async () => {
    const { rows, total, capped } = await listPage(db, filter, key, q.limit, (q.page - 1) * q.limit);
    paidNow = new Set(rows.filter((r) => r.paid).map((r) => r.id));
    return {
      users: rows.map((r) => ({ ...toUser(r), memberOf: r.memberOf, hasPaidFees: false })),
      total,
      ...(capped ? { totalCapped: true } : {}),
      page: q.page,
      limit: q.limit,
      totalPages: totalPages(total, q.limit),
    };
  });
  // Read outside the cached page (which payment writes do not invalidate): one indexed query for the page's ids, kept until a payment is written.
  const ids = page.users.map((u) => u.id);
  const paid = paidNow ?? (await paidFlags.get(db, ids.join(','), () => paidUserIds(db, ids)));
  return paid.size === 0 ? page : { ...page, users: page.users.map((u) => (paid.has(u.id) ? { ...u, hasPaidFees: true } : u)) };
}
