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
});
