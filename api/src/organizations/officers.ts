/**
 * GET /organizations/{id}/officers (issue 26 item 3): who holds which role scoped to a unit, one page
 * at a time in SQL. With `inherited`, the roles held in the units above it (which apply here too,
 * 000 §6) follow, but only in units where the caller holds organizations.access (whose own officers
 * list it could open): a faculty's officer who merely belongs to the school is not shown who holds
 * what there. Global roles are not listed (they hold everywhere).
 */
import type { OrganizationOfficersResponse } from '@doanhoi/shared';
import { and, asc, count, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Actor, Deps } from '../lib/context';
import { totalPages } from '../lib/totals';
import { roles, userRoles } from '../db/tables/roles';
import { users } from '../db/tables/users';
import { visibility, visibleOrg } from '../access/organizations';
import { pathIds } from '../access/organization-context';
import { organizations } from '../db/tables/organizations';
import { allRows, firstRow } from '../db/engine';

export async function organizationOfficers(
  { db }: Deps,
  actor: Actor,
  id: number,
  q: { page: number; limit: number; inherited: boolean },
): Promise<OrganizationOfficersResponse> {
  const o = await visibleOrg(db, actor, id);
  const ids = pathIds(o.path);
  const v = await visibility(db, actor);
  // An ancestor's path is a prefix of the unit's own ("/1/5/" above "/1/5/12/").
  const above = q.inherited
    ? ids.slice(0, -1).filter((_, i) => v.all || v.paths.some((p) => `/${ids.slice(0, i + 1).join('/')}/`.startsWith(p)))
    : [];
  const where = and(inArray(userRoles.organizationId, [id, ...above]), eq(userRoles.isActive, true));
  const total = (await firstRow(db.select({ n: count() }).from(userRoles).where(where)))!.n;
  const rows = await allRows(
    db
      .select({
        id: userRoles.id,
        user: { id: users.id, code: users.code, familyName: users.familyName, givenName: users.givenName, email: users.email },
        role: { id: roles.id, name: roles.name, displayName: roles.displayName, isActive: roles.isActive },
        organization: { id: organizations.id, name: organizations.name, code: organizations.code, type: organizations.type },
      })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .innerJoin(organizations, eq(organizations.id, userRoles.organizationId))
      .where(where)
      // The unit's own officers first, then each unit above from the nearest up.
      .orderBy(
        asc(ne(userRoles.organizationId, id)),
        desc(organizations.path),
        asc(roles.displayName),
        asc(users.givenName),
        asc(users.familyName),
        asc(userRoles.id),
      )
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
  );
  return {
    data: rows.map((r) => ({ ...r, inherited: r.organization.id !== id })),
    total,
    page: q.page,
    limit: q.limit,
    totalPages: totalPages(total, q.limit),
  };
}
