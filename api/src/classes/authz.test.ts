import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogueActors, catalogueRoutes, matrixTests, type MatrixActor } from '../departments/authz.fixture';
import { makeTestApp, type TestApp } from '../test/harness';
import { organizationMembers } from '../db/tables/organizations';
import { users } from '../db/tables/users';
import { classes } from '../db/tables/classes';
import { firstRow, runQuery } from '../db/engine';

const CODES = ['classes.access', 'classes.view_details', 'classes.create', 'classes.update', 'classes.delete'];

let t: TestApp;
let actors: MatrixActor[];
let orgs: Awaited<ReturnType<typeof catalogueActors>>['orgs'];
let n = 0;

/** A fresh class for each write, so every allowed caller has something to change. */
async function fresh(): Promise<number> {
  n += 1;
  return (
    await firstRow(
      t.db
        .insert(classes)
        .values({ name: `Lớp ${n}`, code: `CZ${n}`, year: 2024 })
        .returning(),
    )
  ).id;
}

const routes = catalogueRoutes('/classes', () => t, fresh, {
  create: () => ({ name: `Lớp mới ${++n}`, year: 2024 }),
  rename: { name: 'Lớp đổi tên' },
});

beforeAll(async () => {
  t = await makeTestApp();
  ({ actors, orgs } = await catalogueActors(t, 'CZ', CODES));
});

describe('classes authorization matrix', () => {
  matrixTests(routes, () => actors);

  it('each route needs its own code: a global holder of access and view_details cannot write', async () => {
    const role = await t.createRole('class_reader', ['classes.access', 'classes.view_details']);
    const u = await t.createUser('CZREAD', [{ roleId: role }]);
    const id = await fresh();
    expect((await t.request('GET', `/api/classes/${id}`, { token: u.token })).status).toBe(200);
    expect((await t.request('POST', '/api/classes', { token: u.token, body: { name: 'Lớp cấm' } })).status).toBe(403);
    expect((await t.request('PATCH', `/api/classes/${id}`, { token: u.token, body: { name: 'Lớp cấm' } })).status).toBe(403);
    expect((await t.request('DELETE', `/api/classes/${id}`, { token: u.token })).status).toBe(403);
    expect((await t.request('DELETE', '/api/classes/bulk', { token: u.token, body: { ids: [id] } })).status).toBe(403);
  });

  it('class details: a global grant sees every student, an org-scoped one only members of its subtree', async () => {
    const id = await fresh();
    const inside = await t.createUser('CZIN');
    const outside = await t.createUser('CZOUT');
    const unaffiliated = await t.createUser('CZNONE');
    for (const u of [inside, outside, unaffiliated]) await runQuery(t.db.update(users).set({ classId: id }).where(eq(users.id, u.id)));
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: orgs.chiDoan, userId: inside.id }));
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: orgs.otherFaculty, userId: outside.id }));
    const ids = (body: { students: { id: number }[] }) => body.students.map((s) => s.id).sort((a, b) => a - b);

    const org = await t.request('GET', `/api/classes/${id}`, { token: actors.find((a) => a.name === 'orgInside')!.token });
    expect(org.status).toBe(200);
    expect(ids(org.body)).toEqual([inside.id]);
    expect(org.body.studentCount).toBe(3);

    for (const name of ['superAdmin', 'global'] as const) {
      const res = await t.request('GET', `/api/classes/${id}`, { token: actors.find((a) => a.name === name)!.token });
      expect(ids(res.body)).toEqual([inside.id, outside.id, unaffiliated.id]);
    }
  });
});
