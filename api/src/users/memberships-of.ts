import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { allRows } from '../db/engine';
import { perDb } from '../lib/per-db';

// Prepared once per database: the profile reads them on every open (drizzle's SQL building cost more than the query).
const statement = (activeOnly: boolean) =>
  perDb((db) =>
    db
      .select({
        organizationId: organizationMembers.organizationId,
        isActive: organizationMembers.isActive,
        role: organizationMembers.role,
        joinedAt: organizationMembers.joinedAt,
        organization: {
          id: organizations.id,
          name: organizations.name,
          code: organizations.code,
          parentId: organizations.parentId,
          type: organizations.type,
        },
      })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(
        activeOnly
          ? and(eq(organizationMembers.userId, sql.placeholder('userId')), eq(organizationMembers.isActive, true))
          : eq(organizationMembers.userId, sql.placeholder('userId')),
      )
      .orderBy(organizations.path)
      .prepare(),
  );
const all = statement(false);
const active = statement(true);

/** A user's memberships with their organizations, in tree order (activeOnly: the ones the office has not ended). A user's detail reads its own in one statement (users/detail-row.ts). */
export async function membershipsOf(db: Db, userId: number, activeOnly = false) {
  return await allRows((activeOnly ? active : all)(db), { userId });
}
