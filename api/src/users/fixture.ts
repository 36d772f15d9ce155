/** Test helpers for the users API tests (not imported by the app). */
import { organizationMembers } from '../db/tables/organizations';
import type { TestApp } from '../test/harness';
import { users } from '../db/tables/users';
import { userSearchText } from './search';
import { allRows, firstRow, runQuery } from '../db/engine';
import { insertSlices } from '../seed/batches';
import pg from 'pg';
import { openDb, type Db } from '../db/client';
import { isPg, pgPoolOf } from '../db/postgres';

export const USER_CODES = ['users.access', 'users.create', 'users.view_details', 'users.update', 'users.delete'];

let seq = 0;

/** A valid create body; `over` replaces fields. */
export function newUserBody(over: Record<string, unknown> = {}) {
  seq += 1;
  return {
    code: `SV${String(seq).padStart(5, '0')}`,
    familyName: 'Lê Thị',
    givenName: `Hoa${seq}`,
    email: `hoa.le${seq}@example.edu.vn`,
    phone: '0912345678',
    ...over,
  };
}

export type UserOver = Partial<typeof users.$inferInsert>;

/** The row insertUser writes: the next code, names and e-mail of the sequence, `over` replacing fields. */
function userRow(over: UserOver) {
  seq += 1;
  const base = {
    code: `U${seq}`,
    familyName: 'Phạm Văn',
    givenName: `Tùng${seq}`,
    email: `u${seq}@example.vn`,
    phone: '0987654321',
    ...over,
  };
  return { ...base, searchText: userSearchText(base) };
}

/** A user row inserted directly (no hashing), optionally an active member of `orgId`. */
export async function insertUser(t: TestApp, over: UserOver = {}, orgId?: number): Promise<number> {
  const id = (await firstRow(t.db.insert(users).values(userRow(over)).returning({ id: users.id }))).id;
  if (orgId) await addMember(t, id, orgId);
  return id;
}

/**
 * The rows insertUser would write for each of `overs` one after another (same codes, same ids in
 * the same order), in multi-row INSERTs: a statement per slice instead of per user. Answers the ids.
 */
export async function insertUsers(t: TestApp, overs: readonly UserOver[]): Promise<number[]> {
  const rows = overs.map(userRow);
  const ids = new Map<string, number>();
  for (const slice of insertSlices(users, rows))
    for (const r of await allRows(t.db.insert(users).values(slice).returning({ id: users.id, code: users.code }))) ids.set(r.code, r.id);
  return rows.map((r) => ids.get(r.code)!);
}

/** Membership rows written behind the API's back (caches notice through table versions). */
export async function addMember(t: TestApp, userId: number, organizationId: number, isActive = true) {
  await runQuery(t.db.insert(organizationMembers).values({ userId, organizationId, isActive }));
}

/**
 * A small tree: root (Đoàn trường) → F1 (Đoàn khoa) → C1 (chi đoàn), and root → F2. `orgAdmin`
 * holds every users code in F1 only; `globalAdmin` holds them globally; `noRoles` holds nothing.
 */
export async function scopedWorld(t: TestApp, prefix: string) {
  const root = await t.createOrg('doan_truong', `${prefix}-ROOT`);
  const f1 = await t.createOrg('doan_co_so', `${prefix}-F1`, root);
  const c1 = await t.createOrg('chi_doan', `${prefix}-F1-C1`, f1);
  const f2 = await t.createOrg('doan_co_so', `${prefix}-F2`, root);
  const role = await t.createRole(`${prefix.toLowerCase()}_user_admin`, USER_CODES);
  const globalAdmin = await t.createUser(`${prefix}G`, [{ roleId: role }]);
  const orgAdmin = await t.createUser(`${prefix}O`, [{ roleId: role, organizationId: f1 }]);
  const noRoles = await t.createUser(`${prefix}N`);
  return { root, f1, c1, f2, role, globalAdmin, orgAdmin, noRoles };
}

/**
 * A statement run as another process would run it, behind this app's back: on PostgreSQL through a
 * client of its own (a write through the app's pool would also count as this process's write,
 * lib/freshness.ts), on SQLite through a second connection to the file (`true` written as 1).
 */
export async function elsewhere(db: Db, statement: string): Promise<void> {
  if (isPg(db)) {
    const url = (pgPoolOf(db) as unknown as { options: { connectionString: string } }).options.connectionString;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
    return;
  }
  const c = openDb(db.$client.name).$client;
  try {
    c.prepare(statement.replace(/\btrue\b/g, '1')).run();
  } finally {
    c.close();
  }
}
