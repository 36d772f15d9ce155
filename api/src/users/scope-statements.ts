/**
 * PostgreSQL's pages of one subtree's members without search words or column filters (users/list.ts,
 * the 'in' strategy): the ids come from member_scopes alone (drizzle-pg 0008: a row per unit at or above
 * each active membership, primary key (unit, user)), not from users joined to it. One unit's members
 * newest first are then a backward walk of that key whatever the scope's size, so the statements keep a
 * generic plan (db/postgres.ts names them): joined to users, each was planned per call, 0.3 ms of a
 * 0.46 ms page under the read mix (pg_stat_statements, 100k bench).
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import { integer, sqliteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../db/client';
import { MEMBER_SCOPES } from '../db/pg/search';
import { pagedStatements } from './index-statements';

/** Engine-only, as users_index is (users/search.ts pgUsersIndex): declared only to query it with the builder. */
export const pgMemberScopes = sqliteTable(MEMBER_SCOPES, { organizationId: integer(), userId: integer() });

/** The page, checkpoint and walk statements of list.ts for one root (`root`), from member_scopes' key. */
export function scopeStatements(db: Db) {
  const t = pgMemberScopes;
  const of = eq(t.organizationId, sql.placeholder('root'));
  // Its pages bring their rows (pageStatement): joined to them, a range of one unit's key still keeps its plan.
  return pagedStatements(db, (cond: SQL | undefined) => db.select({ id: t.userId }).from(t).where(cond), t.userId, of, of, true);
}
