/**
 * An organization's member list without search words, the form every visit opens with: its
 * statements are built once per database (building drizzle's SQL cost more than running them)
 * and its total is the trigger-kept direct count (organization_member_counts, migration 0007).
 * On PostgreSQL the page carries that count in the same statement (memberPage).
 */
import { normalizeText } from '@doanhoi/shared';
import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { containsLike } from '../lib/like';
import { perDb } from '../lib/per-db';
import { users } from '../db/tables/users';
import { organizationMemberCounts, organizationMembers } from '../db/tables/organizations';
import { allRows, firstRow } from '../db/engine';
import { onPg } from '../db/dialect';
import { freshCache } from '../lib/freshness';
import { sessionUserColumns } from '../access/user-mapper';

/** Active members of an organization with the columns of their public user shape (no password hash), in name order. */
function membersQuery<T extends object>(db: Db, where: SQL | undefined, extra = {} as T) {
  return db
    .select({
      u: sessionUserColumns,
      role: organizationMembers.role,
      joinedAt: organizationMembers.joinedAt,
      endedAt: organizationMembers.endedAt,
      endReason: organizationMembers.endReason,
      endNote: organizationMembers.endNote,
      ...extra,
    })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(where)
    .orderBy(asc(users.familyName), asc(users.givenName), asc(users.id));
}

const active = and(eq(organizationMembers.organizationId, sql.placeholder('id')), eq(organizationMembers.isActive, true));
const directCount = sql<
  number | null
>`(SELECT ${organizationMemberCounts.direct} FROM ${organizationMemberCounts} WHERE ${organizationMemberCounts.organizationId} = ${sql.placeholder('id')})`;
const statements = perDb((db) => ({
  rows: membersQuery(db, active).limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).prepare(),
  withTotal: membersQuery(db, active, { total: directCount }).limit(sql.placeholder('limit')).offset(sql.placeholder('offset')).prepare(),
  total: db
    .select({ n: organizationMemberCounts.direct })
    .from(organizationMemberCounts)
    .where(eq(organizationMemberCounts.organizationId, sql.placeholder('id')))
    .prepare(),
}));

type MemberPage = Awaited<ReturnType<typeof readMemberPage>>;
/** Pages read again (each unit's screen opens at page 1) until a membership or a user is written. Shared: never mutate. */
const pages = freshCache<MemberPage>(2_000, ['organization_members', 'users']);

/**
 * A page of active members and their count. PostgreSQL reads both in one statement (each costs the
 * API about 50 µs of node-postgres besides the server's work), and the count alone only when the
 * page is empty; SQLite's in-process count first spares it the page past the end.
 */
export async function memberPage(db: Db, organizationId: number, limit: number, offset: number) {
  return await pages.get(db, `${organizationId}|${limit}|${offset}`, () => readMemberPage(db, organizationId, limit, offset));
}

async function readMemberPage(db: Db, organizationId: number, limit: number, offset: number) {
  const s = statements(db);
  if (onPg()) {
    const page = await allRows(s.withTotal, { id: organizationId, limit, offset });
    if (page.length > 0) {
      const total = page[0]!.total ?? 0;
      return { rows: offset < total ? page : [], total };
    }
  }
  const total = (await firstRow(s.total, { id: organizationId }))?.n ?? 0;
  const rows = offset < total ? await allRows(s.rows, { id: organizationId, limit, offset }) : [];
  return { rows, total };
}

/**
 * The member list filtered by search words (each must appear in the member's name, code or e-mail),
 * or the members whose membership here ended (issue 30 item 2: `ended`, on the (organization, active) index).
 */
export async function searchedMemberPage(
  db: Db,
  organizationId: number,
  search: string | undefined,
  limit: number,
  offset: number,
  ended = false,
) {
  const conds: SQL[] = [eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.isActive, !ended)];
  for (const w of normalizeText(search ?? '')
    .split(' ')
    .filter(Boolean))
    conds.push(containsLike(users.searchText, w));
  const where = and(...conds);
  const total = (await firstRow(
    db.select({ n: count() }).from(organizationMembers).innerJoin(users, eq(users.id, organizationMembers.userId)).where(where),
  ))!.n;
  return { rows: await allRows(membersQuery(db, where).limit(limit).offset(offset)), total };
}
