/** The users import's writes: new users in prepared multi-row inserts, updates of the columns a file had, memberships. */
import { eq, sql } from 'drizzle-orm';
import { revokeUserSessions } from '../../access/revocation';
import { organizationMembers, triggerPauses } from '../../db/tables/organizations';
import { onPg } from '../../db/dialect';
import { deferIndex } from '../../organizations/bulk-members';
import { userSearchText } from '../../users/search';
import { users } from '../../db/tables/users';
import type { Tx } from '../kind';
import { ancestorsAndSelf, chunked } from '../lookups';
import { newRecord, RECORD_KEYS } from './member-record';
import type { UserRowData } from './user-rows';
import { allRows, runQuery, sqlRun } from '../../db/engine';

type NewUser = Awaited<ReturnType<typeof newUser>>;
type PreparedInsert = { keys: (keyof NewUser)[]; all(values: Record<string, unknown>): { id: number; code: string }[] };
const preparedInserts = new WeakMap<object, Map<number, PreparedInsert>>();

/**
 * Inserts new users and returns their ids. A statement per batch size is built once per connection
 * with placeholders: drizzle building a 200-row INSERT again for every batch was a sixth of a
 * 10,000-row import's execute (issue 12).
 */
export async function insertUsers(tx: Tx, rows: NewUser[]): Promise<{ id: number; code: string }[]> {
  // drizzle's transactions share their database's session (one per connection): key the statements by it.
  const session = (tx as unknown as { session: object }).session;
  let bySize = preparedInserts.get(session);
  if (!bySize) preparedInserts.set(session, (bySize = new Map()));
  let stmt = bySize.get(rows.length);
  if (!stmt) {
    // newUser sets every column on every row, so the first row names them all.
    const keys = Object.keys(rows[0]!) as (keyof NewUser)[];
    const values = rows.map((_, i) => Object.fromEntries(keys.map((k) => [k, sql.placeholder(`${k}${i}`)])) as unknown as NewUser);
    stmt = Object.assign(tx.insert(users).values(values).returning({ id: users.id, code: users.code }).prepare(), { keys });
    bySize.set(rows.length, stmt);
  }
  const params: Record<string, unknown> = {};
  rows.forEach((r, i) => {
    for (const k of stmt.keys) params[`${k}${i}`] = r[k];
  });
  return await allRows(stmt, params);
}

const NEW_USERS = 'new_users';

/**
 * PostgreSQL: new users inserted after this get no users_index row yet (drizzle-pg 0012), nor their
 * count in the whole-tree facet (0014); indexNewUsers writes both once their memberships are in. A bare
 * row rewritten with its units a moment later put every word into the GIN index twice (17 ms of a
 * 100-user batch), and the facet's row, counted at once, stayed locked for the rest of an import's
 * transaction. Inside the caller's transaction, so no other connection sees the pause; SQLite keeps its
 * own index queue.
 */
export async function pauseUsersIndex(tx: Tx): Promise<void> {
  if (onPg()) await runQuery(tx.insert(triggerPauses).values({ name: NEW_USERS }));
}

/**
 * PostgreSQL: the pause lifted, and the users_index and member_scopes rows of the users inserted since
 * pauseUsersIndex written — now, or with the figures at the end of an import's transaction
 * (organizations/bulk-members.ts withDeferredFigures): a row per user either way, written once.
 */
export async function indexNewUsers(tx: Tx, ids: number[]): Promise<void> {
  if (!onPg()) return;
  if (ids.length && !deferIndex(tx, ids)) await sqlRun(tx, sql`SELECT figures.index_new_users(${`{${ids.join(',')}}`}::int[])`);
  await sqlRun(tx, sql`DELETE FROM trigger_pauses WHERE name = ${NEW_USERS}`);
}

export function newUser(d: UserRowData) {
  const base = { code: d.code, familyName: d.familyName, givenName: d.givenName, email: d.email, phone: d.phone };
  return {
    ...base,
    passwordHash: d.passwordHash ?? null,
    mustChangePassword: d.passwordHash == null,
    userType: d.userType,
    membershipStatus: d.membershipStatus,
    classId: d.classId,
    managementDepartmentId: d.managementDepartmentId,
    trainingDepartmentId: d.trainingDepartmentId,
    ...newRecord(d.record),
    searchText: userSearchText(base),
  };
}

/** Updates the columns the file had; returns whether anything changed (an explicit password always does). */
export async function updateUser(tx: Tx, id: number, d: UserRowData, cur: typeof users.$inferSelect): Promise<boolean> {
  const has = (k: string) => d.present.includes(k);
  const next = {
    code: d.code,
    familyName: d.familyName,
    givenName: d.givenName,
    email: d.email,
    phone: has('phone') ? d.phone : cur.phone,
    userType: has('userType') ? d.userType : cur.userType,
    membershipStatus: has('membershipStatus') ? d.membershipStatus : cur.membershipStatus,
    classId: has('className') ? d.classId : cur.classId,
    managementDepartmentId: has('managementDepartmentCode') ? d.managementDepartmentId : cur.managementDepartmentId,
    trainingDepartmentId: has('trainingDepartmentCode') ? d.trainingDepartmentId : cur.trainingDepartmentId,
    ...Object.fromEntries(RECORD_KEYS.map((k) => [k, k in d.record ? d.record[k] : cur[k]])),
  };
  // "-" or an empty password keeps the current one.
  if (!(Object.keys(next) as (keyof typeof next)[]).some((k) => next[k] !== cur[k]) && d.password == null) return false;
  await runQuery(
    tx
      .update(users)
      .set({
        ...next,
        ...(d.passwordHash ? { passwordHash: d.passwordHash, mustChangePassword: false } : {}),
        searchText: userSearchText(next),
      })
      .where(eq(users.id, id)),
  );
  // A new password or e-mail from a file is an administrator's reset (users/service.ts update):
  // whoever held the account keeps no session. The request thread learns the families through
  // markRevokedSince once the run returns (imports/offload.ts), wherever it ran.
  if (d.passwordHash || next.email !== cur.email) await revokeUserSessions(tx, id, 'account_change');
  return true;
}

/** The user joins each organization and all its parents. */
export function memberPairs(userId: number, paths: string[]): Pair[] {
  return [...new Set(paths.flatMap(ancestorsAndSelf))].map((organizationId) => ({ organizationId, userId }));
}

type Pair = { organizationId: number; userId: number };

/**
 * Adds the memberships as 'member' (an inactive one is reactivated, its ending — date, reason,
 * note — cleared as an add through the screen does) in multi-row upserts; returns the pairs that changed.
 */
export async function addMemberships(tx: Tx, pairs: Pair[]): Promise<Pair[]> {
  const changed: Pair[] = [];
  for (const chunk of chunked(pairs)) {
    const rows = await allRows(
      tx
        .insert(organizationMembers)
        .values(chunk.map((p) => ({ ...p, role: 'member' })))
        .onConflictDoUpdate({
          target: [organizationMembers.organizationId, organizationMembers.userId],
          set: { isActive: true, endedAt: null, endReason: null, endNote: null },
          setWhere: eq(organizationMembers.isActive, false),
        })
        .returning({ userId: organizationMembers.userId, organizationId: organizationMembers.organizationId }),
    );
    changed.push(...rows);
  }
  return changed;
}
