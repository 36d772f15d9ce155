/**
 * A list page's rows (users/rows.ts): one statement also reads each user's active memberships and
 * paid flag, on both engines. They must answer as the memberships table and users/paid.ts's rule
 * do, and the list must answer hasPaidFees the same whether its page was built with the flags or
 * served from the cache.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { firstRow, runQuery } from '../db/engine';
import { organizations } from '../db/tables/organizations';
import { feeLevels, paymentAssignments, paymentCampaigns } from '../db/tables/payments';
import { makeTestApp, TEST_ENGINE, type TestApp } from '../test/harness';
import { plannedPerCall } from '../db/postgres';
import { recordStatements } from '../organizations/fixture';
import { listPage, type ListFilter } from './list';
import { addMember, insertUser } from './fixture';
import { paidUserIds } from './paid';
import { memberOfEntry, pageRowsByIds, rowsByIds } from './rows';

let t: TestApp;
let org: Record<'root' | 'a' | 'a1' | 'b', { id: number; path: string }>;
let u: Record<'two' | 'none' | 'one' | 'pending', number>;
let fee: { campaignId: number; feeLevelId: number };

const orgRow = async (id: number) =>
  (await firstRow(t.db.select({ id: organizations.id, path: organizations.path }).from(organizations).where(eq(organizations.id, id))))!;

const assign = (userId: number, status: 'PAID' | 'PENDING') =>
  runQuery(t.db.insert(paymentAssignments).values({ ...fee, userId, status, amount: 10_000 }));

beforeAll(async () => {
  t = await makeTestApp();
  const root = await t.createOrg('doan_truong', 'PR-ROOT');
  const a = await t.createOrg('doan_co_so', 'PR-A', root);
  const a1 = await t.createOrg('chi_doan', 'PR-A1', a);
  const b = await t.createOrg('doan_co_so', 'PR-B', root);
  org = { root: await orgRow(root), a: await orgRow(a), a1: await orgRow(a1), b: await orgRow(b) };
  u = { two: await insertUser(t, {}, a1), none: await insertUser(t), one: await insertUser(t, {}, b), pending: await insertUser(t, {}, a) };
  await addMember(t, u.two, b);
  await addMember(t, u.one, a1, false);
  const now = new Date();
  const campaign = (
    await firstRow(
      t.db
        .insert(paymentCampaigns)
        .values({ organizationId: root, name: 'PR', startDate: now, endDate: now, status: 'ACTIVE' })
        .returning({ id: paymentCampaigns.id }),
    )
  ).id;
  const level = (
    await firstRow(t.db.insert(feeLevels).values({ campaignId: campaign, levelName: 'L', amount: 10_000 }).returning({ id: feeLevels.id }))
  ).id;
  fee = { campaignId: campaign, feeLevelId: level };
  await assign(u.two, 'PAID');
  await assign(u.pending, 'PENDING');
});

describe('a list page’s rows', () => {
  it('carry the same columns, memberships and paid flags as the separate statements, in the order asked', async () => {
    const ids = [u.pending, u.one, 99_999, u.none, u.two];
    const page = await pageRowsByIds(t.db, ids);
    expect(page.map(({ memberOf: _m, paid: _p, ...r }) => r)).toEqual(await rowsByIds(t.db, ids));
    expect(page.map((r) => r.id)).toEqual([u.pending, u.one, u.none, u.two]);
    const entry = (o: { id: number; path: string }) => memberOfEntry(o.id, o.path);
    expect(Object.fromEntries(page.map((r) => [r.id, r.memberOf]))).toEqual({
      [u.pending]: [entry(org.a)],
      [u.one]: [entry(org.b)],
      [u.none]: [],
      [u.two]: [entry(org.a1), entry(org.b)],
    });
    const paid = await paidUserIds(t.db, ids);
    expect(page.map((r) => r.paid)).toEqual(page.map((r) => paid.has(r.id)));
    expect([...paid]).toEqual([u.two]);
  });

  it('the list answers memberOf and hasPaidFees alike when the page is built and when it is served from the cache', async () => {
    const list = async () => {
      const res = await t.request('GET', '/api/users?search=pham&page=1&limit=50', { token: t.adminToken });
      expect(res.status).toBe(200);
      const body = res.body as { users: { id: number; hasPaidFees: boolean; memberOf: unknown[] }[] };
      return body.users.filter((x) => Object.values(u).includes(x.id));
    };
    const built = await list();
    expect(built.filter((x) => x.hasPaidFees).map((x) => x.id)).toEqual([u.two]);
    expect(built.find((x) => x.id === u.two)!.memberOf).toEqual([
      memberOfEntry(org.a1.id, org.a1.path),
      memberOfEntry(org.b.id, org.b.path),
    ]);
    // A payment leaves the cached page alone: the flag is read again.
    await assign(u.none, 'PAID');
    const cached = await list();
    expect(cached.map((x) => x.memberOf)).toEqual(built.map((x) => x.memberOf));
    expect(cached.filter((x) => x.hasPaidFees).map((x) => x.id)).toEqual([u.none, u.two].filter((id) => cached.some((x) => x.id === id)));
  });

  it('a user’s detail answers hasPaidFees by the same rule (read with the row)', async () => {
    const paid = async (id: number) => {
      const res = await t.request('GET', `/api/users/${id}`, { token: t.adminToken });
      expect(res.status).toBe(200);
      return (res.body as { hasPaidFees: boolean }).hasPaidFees;
    };
    expect([await paid(u.two), await paid(u.pending), await paid(u.one)]).toEqual([true, false, false]);
    await assign(u.one, 'PAID');
    expect(await paid(u.one)).toBe(true);
  });
});

describe.skipIf(TEST_ENGINE !== 'pg')('PostgreSQL: a page’s rows with its ids', () => {
  const rowColumns = /"training_department"/;
  const filters = (): [string, ListFilter][] => [
    // users filtered by their columns: the ids keep a plan, joined to the rows PostgreSQL planned them at every call.
    ['everyone (by ids)', { words: [], paths: null }],
    ['one unit’s members', { words: [], paths: [org.root.path] }],
    ['a unit’s students (planned per call, by ids)', { words: [], userType: 'student', paths: [org.root.path] }],
    ['a search in a unit (planned per call, by ids)', { words: ['pham'], paths: [org.root.path] }],
  ];

  it('come in the statement that finds the ids only for a range of one unit’s member_scopes, and answer as the rows by ids do', async () => {
    for (const [name, f] of filters()) {
      let page: Awaited<ReturnType<typeof listPage>> | undefined;
      const sent = await recordStatements(t, async () => (page = await listPage(t.db, f, `rows-of:${name}`, 10, 0)));
      expect(page!.rows.length, name).toBeGreaterThan(0);
      expect(page!.rows, name).toEqual(
        await pageRowsByIds(
          t.db,
          page!.rows.map((r) => r.id),
        ),
      );
      const withRows = sent.filter((text) => rowColumns.test(text));
      expect(withRows, name).toHaveLength(1);
      // Planning the rows' joins costs about a millisecond: never in a statement planned at each call.
      expect(withRows.filter(plannedPerCall), name).toEqual([]);
      // By ids (a JSON array) unless one unit's member_scopes range found them.
      if (name.includes('by ids')) expect(withRows[0], name).toMatch(/jsonb_array_elements_text/);
      else expect(withRows[0], name).not.toMatch(/jsonb_array_elements_text/);
    }
  });
});
