/**
 * Regressions of the old hand-cleared caches: every cached read now follows the versions of the
 * tables it reads (lib/freshness.ts), whoever writes them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { campaigns, expectOk, join } from '../payments/fixture';
import { makeTestApp, TEST_ENGINE } from '../test/harness';
import { sql } from 'drizzle-orm';
import { openDb, type Db } from '../db/client';
import { sqlRun } from '../db/engine';
import { closeAppDb } from '../db/open';

/** Another connection to the database at `path`, as another process has (PostgreSQL: another pool on it). */
async function otherConnection(path: string): Promise<Db> {
  return TEST_ENGINE === 'pg' ? (await makeTestApp({}, path)).db : openDb(path);
}

const dir = mkdtempSync(joinPath(tmpdir(), 'cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cached reads stay exact', () => {
  it("deleting a user updates a campaign's assignment total along with its rows", async () => {
    const t = await makeTestApp();
    const api = campaigns(t);
    const org = await t.createOrg('doan_co_so', 'CR-F1');
    const a = await t.createUser('CRA');
    const b = await t.createUser('CRB');
    await join(t, a.id, org);
    await join(t, b.id, org);
    const c = await api.create(org);
    const level = await api.level(c.id);
    await api.assign(c.id, a.id, level.id);
    await api.assign(c.id, b.id, level.id);
    const list = async () =>
      (await expectOk(t.request('GET', `/api/payment/assignments?campaignId=${c.id}`, { token: t.adminToken }))).data;
    expect((await list()).total).toBe(2);
    await expectOk(t.request('DELETE', `/api/users/${b.id}`, { token: t.adminToken }));
    const after = await list();
    expect(after.assignments).toHaveLength(1);
    expect(after.total).toBe(1);
  });

  it('a user deactivated by another connection is refused on the next request', async () => {
    const path = joinPath(dir, 'deactivate.db');
    const t = await makeTestApp({}, path);
    const u = await t.createUser('CRD');
    const me = () => t.request('GET', '/api/auth/me/permissions', { token: u.token });
    expect((await me()).status).toBe(200);
    const other = await otherConnection(path);
    await sqlRun(other, sql`UPDATE users SET is_active = FALSE WHERE id = ${u.id}`);
    await closeAppDb(other);
    expect((await me()).status).toBe(401);
  });

  it('a role taken away behind the API is gone on the next request', async () => {
    const t = await makeTestApp();
    const org = await t.createOrg('doan_co_so', 'CR-F2');
    const role = await t.createRole('cr_users', ['users.access']);
    const u = await t.createUser('CRR', [{ roleId: role, organizationId: org }]);
    const list = () => t.request('GET', `/api/users?organizationId=${org}`, { token: u.token });
    expect((await list()).status).toBe(200);
    await sqlRun(t.db, sql`DELETE FROM user_roles WHERE user_id = ${u.id}`);
    expect((await list()).status).toBe(403);
  });

  it('list totals notice rows written by another connection, per database', async () => {
    const path = joinPath(dir, 'totals.db');
    const t = await makeTestApp({}, path);
    const elsewhere = await makeTestApp();
    const total = async (app = t) => (await expectOk(app.request('GET', '/api/departments?limit=5', { token: app.adminToken }))).total;
    const before = await total();
    const otherBefore = await total(elsewhere);
    const other = await otherConnection(path);
    await sqlRun(
      other,
      sql`INSERT INTO departments (code, name, search_text, created_at, updated_at) VALUES ('CRX', 'Khoa X', 'khoa x', 0, 0)`,
    );
    await closeAppDb(other);
    expect(await total()).toBe(before + 1);
    expect(await total(elsewhere)).toBe(otherBefore);
  });
});
