import type { OrgContext } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { organizations } from './schema';

/** Parse "/1/5/12/" into [1, 5, 12]. */
export function pathIds(path: string): number[] {
  return path
    .split('/')
    .filter(Boolean)
    .map(Number);
}

/** The permission context of an organization (itself and its ancestors), or null if unknown. */
export function orgContext(db: Db, organizationId: number): OrgContext | null {
  const row = db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, organizationId)).get();
  if (!row) return null;
  const ids = pathIds(row.path);
  return { organizationId, ancestorIds: ids.filter((id) => id !== organizationId) };
}
