/**
 * Authorization matrix of the import routes: users (users.create anywhere; rows scoped by
 * organization), departments and classes (a global create grant), organization members
 * (organizations.add_member in the target organization or above it).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogueActors, type ActorName, type MatrixActor } from '../departments/authz.fixture';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/fixture';
import { form, UNTHROTTLED, xlsx } from './fixture';

let t: TestApp;
let actors: MatrixActor[];
let orgs: { root: number; faculty: number; chiDoan: number; otherFaculty: number };
let n = 0;

const CODES = [
  'users.access',
  'users.create',
  'departments.access',
  'departments.create',
  'classes.access',
  'classes.create',
  'organizations.access',
  'organizations.add_member',
];
const EVERY_HOLDER: ActorName[] = ['superAdmin', 'global', 'orgInside', 'orgOutside'];
const GLOBAL_ONLY: ActorName[] = ['superAdmin', 'global'];
const IN_ORGANIZATION: ActorName[] = ['superAdmin', 'global', 'orgInside'];

async function usersFile() {
  n += 1;
  return form(
    await xlsx(['code', 'familyName', 'givenName', 'email', 'organizationCodes'], [[`AZU${n}`, 'Lê', 'An', `azu${n}@sv.vn`, 'AZ-F1-C1']]),
  );
}
const catalogueFile = async () => form(await xlsx(['name', 'code'], [[`Khoa AZ ${++n}`, `AZK${n}`]]));
const memberTarget = (a: MatrixActor) => (a.name === 'orgOutside' ? orgs.otherFaculty : orgs.chiDoan);

/** Upload as this actor (when allowed) so the session routes have a session of theirs to act on. */
async function sessionOf(a: MatrixActor, uploadPath: string, file: () => Promise<FormData>): Promise<string> {
  const up = await t.request('POST', uploadPath, { token: a.token, body: await file() });
  return up.status === 201 ? up.body.sessionId : '00000000-0000-4000-8000-000000000000';
}

type Route = {
  name: string;
  ok: number;
  allowed: ActorName[];
  /** Callers who hold the code but can have no session here: their (unknown) session answers 404. */
  notFound?: ActorName[];
  call: (a: MatrixActor) => Promise<{ status: number }>;
};

function sessionRoutes(
  prefix: string,
  uploadPath: (a: MatrixActor) => string,
  file: () => Promise<FormData>,
  allowed: ActorName[],
  notFound?: ActorName[],
): Route[] {
  const session = (a: MatrixActor) => sessionOf(a, uploadPath(a), file);
  return [
    {
      name: `GET ${prefix}/:id/validate`,
      ok: 200,
      allowed,
      notFound,
      call: async (a) => t.request('GET', `${prefix}/${await session(a)}/validate`, { token: a.token }),
    },
    {
      name: `POST ${prefix}/:id/execute`,
      ok: 200,
      allowed,
      notFound,
      call: async (a) => t.request('POST', `${prefix}/${await session(a)}/execute`, { token: a.token, body: {} }),
    },
    {
      name: `GET ${prefix}/:id/status`,
      ok: 200,
      allowed,
      notFound,
      call: async (a) => t.request('GET', `${prefix}/${await session(a)}/status`, { token: a.token }),
    },
    {
      name: `GET ${prefix}/:id/error-rows`,
      ok: 200,
      allowed,
      notFound,
      call: async (a) => t.request('GET', `${prefix}/${await session(a)}/error-rows`, { token: a.token }),
    },
  ];
}

const membersUpload = (a: MatrixActor) => `/api/organizations/members/import/upload?level=3&organizationId=${memberTarget(a)}`;
const membersFile = async () => form(await xlsx(['studentCode'], [['AZMEMBER']]));

const routes: Route[] = [
  { name: 'GET /users/template', ok: 200, allowed: EVERY_HOLDER, call: (a) => t.request('GET', '/api/users/template', { token: a.token }) },
  {
    name: 'POST /users/import/headers',
    ok: 200,
    allowed: EVERY_HOLDER,
    call: async (a) => t.request('POST', '/api/users/import/headers', { token: a.token, body: await usersFile() }),
  },
  {
    name: 'POST /users/import/upload',
    ok: 201,
    allowed: EVERY_HOLDER,
    call: async (a) => t.request('POST', '/api/users/import/upload', { token: a.token, body: await usersFile() }),
  },
  ...sessionRoutes('/api/users/import', () => '/api/users/import/upload', usersFile, EVERY_HOLDER),
  {
    name: 'GET /departments/template',
    ok: 200,
    allowed: GLOBAL_ONLY,
    call: (a) => t.request('GET', '/api/departments/template', { token: a.token }),
  },
  {
    name: 'POST /departments/import/headers',
    ok: 200,
    allowed: GLOBAL_ONLY,
    call: async (a) => t.request('POST', '/api/departments/import/headers', { token: a.token, body: await catalogueFile() }),
  },
  {
    name: 'POST /departments/import/upload',
    ok: 201,
    allowed: GLOBAL_ONLY,
    call: async (a) => t.request('POST', '/api/departments/import/upload', { token: a.token, body: await catalogueFile() }),
  },
  ...sessionRoutes('/api/departments/import', () => '/api/departments/import/upload', catalogueFile, GLOBAL_ONLY),
  {
    name: 'POST /departments/import (legacy)',
    ok: 200,
    allowed: GLOBAL_ONLY,
    call: async (a) => t.request('POST', '/api/departments/import', { token: a.token, body: await catalogueFile() }),
  },
  {
    name: 'GET /classes/template',
    ok: 200,
    allowed: GLOBAL_ONLY,
    call: (a) => t.request('GET', '/api/classes/template', { token: a.token }),
  },
  {
    name: 'POST /classes/import/headers',
    ok: 200,
    allowed: GLOBAL_ONLY,
    call: async (a) => t.request('POST', '/api/classes/import/headers', { token: a.token, body: await catalogueFile() }),
  },
  {
    name: 'POST /classes/import/upload',
    ok: 201,
    allowed: GLOBAL_ONLY,
    call: async (a) => t.request('POST', '/api/classes/import/upload', { token: a.token, body: await catalogueFile() }),
  },
  ...sessionRoutes('/api/classes/import', () => '/api/classes/import/upload', catalogueFile, GLOBAL_ONLY),
  {
    name: 'GET /organizations/template/3',
    ok: 200,
    allowed: EVERY_HOLDER,
    call: (a) => t.request('GET', '/api/organizations/template/3', { token: a.token }),
  },
  {
    name: 'GET /organizations/members/import/template/2',
    ok: 200,
    allowed: EVERY_HOLDER,
    call: (a) => t.request('GET', '/api/organizations/members/import/template/2', { token: a.token }),
  },
  {
    name: 'POST /organizations/members/import/headers',
    ok: 200,
    allowed: EVERY_HOLDER,
    call: async (a) =>
      t.request('POST', '/api/organizations/members/import/headers?level=3', { token: a.token, body: await membersFile() }),
  },
  {
    name: 'POST /organizations/members/import/upload',
    ok: 201,
    allowed: IN_ORGANIZATION,
    call: async (a) => t.request('POST', membersUpload(a), { token: a.token, body: await membersFile() }),
  },
  ...sessionRoutes('/api/organizations/import', membersUpload, membersFile, IN_ORGANIZATION, ['orgOutside']),
];

beforeAll(async () => {
  t = await makeTestApp(UNTHROTTLED);
  ({ actors, orgs } = await catalogueActors(t, 'AZ', CODES));
  await insertUser(t, { code: 'AZMEMBER' });
});

describe('imports authorization matrix', () => {
  for (const r of routes) {
    it(`${r.name}: allowed for ${r.allowed.join(', ')}; 403 for the others`, async () => {
      for (const a of actors) {
        const res = await r.call(a);
        const expected = r.allowed.includes(a.name) ? r.ok : r.notFound?.includes(a.name) ? 404 : 403;
        expect({ actor: a.name, status: res.status }).toEqual({ actor: a.name, status: expected });
      }
    });

    it(`${r.name}: 401 without a token`, async () => {
      const res = await r.call({ name: 'noRoles', token: '', orgQuery: '' });
      expect(res.status).toBe(401);
    });
  }

  it('an organization-scoped creator’s rows outside its organization are refused row by row', async () => {
    const outside = actors.find((a) => a.name === 'orgOutside')!;
    const up = await t.request('POST', '/api/users/import/upload', {
      token: outside.token,
      body: form(
        await xlsx(['code', 'familyName', 'givenName', 'email', 'organizationCodes'], [['AZX1', 'Lê', 'An', 'azx1@sv.vn', 'AZ-F2']]),
      ),
    });
    const ex = await t.request('POST', `/api/users/import/${up.body.sessionId}/execute`, { token: outside.token, body: {} });
    expect(ex.body).toMatchObject({ importedCount: 0, failedCount: 1 });
    expect(ex.body.errors[0].message).toContain('không có quyền');
  });
});
