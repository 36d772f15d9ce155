import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { departments } from './schema';
import { catalogueActors, READERS, WRITERS, type MatrixActor } from './authz.fixture';

const CODES = ['departments.access', 'departments.view_details', 'departments.create', 'departments.update', 'departments.delete'];

let t: TestApp;
let actors: MatrixActor[];
let n = 0;

/** A fresh department for each write, so every allowed caller has something to change. */
function fresh(): number {
  n += 1;
  return t.db.insert(departments).values({ name: `Khoa ${n}`, code: `AZ${n}` }).returning().get().id;
}

const routes: { name: string; call: (a: MatrixActor) => Promise<{ status: number }>; ok: number; allowed: string[] }[] = [
  { name: 'GET /departments', ok: 200, allowed: READERS, call: (a) => t.request('GET', `/api/departments${a.orgQuery}`, { token: a.token }) },
  { name: 'GET /departments/:id', ok: 200, allowed: READERS, call: (a) => t.request('GET', `/api/departments/${fresh()}${a.orgQuery}`, { token: a.token }) },
  {
    name: 'POST /departments',
    ok: 201,
    allowed: WRITERS,
    call: (a) => t.request('POST', `/api/departments${a.orgQuery}`, { token: a.token, body: { name: `Khoa mới ${++n}` } }),
  },
  {
    name: 'PATCH /departments/:id',
    ok: 200,
    allowed: WRITERS,
    call: (a) => t.request('PATCH', `/api/departments/${fresh()}${a.orgQuery}`, { token: a.token, body: { name: 'Khoa đổi tên' } }),
  },
  { name: 'DELETE /departments/:id', ok: 200, allowed: WRITERS, call: (a) => t.request('DELETE', `/api/departments/${fresh()}${a.orgQuery}`, { token: a.token }) },
  {
    name: 'DELETE /departments/bulk',
    ok: 200,
    allowed: WRITERS,
    call: (a) => t.request('DELETE', `/api/departments/bulk${a.orgQuery}`, { token: a.token, body: { ids: [fresh(), fresh()] } }),
  },
];

beforeAll(async () => {
  t = await makeTestApp();
  ({ actors } = await catalogueActors(t, 'DZ', CODES));
});

describe('departments authorization matrix', () => {
  for (const r of routes) {
    it(`${r.name}: allowed for ${r.allowed.join(', ')}; 403 for the others`, async () => {
      for (const a of actors) {
        const res = await r.call(a);
        expect({ actor: a.name, status: res.status }).toEqual({ actor: a.name, status: r.allowed.includes(a.name) ? r.ok : 403 });
      }
    });

    it(`${r.name}: 401 without a token`, async () => {
      const res = await r.call({ name: 'noRoles', token: '', orgQuery: '' });
      expect(res.status).toBe(401);
    });
  }

  it('each route needs its own code: a global holder of access only can list but not read details or write', async () => {
    const role = t.createRole('dept_access_only', ['departments.access']);
    const u = await t.createUser('DZACC', [{ roleId: role }]);
    const id = fresh();
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
