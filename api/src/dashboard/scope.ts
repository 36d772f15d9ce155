/**
 * Whose figures the dashboard shows: the current organization's units (its direct children), or,
 * with no organization named, the outermost organizations where the caller's grant reaches
 * (the roots for a global grant). Checked like the lists: in the named organization (its
 * ancestors' roles and global roles count), else wherever the code is held.
 */
import { hasPermission, holdsAnywhere, VN_OFFSET_MS } from '@doanhoi/shared';
import { asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import type { Db } from '../db/client';
import type { Actor, AppEnv } from '../lib/context';
import { forbidden, notFound, unauthorized } from '../lib/errors';
import { freshCache } from '../lib/freshness';
import { orgContext } from '../access/organization-context';
import { organizations } from '../db/tables/organizations';
import { subtreeRange, userScope } from '../access/scope';
import { allRows, firstRow } from '../db/engine';

export interface Unit {
  organizationId: number;
  name: string;
  type: string;
  path: string;
}

export interface DashboardScope {
  /** Stable cache key of the scope. */
  key: string;
  units: Unit[];
  /** Subtrees the totals cover ([from, to) path ranges); null = everything. */
  ranges: [string, string][] | null;
  /** The one organization whose subtree the totals cover (none for everything or several grants). */
  totalsOrganizationId: number | null;
}

/**
 * Member figures are member counts, which the catalogue guards with organizations.view_member_count:
 * dashboard.access opens the screen (a member holds it too), it does not show the counts.
 */
export const MEMBER_FIGURES = 'organizations.view_member_count';

const positive = (v: string | undefined): number | null => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : null;
};

/** 403 unless `code` is held in ?organizationId (or, without it, somewhere). */
export function requireHere(code: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const actor = c.get('actor');
    if (!actor) unauthorized();
    const orgId = positive(c.req.query('organizationId'));
    if (orgId != null) {
      const ctx = await orgContext(c.get('deps').db, orgId);
      if (!ctx) notFound('Không tìm thấy tổ chức');
      if (!hasPermission(actor.roles, code, ctx)) forbidden();
    } else if (!holdsAnywhere(actor.roles, code)) forbidden();
    await next();
  };
}

const unitColumns = { organizationId: organizations.id, name: organizations.name, type: organizations.type, path: organizations.path };

const orgScopes = freshCache<DashboardScope>(500, ['organizations']);

export async function dashboardScope(db: Db, actor: Actor, code: string, organizationId: number | undefined): Promise<DashboardScope> {
  if (organizationId != null) {
    // Kept until the tree changes: reading a faculty's forty units was most of a cached answer's time.
    const key = `org:${organizationId}`;
    return orgScopes.get(db, key, async () => {
      const org = await firstRow(db.select(unitColumns).from(organizations).where(eq(organizations.id, organizationId)));
      if (!org) notFound('Không tìm thấy tổ chức');
      const children = await allRows(
        db.select(unitColumns).from(organizations).where(eq(organizations.parentId, organizationId)).orderBy(asc(organizations.name)),
      );
      // A unit without children is shown as its own single unit, so its figures are never empty.
      return { key, units: children.length ? children : [org!], ranges: [subtreeRange(org!.path)], totalsOrganizationId: organizationId };
    });
  }
  const scope = await userScope(db, actor, code);
  const key = scope.all ? 'all' : `paths:${scope.paths.join(',')}`;
  return orgScopes.get(db, key, async () => {
    if (scope.all) {
      return {
        key,
        units: await allRows(
          db.select(unitColumns).from(organizations).where(isNull(organizations.parentId)).orderBy(asc(organizations.name)),
        ),
        ranges: null,
        totalsOrganizationId: null,
      };
    }
    const units = scope.paths.length
      ? await allRows(
          db.select(unitColumns).from(organizations).where(inArray(organizations.path, scope.paths)).orderBy(asc(organizations.name)),
        )
      : [];
    return {
      key,
      units,
      ranges: scope.paths.map(subtreeRange),
      totalsOrganizationId: units.length === 1 && scope.paths.length === 1 ? units[0]!.organizationId : null,
    };
  });
}

/**
 * The term (docs/decisions.md): the Vietnamese university semester the day falls in, in Vietnam
 * time — HK1 1 Sep–31 Jan, HK2 1 Feb–30 Jun, summer 1 Jul–31 Aug.
 */
export function currentTerm(now = Date.now()): { kind: 'hk1' | 'hk2' | 'summer'; start: number; end: number } {
  const local = new Date(now + VN_OFFSET_MS);
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth() + 1;
  const at = (year: number, month: number) => Date.UTC(year, month - 1, 1) - VN_OFFSET_MS;
  if (m >= 9) return { kind: 'hk1', start: at(y, 9), end: at(y + 1, 2) };
  if (m === 1) return { kind: 'hk1', start: at(y - 1, 9), end: at(y, 2) };
  if (m <= 6) return { kind: 'hk2', start: at(y, 2), end: at(y, 7) };
  return { kind: 'summer', start: at(y, 7), end: at(y, 9) };
}

/** The totals' condition on a path column (always true for everything, never for no range). */
export function rangesCondition(column: SQL, ranges: [string, string][] | null): SQL {
  if (!ranges) return sql`1 = 1`;
  if (!ranges.length) return sql`1 = 0`;
  return sql`(${sql.join(
    ranges.map(([from, to]) => sql`(${column} >= ${from} AND ${column} < ${to})`),
    sql` OR `,
  )})`;
}
