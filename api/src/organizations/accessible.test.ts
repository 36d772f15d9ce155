import { normalizeText } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { organizations } from '../db/tables/organizations';
import { allRows, runQuery } from '../db/engine';

let t: TestApp;
let root: number;
let f1: number;
let f2: number;
let c1: number;
let scoped: { token: string };

beforeAll(async () => {
  t = await makeTestApp();
  root = await t.createOrg('doan_truong', 'AC-ROOT', null, 'Đoàn Trường AC');
  f1 = await t.createOrg('doan_co_so', 'AC-F1', root, 'Đoàn khoa Toán');
  f2 = await t.createOrg('doan_co_so', 'AC-F2', root, 'Đoàn khoa Văn');
  c1 = await t.createOrg('chi_doan', 'AC-C1', f1, 'Chi đoàn Toán 1');
  // The harness stores lower-cased names; the API stores them accent-stripped.
  for (const o of await allRows(t.db.select().from(organizations)))
    await runQuery(
      t.db
        .update(organizations)
        .set({ searchText: normalizeText(`${o.name} ${o.code}`) })
        .where(eq(organizations.id, o.id)),
    );
  const role = await t.createRole('ac_org_reader', ['organizations.access']);
  scoped = await t.createUser('ACU', [{ roleId: role, organizationId: f1 }]);
});

const get = async (query: string, token = t.adminToken) => t.request('GET', `/api/organizations/accessible${query}`, { token });
const ids = async (query: string, token?: string) =>
  (await get(query, token)).body.map((o: { id: number }) => o.id).sort((a: number, b: number) => a - b);

describe('GET /organizations/accessible for pickers', () => {
  it('without parameters answers every visible organization, as before', async () => {
    expect(await ids('')).toEqual(expect.arrayContaining([root, f1, f2, c1]));
    expect(await ids('', scoped.token)).toEqual([f1, c1].sort((a, b) => a - b));
  });

  it('narrows by search words (accents ignored), a limit and named ids, inside what the caller sees', async () => {
    expect(await ids('?search=toan')).toEqual([f1, c1]);
    expect(await ids('?search=Văn')).toEqual([f2]);
    expect(await ids('?limit=2')).toHaveLength(2);
    expect(await ids(`?ids=${f2},${c1}`)).toEqual([f2, c1]);
    // An organization outside the caller's scope is not revealed by naming it.
    expect(await ids(`?ids=${f2},${c1}`, scoped.token)).toEqual([c1]);
    expect(await ids(`?search=toan&limit=1`, scoped.token)).toEqual([f1]);
  });

  it('refuses malformed parameters with 400', async () => {
    expect((await get('?ids=1,x')).status).toBe(400);
    expect((await get('?limit=0')).status).toBe(400);
  });
});
