/**
 * PostgreSQL's users index after a users import: new users are inserted under the 'new_users' pause
 * and indexed once their memberships are in (figures.index_new_users, drizzle-pg 0012). Every user,
 * with or without units, in one batch or several, with or without skipErrors, must end with the
 * users_index and member_scopes rows a recount from users and memberships gives.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE, type TestApp } from '../test/harness';
import { importUsers, indexDrift, usersImportHelpers, usersImportWorld } from './fixture';
import { sqlGet } from '../db/engine';

let t: TestApp;
let orgs: Awaited<ReturnType<typeof usersImportWorld>>['orgs'];
const { userByCode, ok } = usersImportHelpers(() => t);

beforeAll(async () => {
  ({ t, orgs } = await usersImportWorld());
});

describe.skipIf(TEST_ENGINE !== 'pg')('users import: PostgreSQL users index', () => {
  it('new users, with units or none, in several batches with and without skipErrors, are indexed as a recount', async () => {
    const rows = (prefix: string) => [
      ok(`${prefix}1`, { organizationCodes: 'UI-CD1' }),
      ok(`${prefix}2`, { organizationCodes: 'UI-DCS2' }),
      ok(`${prefix}3`, { organizationCodes: '' }),
      ok(`${prefix}4`, { organizationCodes: 'UI-CD1, UI-DCS2' }),
      ok(`${prefix}5`, { organizationCodes: 'UI-CD1' }),
    ];
    for (const [prefix, options] of [
      ['IXA', {}],
      ['IXB', { skipErrors: false, batchSize: 2 }],
      ['IXC', { batchSize: 2 }],
    ] as const) {
      const res = await importUsers(t, rows(prefix), options);
      expect(res.body).toMatchObject({ importedCount: 5, failedCount: 0 });
    }
    expect(await indexDrift(t)).toEqual({ missing: 0, words: 0, units: 0, scopes: 0, pauses: 0 });
    const indexed = await sqlGet<{ orgs: number[] }>(t.db, sql`SELECT orgs FROM users_index WHERE id = ${(await userByCode('IXB4'))!.id}`);
    expect(indexed!.orgs).toEqual([orgs.root, orgs.faculty, orgs.chiDoan, orgs.other].sort((a, b) => a - b));
    // A search finds a new user by a word of their name within their unit.
    const found = await t.request('GET', `/api/users?search=ixc5&organizationId=${orgs.chiDoan}`, { token: t.adminToken });
    expect(found.status).toBe(200);
    expect(JSON.stringify(found.body)).toContain('IXC5');
  });

  it('deleted users leave no member_scopes or users_index rows (kept by a trigger on users since drizzle-pg 0026 and 0034, not foreign keys)', async () => {
    const res = await importUsers(t, [
      ok('IXD1', { organizationCodes: 'UI-CD1' }),
      ok('IXD2', { organizationCodes: 'UI-DCS2' }),
      ok('IXD3', { organizationCodes: 'UI-CD1, UI-DCS2' }),
      ok('IXD4', { organizationCodes: '' }),
    ]);
    expect(res.body).toMatchObject({ importedCount: 4, failedCount: 0 });
    const ids = await Promise.all(['IXD1', 'IXD2', 'IXD3'].map(async (c) => (await userByCode(c))!.id));
    const scopesOf = async (of: number[]) =>
      (await sqlGet<{ n: number }>(
        t.db,
        sql`SELECT count(*)::int AS n FROM member_scopes WHERE user_id = ANY(${`{${of.join(',')}}`}::int[])`,
      ))!.n;
    const indexedOf = async (of: number[]) =>
      (await sqlGet<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM users_index WHERE id = ANY(${`{${of.join(',')}}`}::int[])`))!.n;
    expect(await scopesOf(ids)).toBeGreaterThanOrEqual(9);
    expect(await indexedOf(ids)).toBe(3);
    const one = await t.request('DELETE', `/api/users/${ids[0]}`, { token: t.adminToken });
    expect(one.status).toBe(200);
    expect(await scopesOf([ids[0]!])).toBe(0);
    expect(await indexedOf(ids)).toBe(2);
    expect(await scopesOf(ids.slice(1))).toBeGreaterThan(0);
    const bulk = await t.request('DELETE', '/api/users/bulk-delete', { token: t.adminToken, body: { ids: ids.slice(1) } });
    expect(bulk.status).toBe(200);
    expect(await scopesOf(ids)).toBe(0);
    expect(await indexedOf(ids)).toBe(0);
    const orphans = await sqlGet<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM member_scopes m WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = m.user_id)`,
    );
    expect(orphans!.n).toBe(0);
    const unindexed = await sqlGet<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM users_index x WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = x.id)`,
    );
    expect(unindexed!.n).toBe(0);
    // A row no membership explains (a hand-run repair's, say) goes with its user too: a user without memberships is
    // deleted with no membership trigger to bring the scopes along, as the foreign key's cascade did.
    const bare = (await userByCode('IXD4'))!.id;
    await sqlGet(t.db, sql`INSERT INTO member_scopes (organization_id, user_id) VALUES (${orgs.root}, ${bare})`);
    expect(await scopesOf([bare])).toBe(1);
    expect((await t.request('DELETE', `/api/users/${bare}`, { token: t.adminToken })).status).toBe(200);
    expect(await scopesOf([bare])).toBe(0);
    expect(await indexDrift(t)).toEqual({ missing: 0, words: 0, units: 0, scopes: 0, pauses: 0 });
  });
});
