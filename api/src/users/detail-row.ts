/**
 * A user's detail in one statement: the users-screen row with its page extras (users/rows.ts),
 * every membership with its organization and path in tree order, and the role assignments with
 * their roles and organizations. On PostgreSQL each statement is a round trip that costs the API and
 * the server CPU of its own (docs/benchmark.md, sessions 28–29: a random detail 678–721 → 487–574 µs of
 * the API's CPU), and details were the mix's costliest kind there.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { onPg } from '../db/dialect';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { roles, userRoles } from '../db/tables/roles';
import { users } from '../db/tables/users';
import { perDb } from '../lib/per-db';
import { jsonList, pageRowsWith, type PageRow } from './rows';

type Organization = typeof organizations.$inferSelect;
type Membership = typeof organizationMembers.$inferSelect;
type Role = typeof roles.$inferSelect;
type RoleLink = typeof userRoles.$inferSelect;

/** A membership as the detail lists it, with its organization's path for the caller's scope check. */
export type DetailMembership = Pick<Membership, 'organizationId' | 'isActive' | 'role' | 'joinedAt'> & {
  path: Organization['path'];
  organization: Pick<Organization, 'id' | 'name' | 'code' | 'parentId' | 'type'>;
};

/** A role assignment as the detail lists it. */
export type DetailRoleLink = Pick<RoleLink, 'id' | 'roleId' | 'organizationId' | 'isActive'> & {
  role: Pick<Role, 'id' | 'name' | 'displayName' | 'isActive'>;
  organization: Pick<Organization, 'id' | 'name' | 'code' | 'type'> | null;
};

export type DetailRow = PageRow & { memberships: DetailMembership[]; roleLinks: DetailRoleLink[] };

/**
 * The two lists as JSON arrays built by the database: PostgreSQL's json_agg (parsed by the driver,
 * null for none), SQLite's json_group_array (text). Booleans come as 0/1 from SQLite, dates as
 * epoch milliseconds from SQLite and ISO strings from PostgreSQL: parsed below.
 */
const detailExtras = (pg: boolean) => {
  const object = sql.raw(pg ? 'json_build_object' : 'json_object');
  const array = sql.raw(pg ? 'json_agg' : 'json_group_array');
  // SQLite keeps a nested object's JSON type only straight from json_object(); json() restores it after a CASE.
  const nullable = (inner: ReturnType<typeof sql>) => (pg ? inner : sql`json(${inner})`);
  return {
    detailMemberships: sql<unknown>`(SELECT ${array}(${object}(
        'organizationId', ${organizationMembers.organizationId}, 'isActive', ${organizationMembers.isActive},
        'role', ${organizationMembers.role}, 'joinedAt', ${organizationMembers.joinedAt}, 'path', ${organizations.path},
        'organization', ${object}('id', ${organizations.id}, 'name', ${organizations.name}, 'code', ${organizations.code},
          'parentId', ${organizations.parentId}, 'type', ${organizations.type})
      ) ORDER BY ${organizations.path})
      FROM ${organizationMembers} JOIN ${organizations} ON ${organizations.id} = ${organizationMembers.organizationId}
      WHERE ${organizationMembers.userId} = ${users.id})`,
    roleLinks: sql<unknown>`(SELECT ${array}(${object}(
        'id', ${userRoles.id}, 'roleId', ${userRoles.roleId}, 'organizationId', ${userRoles.organizationId},
        'isActive', ${userRoles.isActive},
        'role', ${object}('id', ${roles.id}, 'name', ${roles.name}, 'displayName', ${roles.displayName}, 'isActive', ${roles.isActive}),
        'organization', ${nullable(
          sql`CASE WHEN ${organizations.id} IS NULL THEN NULL ELSE ${object}('id', ${organizations.id}, 'name', ${organizations.name}, 'code', ${organizations.code}, 'type', ${organizations.type}) END`,
        )}
      ) ORDER BY ${userRoles.id})
      FROM ${userRoles} JOIN ${roles} ON ${roles.id} = ${userRoles.roleId}
      LEFT JOIN ${organizations} ON ${organizations.id} = ${userRoles.organizationId}
      WHERE ${userRoles.userId} = ${users.id})`,
  };
};

const statement = perDb((db) => pageRowsWith(db, detailExtras(onPg())));

type Raw<T> = { [K in keyof T]: T[K] extends boolean ? boolean | number : T[K] extends Date ? string | number : T[K] };

/** The user's detail row, or undefined when there is no such user. */
export async function detailRow(db: Db, id: number): Promise<DetailRow | undefined> {
  const [row] = await statement(db)([id]);
  if (!row) return undefined;
  const { detailMemberships, roleLinks, ...page } = row;
  return {
    ...page,
    memberships: jsonList<Raw<DetailMembership>>(detailMemberships).map((m) => ({
      ...m,
      isActive: Boolean(m.isActive),
      joinedAt: new Date(m.joinedAt),
    })),
    roleLinks: jsonList<Raw<DetailRoleLink> & { role: Raw<DetailRoleLink['role']> }>(roleLinks).map((l) => ({
      ...l,
      isActive: Boolean(l.isActive),
      role: { ...l.role, isActive: Boolean(l.role.isActive) },
    })),
  };
}
