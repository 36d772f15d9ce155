import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { allRows } from '../db/engine';

/** A user's memberships with their organizations, in tree order (activeOnly: the ones the office has not ended). */
export async function membershipsOf(db: Db, userId: number, activeOnly = false) {
  return await allRows(
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
          ? and(eq(organizationMembers.userId, userId), eq(organizationMembers.isActive, true))
          : eq(organizationMembers.userId, userId),
      )
      .orderBy(organizations.path),
  );
}
