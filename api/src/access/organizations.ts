/** Which organizations a caller may see: subtrees where organizations.access is held, plus those they belong to. */
import { hasPermission } from '@doanhoi/shared';
import { and, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Actor } from '../lib/context';
import { forbidden, notFound } from '../lib/errors';
import { freshCache } from '../lib/freshness';
import { perDb } from '../lib/per-db';
import { subtreeRange, userScope } from './scope';
import { orgContext } from './organization-context';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { allRows, firstRow } from '../db/engine';

export interface OrgVisibility {
  all: boolean;
  paths: string[];
  memberOrgIds: number[];
}

/**
 * The units a caller is an active member of, kept per user until a membership is written by anyone
 * (lib/freshness.ts): asked by every organization screen and member list of a scoped caller, where it
 * was a statement of its own on each request (PostgreSQL: about 50 µs of the API's CPU besides the server's).
 */
const memberOrgs = freshCache<number[]>(10_000, ['organization_members']);

export async function visibility(db: Db, actor: Actor): Promise<OrgVisibility> {
  const scope = await userScope(db, actor, 'organizations.access');
  if (scope.all) return { all: true, paths: [], memberOrgIds: [] };
  return { all: false, paths: scope.paths, memberOrgIds: await memberOrgIdsOf(db, actor.id) };
}

function memberOrgIdsOf(db: Db, userId: number): Promise<number[]> {
  return memberOrgs.get(db, String(userId), async () =>
    (
      await allRows(
        db
          .select({ id: organizationMembers.organizationId })
          .from(organizationMembers)
          .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.isActive, true))),
      )
    ).map((r) => r.id),
  );
}

/** SQL condition on organizations for the visible rows (undefined = all). */
export function visibleCondition(v: OrgVisibility): SQL | undefined {
  if (v.all) return undefined;
  const parts: SQL[] = v.paths.map((p) => {
    const [from, to] = subtreeRange(p);
    return and(gte(organizations.path, from), lt(organizations.path, to))!;
  });
  for (const id of v.memberOrgIds) parts.push(eq(organizations.id, id));
  return parts.length ? or(...parts) : eq(organizations.id, -1);
}

export function isVisible(v: OrgVisibility, org: { id: number; path: string }): boolean {
  return v.all || v.memberOrgIds.includes(org.id) || v.paths.some((p) => org.path.startsWith(p));
}

// Built once per database: every organization screen and member list asks for its organization first.
const byId = perDb((db) =>
  db
    .select()
    .from(organizations)
    .where(eq(organizations.id, sql.placeholder('id')))
    .prepare(),
);

type OrgRow = typeof organizations.$inferSelect;
// Kept until any organization is written (a shared row: callers never change it).
const rowsById = freshCache<OrgRow | null>(10_000, ['organizations']);

/** The organization row (shared: not to be changed), or null when unknown. */
export async function orgById(db: Db, id: number): Promise<OrgRow | null> {
  return await rowsById.get(db, String(id), async () => (await firstRow(byId(db), { id })) ?? null);
}

/** The organization row, or 404 when unknown or not visible to the caller. */
export async function visibleOrg(db: Db, actor: Actor, id: number) {
  const org = await orgById(db, id);
  if (!org) notFound('Không tìm thấy tổ chức');
  // The caller's scope first: its own units are asked for only outside it, so a unit of the scope opens
  // without them after any membership written anywhere (memberOrgs follows them all).
  const scope = await userScope(db, actor, 'organizations.access');
  if (scope.all || scope.paths.some((p) => org!.path.startsWith(p))) return org!;
  if (!(await memberOrgIdsOf(db, actor.id)).includes(org!.id)) notFound('Không tìm thấy tổ chức');
  return org!;
}

/** 403 unless the caller holds one of the codes in that organization. */
export async function requireIn(db: Db, actor: Actor, organizationId: number, codes: string[]): Promise<void> {
  const ctx = await orgContext(db, organizationId);
  if (!ctx) notFound('Không tìm thấy tổ chức');
  if (!codes.some((c) => hasPermission(actor.roles, c, ctx))) forbidden();
}
