import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { departments } from '../db/tables/departments';
import { catalogueActors, catalogueRoutes, matrixTests, type MatrixActor } from './authz.fixture';
import { firstRow } from '../db/engine';

const CODES = ['departments.access', 'departments.view_details', 'departments.create', 'departments.update', 'departments.delete'];

let t: TestApp;
let actors: MatrixActor[];
let n = 0;

/** A fresh department for each write, so every allowed caller has something to change. */
async function fresh(): Promise<number> {
  n += 1;
  return (
    await firstRow(
      t.db
        .insert(departments)
        .values({ name: `Khoa ${n}`, code: `AZ${n}` })
        .returning(),
    )
  ).id;
}

const routes = catalogueRoutes('/departments', () => t, fresh, {
  create: () => ({ name: `Khoa mới ${++n}` }),
  rename: { name: 'Khoa đổi tên' },
});

beforeAll(async () => {
  t = await makeTestApp();
  ({ actors } = await catalogueActors(t, 'DZ', CODES));
});

describe('departments authorization matrix', () => {
  matrixTests(routes, () => actors);

  it('each route needs its own code: a global holder of access only can list but not read details or write', async () => {
    const role = await t.createRole('dept_access_only', ['departments.access']);
    const u = await t.createUser('DZACC', [{ roleId: role }]);
    const id = await fresh();
    expect((await t.request('GET', '/api/departments', { token: u.token })).status).toBe(200);
    expect((await t.request('GET', `/api/departments/${id}`, { token: u.token })).status).toBe(403);
    expect((await t.request('POST', '/api/departments', { token: u.token, body: { name: 'Khoa cấm' } })).status).toBe(403);
    expect((await t.request('PATCH', `/api/departments/${id}`, { token: u.token, body: { name: 'Khoa cấm' } })).status).toBe(403);
    expect((await t.request('DELETE', `/api/departments/${id}`, { token: u.token })).status).toBe(403);
  });

  it('checks permission before the id: a forbidden caller gets 403 even for an unknown department', async () => {
    const org = actors.find((a) => a.name === 'orgInside')!;
    expect((await t.request('DELETE', '/api/departments/999999', { token: org.token })).status).toBe(403);
  });
});
