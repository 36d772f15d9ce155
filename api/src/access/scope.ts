import { permissionScope } from '@doanhoi/shared';
import { and, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Actor } from '../lib/context';
import { freshCache } from '../lib/freshness';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { users } from '../db/tables/users';
import { allRows } from '../db/engine';
import { perDb } from '../lib/per-db';

/**
 * Which users a permission reaches: all of them (global grant or super admin), or the active
 * members of the organizations where it is held and of every organization beneath them.
 */
export type UserScope = { all: true } | { all: false; paths: string[] };

/**
 * The subtree under a materialised path as a range on organizations.path, which the path index
 * can seek (a LIKE cannot use it): paths hold only digits and '/', and '0' follows '/', so the
 * strings starting with "/1/5/" are exactly those in ["/1/5/", "/1/50").
 */
export function subtreeRange(path: string): [string, string] {
  return [path, `${path.slice(0, -1)}0`];
}

function inSubtrees(paths: string[]): SQL | undefined {
  return or(
    ...paths.map((p) => {
      const [from, to] = subtreeRange(p);
      return and(gte(organizations.path, from), lt(organizations.path, to));
    }),
  );
}

/** Drop paths already covered by an ancestor path, so each subtree is matched once. */
function outermost(paths: string[]): string[] {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length);
  return sorted.filter((p, i) => !sorted.slice(0, i).some((q) => p.startsWith(q)));
}

export async function userScope(db: Db, actor: Actor, code: string): Promise<UserScope> {
  const s = permissionScope(actor.roles, code);
  if (s.all) return { all: true };
  if (s.organizationIds.length === 0) return { all: false, paths: [] };
  const paths = await scopePaths.get(db, s.organizationIds.join(','), async () =>
    outermost(
      (await allRows(db.select({ path: organizations.path }).from(organizations).where(inArray(organizations.id, s.organizationIds)))).map(
        (r) => r.path,
      ),
    ),
  );
  return { all: false, paths };
}

// Every scoped request asks for its grants' subtrees; they change only with the tree. Shared: never mutate.
const scopePaths = freshCache<string[]>(2_000, ['organizations']);

/** Ids of these users with an active membership in one of the subtrees. */
function membersOf(db: Db, paths: string[], userIds: number[]) {
  return db
    .selectDistinct({ userId: organizationMembers.userId })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(and(eq(organizationMembers.isActive, true), inArray(organizationMembers.userId, userIds), inSubtrees(paths)));
}

/**
 * The scope as a WHERE condition on users (undefined: no restriction). It probes each candidate
 * row's memberships, so use it where other conditions already narrow the rows (a class's students);
 * the users list picks its own strategy (list.ts).
 */
export function scopeCondition(db: Db, scope: UserScope): SQL | undefined {
  if (scope.all) return undefined;
  // Nothing: a boolean on both engines (PostgreSQL refuses an integer as a condition).
  if (scope.paths.length === 0) return sql`1 = 0`;
  const member = db
    .select({ one: sql`1` })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(and(eq(organizationMembers.userId, users.id), eq(organizationMembers.isActive, true), inSubtrees(scope.paths)));
  return sql`EXISTS ${member}`;
}

/** Which of these users the scope reaches. */
export async function usersInScope(db: Db, scope: UserScope, userIds: number[]): Promise<Set<number>> {
  if (scope.all) return new Set(userIds);
  if (scope.paths.length === 0 || userIds.length === 0) return new Set();
  return new Set((await allRows(membersOf(db, scope.paths, userIds))).map((r) => r.userId));
}

/** The paths of one user's active memberships (prepared once per database). */
const activePathsOf = perDb((db) =>
  db
    .select({ path: organizations.path })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(and(eq(organizationMembers.userId, sql.placeholder('userId')), eq(organizationMembers.isActive, true)))
    .prepare(),
);

/** Whether an organization at `path` is in the scope: a path is in a subtree when it starts with the subtree's path (as subtreeRange reads it). */
export function scopeHolds(scope: UserScope, path: string): boolean {
  return scope.all || scope.paths.some((root) => path.startsWith(root));
}

/**
 * Which of these scopes reach one user, from one read of the user's memberships: each scope is
 * tested on the paths (scopeHolds). One statement of one plan for any scope, where usersInScope builds and
 * plans one per scope's subtrees.
 */
export async function scopesReachUser(db: Db, scopes: UserScope[], userId: number): Promise<boolean[]> {
  const paths = scopes.every((s) => s.all || s.paths.length === 0) ? [] : (await allRows(activePathsOf(db), { userId })).map((r) => r.path);
  return scopesReachPaths(scopes, paths);
}

/** Which of these scopes reach a user whose active memberships are at these paths (a caller that read them already). */
export function scopesReachPaths(scopes: UserScope[], activePaths: string[]): boolean[] {
  return scopes.map((s) => s.all || activePaths.some((p) => scopeHolds(s, p)));
}

/** A stable description of the scope for cache keys. */
export function scopeKey(scope: UserScope): string {
  return scope.all ? 'all' : scope.paths.join(',');
}
