/** Callers and routes for the catalogue authorization matrices (departments and classes share the rule). */
import { expect, it } from 'vitest';
import type { TestApp } from '../test/harness';

export type ActorName = 'superAdmin' | 'global' | 'orgInside' | 'orgOutside' | 'otherCodes' | 'noRoles';

export interface MatrixActor {
  name: ActorName;
  token: string;
  /** Query suffix naming an organization, to show that naming one never unlocks a write. */
  orgQuery: string;
}

/**
 * superAdmin; a global holder of every `codes`; org-scoped holders of the same codes, one calling
 * with its own (descendant) organization named and one naming an organization outside its subtree;
 * a global holder of unrelated codes; a user with no roles.
 */
export async function catalogueActors(t: TestApp, prefix: string, codes: string[]) {
  const root = await t.createOrg('doan_truong', `${prefix}-ROOT`);
  const faculty = await t.createOrg('doan_co_so', `${prefix}-F1`, root);
  const chiDoan = await t.createOrg('chi_doan', `${prefix}-F1-C1`, faculty);
  const otherFaculty = await t.createOrg('doan_co_so', `${prefix}-F2`, root);
  const full = await t.createRole(`${prefix}_full`, codes);
  const other = await t.createRole(`${prefix}_other`, ['users.access', 'organizations.access']);
  const global = await t.createUser(`${prefix}G`, [{ roleId: full }]);
  const orgScoped = await t.createUser(`${prefix}O`, [{ roleId: full, organizationId: faculty }]);
  const otherCodes = await t.createUser(`${prefix}X`, [{ roleId: other }]);
  const noRoles = await t.createUser(`${prefix}N`);
  const actors: MatrixActor[] = [
    { name: 'superAdmin', token: t.adminToken, orgQuery: '' },
    { name: 'global', token: global.token, orgQuery: '' },
    { name: 'orgInside', token: orgScoped.token, orgQuery: `?organizationId=${chiDoan}` },
    { name: 'orgOutside', token: orgScoped.token, orgQuery: `?organizationId=${otherFaculty}` },
    { name: 'otherCodes', token: otherCodes.token, orgQuery: '' },
    { name: 'noRoles', token: noRoles.token, orgQuery: '' },
  ];
  return { actors, orgs: { root, faculty, chiDoan, otherFaculty } };
}

/** Reads: the code held anywhere. Writes: held globally (or super admin). */
export const READERS: ActorName[] = ['superAdmin', 'global', 'orgInside', 'orgOutside'];
export const WRITERS: ActorName[] = ['superAdmin', 'global'];

export interface MatrixRoute {
  name: string;
  ok: number;
  allowed: ActorName[];
  call: (a: MatrixActor) => Promise<{ status: number }>;
}

/**
 * The six routes of a catalogue (`path` like '/departments'). `app` is read when a route is called,
 * since the test app is built in beforeAll; `fresh` inserts a row for each read or write, so every
 * allowed caller has its own row to change.
 */
export function catalogueRoutes(
  path: string,
  app: () => TestApp,
  fresh: () => Promise<number>,
  bodies: { create: () => Record<string, unknown>; rename: Record<string, unknown> },
): MatrixRoute[] {
  const api = `/api${path}`;
  return [
    { name: `GET ${path}`, ok: 200, allowed: READERS, call: (a) => app().request('GET', `${api}${a.orgQuery}`, { token: a.token }) },
    {
      name: `GET ${path}/:id`,
      ok: 200,
      allowed: READERS,
      call: async (a) => app().request('GET', `${api}/${await fresh()}${a.orgQuery}`, { token: a.token }),
    },
    {
      name: `POST ${path}`,
      ok: 201,
      allowed: WRITERS,
      call: (a) => app().request('POST', `${api}${a.orgQuery}`, { token: a.token, body: bodies.create() }),
    },
    {
      name: `PATCH ${path}/:id`,
      ok: 200,
      allowed: WRITERS,
      call: async (a) => app().request('PATCH', `${api}/${await fresh()}${a.orgQuery}`, { token: a.token, body: bodies.rename }),
    },
    {
      name: `DELETE ${path}/:id`,
      ok: 200,
      allowed: WRITERS,
      call: async (a) => app().request('DELETE', `${api}/${await fresh()}${a.orgQuery}`, { token: a.token }),
    },
    {
      name: `DELETE ${path}/bulk`,
      ok: 200,
      allowed: WRITERS,
      call: async (a) =>
        app().request('DELETE', `${api}/bulk${a.orgQuery}`, { token: a.token, body: { ids: [await fresh(), await fresh()] } }),
    },
  ];
}

/** Two tests per route: the allowed callers get `ok` and every other caller 403; no token gets 401. */
export function matrixTests(routes: MatrixRoute[], actors: () => MatrixActor[]) {
  for (const r of routes) {
    it(`${r.name}: allowed for ${r.allowed.join(', ')}; 403 for the others`, async () => {
      for (const a of actors()) {
        const res = await r.call(a);
        expect({ actor: a.name, status: res.status }).toEqual({ actor: a.name, status: r.allowed.includes(a.name) ? r.ok : 403 });
      }
    });

    it(`${r.name}: 401 without a token`, async () => {
      const res = await r.call({ name: 'noRoles', token: '', orgQuery: '' });
      expect(res.status).toBe(401);
    });
  }
}
