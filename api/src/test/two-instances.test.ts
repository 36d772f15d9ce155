/**
 * Two app instances on one database file, each with its own connection, as two API processes of
 * one deployment have (issue 28 items 2 and 5): what one counts, revokes, writes or holds, the
 * other sees.
 */
import { eq, sql } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';
import { roles, userRoles } from '../db/tables/roles';
import { users } from '../db/tables/users';
import { closePgDb, isPg } from '../db/postgres';
import { currentStamp, newReadEpoch } from '../lib/freshness';
import { mapInOrder } from '../lib/in-order';
import { Lease, leasedInterval } from '../lib/lease';
import { campaigns, expectOk, join, SANDBOX_CREDS } from '../payments/fixture';
import { startStandIn, type StandIn } from '../payos-sandbox/stand-in';
import { makeTestApp, type TestApp } from './harness';
import { allRows, firstRow, runQuery, sqlGet, sqlRun } from '../db/engine';

let dir: string;
let a: TestApp;
let b: TestApp;
let payos: StandIn;

beforeAll(async () => {
  dir = mkdtempSync(joinPath(tmpdir(), 'doanhoi-two-'));
  payos = await startStandIn({ latencyMs: 100 });
  payos.addMerchant(SANDBOX_CREDS);
  const env = { LOGIN_RATE_LIMIT: '3', LOGIN_MAX_DELAY_MS: '40', PAYOS_BASE_URL: payos.url };
  a = await makeTestApp(env, joinPath(dir, 'app.db'));
  b = await makeTestApp(env, joinPath(dir, 'app.db'));
});

afterAll(async () => {
  await payos.close();
  for (const t of [a, b]) await (isPg(t.db) ? closePgDb(t.db) : t.db.$client.close());
  rmSync(dir, { recursive: true, force: true });
});

const login = (t: TestApp, email: string, password: string) => t.request('POST', '/api/auth/login', { body: { email, password } });
const me = (t: TestApp, token: string) => t.request('GET', '/api/auth/me/profile', { token });

describe('two instances on one database', () => {
  it('count sign-in failures together: the limit is not doubled', async () => {
    const u = await a.createUser('TWO1');
    expect((await login(a, u.email, 'wrong-password')).status).toBe(401);
    expect((await login(b, u.email, 'wrong-password')).status).toBe(401);
    expect((await login(a, u.email, 'wrong-password')).status).toBe(401);
    expect((await login(b, u.email, 'secret123')).status).toBe(429);
    expect((await login(a, u.email, 'secret123')).status).toBe(429);
  });

  it('a session signed out through one is refused by the other within a second', async () => {
    const u = await a.createUser('TWO2');
    expect((await me(b, u.token)).status).toBe(200);
    expect((await a.request('POST', '/api/auth/logout', { token: u.token })).status).toBe(200);
    await expect.poll(async () => (await me(b, u.token)).status, { timeout: 1000, interval: 100 }).toBe(401);
  });

  it('a cached page or actor is dropped by the other instance’s write', async () => {
    const u = await b.createUser('TWO3');
    const v = await b.createUser('TWO4');
    const search = () => b.request('GET', '/api/users?search=TWO3NEW', { token: b.adminToken });
    expect((await search()).body.users).toHaveLength(0);
    expect((await b.request('GET', '/api/users', { token: u.token })).status).toBe(403);
    // Through the other instance: one user is renamed, the other given the super admin's role.
    expect((await a.request('PATCH', `/api/users/${v.id}`, { token: a.adminToken, body: { givenName: 'TWO3NEW' } })).status).toBe(200);
    const role = (await firstRow(a.db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'super_admin'))))!.id;
    await runQuery(a.db.insert(userRoles).values({ userId: u.id, roleId: role }));
    expect((await search()).body.users).toHaveLength(1);
    expect((await b.request('GET', '/api/users', { token: u.token })).status).toBe(200);
  });

  it('a periodic job runs in one of them; the other takes it over once the holder’s lease expires', async () => {
    const runs: string[] = [];
    const stopA = await leasedInterval(a.db, 'two-job', 20, () => void runs.push('a'), { ttlMs: 300 });
    const stopB = await leasedInterval(b.db, 'two-job', 20, () => void runs.push('b'), { ttlMs: 300 });
    try {
      await new Promise((r) => setTimeout(r, 200));
      expect(runs.length).toBeGreaterThan(3);
      expect(new Set(runs)).toEqual(new Set(['a']));
      // The holder dies without a word: its lease stays in the table until it expires.
      const held = await sqlGet<{ holder: string } | undefined>(a.db, sql`SELECT holder FROM leases WHERE name = 'two-job'`);
      await sqlRun(a.db, sql`UPDATE leases SET holder = 'elsewhere:1:dead', expires_at = ${Date.now() + 200} WHERE name = 'two-job'`);
      expect(held?.holder).toBeTruthy();
      stopA();
      const stoppedAt = runs.length;
      await expect.poll(() => runs.at(-1), { timeout: 2000, interval: 20 }).toBe('b');
      expect(runs.slice(stoppedAt).every((r) => r === 'b')).toBe(true);
    } finally {
      stopA();
      stopB();
    }
  });

  it('a lease is held by one holder at a time, across the two connections', async () => {
    const x = new Lease(a.db, 'two-lease');
    const y = new Lease(b.db, 'two-lease');
    expect(await x.hold()).toBe(true);
    expect(await y.hold()).toBe(false);
    await x.release();
    expect(await y.hold()).toBe(true);
    await y.release();
  });

  it('20 parallel mark-paid split across both record exactly one payment', async () => {
    const org = await a.createOrg('doan_co_so', 'TWOPAY');
    const u = await a.createUser('TWOPAY1');
    await join(a, u.id, org);
    const { assignments } = await campaigns(a).active(org, [u.id], { amount: 40_000 });
    const assignmentId = (assignments[0] as { id: number }).id;
    await expectOk(a.request('POST', '/api/payment/create-payment-link', { token: u.token, body: { assignmentId } }));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? b : a).request('PATCH', `/api/payment/assignments/${assignmentId}/mark-paid`, {
          token: a.adminToken,
          body: { method: 'cash' },
        }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    const paid = (await allRows(a.db.select().from(paymentOrders).where(eq(paymentOrders.assignmentId, assignmentId)))).filter(
      (o) => o.paymentMethod === 'MANUAL' && o.status === 'PAID',
    );
    expect(paid).toHaveLength(1);
    expect((await firstRow(b.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, assignmentId))))!.paidAmount).toBe(
      40_000,
    );
  });
});

/**
 * Caches follow column groups of users (migration 0045) instead of the whole table: each group is
 * still seen by the other instance's next read, and a write outside a group leaves its version alone.
 */
describe('two instances: finer cache versions', () => {
  const total = async (query: string) => {
    const res = await b.request('GET', `/api/users?${query}`, { token: b.adminToken });
    expect(res.status).toBe(200);
    return res.body.total as number;
  };
  const patch = async (id: number, body: Record<string, unknown>) =>
    expect((await a.request('PATCH', `/api/users/${id}`, { token: a.adminToken, body })).status).toBe(200);
  const stamps = async () => {
    newReadEpoch();
    const groups = ['users:access', 'users:counted', 'users:search'] as const;
    return Object.fromEntries(await mapInOrder(groups, async (t) => [t, await currentStamp(b.db, [t])]));
  };

  it('a phone change bumps only the search words; a type, an activity or an e-mail change their own groups', async () => {
    const u = await a.createUser('TWOCOL1');
    const before = await stamps();
    await patch(u.id, { phone: '0912345678' });
    const afterPhone = await stamps();
    expect(afterPhone['users:access']).toBe(before['users:access']);
    expect(afterPhone['users:counted']).toBe(before['users:counted']);
    expect(afterPhone['users:search']).not.toBe(before['users:search']);
    await patch(u.id, { userType: 'staff' });
    const afterType = await stamps();
    expect(afterType['users:access']).toBe(afterPhone['users:access']);
    expect(afterType['users:counted']).not.toBe(afterPhone['users:counted']);
    await runQuery(a.db.update(users).set({ email: 'twocol1-new@example.com' }).where(eq(users.id, u.id)));
    const afterEmail = await stamps();
    expect(afterEmail['users:access']).not.toBe(afterType['users:access']);
    expect(afterEmail['users:counted']).toBe(afterType['users:counted']);
  });

  it('what one instance counts follows the other’s type, activity, name and membership changes at once', async () => {
    const u = await a.createUser('TWOCOL2');
    const org = await a.createOrg('chi_doan', 'TWOCOLORG');
    const staff = await total('userType=staff');
    const inactive = await total('isActive=false');
    const named = await total('search=twocolname');
    const members = await total(`organizationId=${org}`);
    await patch(u.id, { userType: 'staff' });
    expect(await total('userType=staff')).toBe(staff + 1);
    await patch(u.id, { familyName: 'Twocolname' });
    expect(await total('search=twocolname')).toBe(named + 1);
    expect(
      (await a.request('POST', `/api/organizations/${org}/members/${u.id}`, { token: a.adminToken, body: { role: 'member' } })).status,
    ).toBeLessThan(300);
    expect(await total(`organizationId=${org}`)).toBe(members + 1);
    expect((await a.request('DELETE', `/api/organizations/${org}/members/${u.id}`, { token: a.adminToken })).status).toBeLessThan(300);
    expect(await total(`organizationId=${org}`)).toBe(members);
    const w = await a.createUser('TWOCOL3');
    expect((await me(b, w.token)).status).toBe(200);
    await patch(w.id, { isActive: false });
    expect(await total('isActive=false')).toBe(inactive + 1);
    expect((await me(b, w.token)).status).toBe(401);
  });
});
