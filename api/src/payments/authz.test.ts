/**
 * Authorization matrix of every payment route (001 §6): a super admin, a global holder of every
 * payment code, the same codes held on a faculty (inside: the campaign is in its chi đoàn;
 * outside: the campaign is in another faculty), a holder of unrelated codes and a user with no roles.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@doanhoi/shared';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, join, liveServer } from './fixture';
import { paymentRoutes } from './authz-routes';
import { matrixFixtures, type Actor, type Matrix } from './authz-fixtures';

let t: TestApp;
let server: Awaited<ReturnType<typeof liveServer>>;
let actors: Actor[];
// Filled in before the first call: the table's calls read it when they run.
const m = {} as Matrix;
const routes = paymentRoutes(m);
const { withAssignment, r } = matrixFixtures(m);

beforeAll(async () => {
  t = await makeTestApp();
  server = await liveServer(t);
  const root = await t.createOrg('doan_truong', 'AZP');
  const faculty = await t.createOrg('doan_co_so', 'AZP-F1', root);
  const chiDoan = await t.createOrg('chi_doan', 'AZP-F1-C1', faculty);
  const otherFaculty = await t.createOrg('doan_co_so', 'AZP-F2', root);
  const codes = PERMISSIONS.map((p) => p.code).filter((c) => c.startsWith('payment-campaigns.'));
  const full = await t.createRole('azp_full', codes);
  const other = await t.createRole('azp_other', ['users.access', 'organizations.access', 'my-payments.access']);
  const global = await t.createUser('AZPG', [{ roleId: full }]);
  const inside = await t.createUser('AZPI', [{ roleId: full, organizationId: faculty }]);
  const outside = await t.createUser('AZPO', [{ roleId: full, organizationId: otherFaculty }]);
  const otherCodes = await t.createUser('AZPX', [{ roleId: other }]);
  const noRoles = await t.createUser('AZPN');
  const member = await t.createUser('AZPM');
  actors = [
    { name: 'superAdmin', id: t.admin.user.id, token: t.adminToken },
    { name: 'global', ...global },
    { name: 'orgInside', ...inside },
    { name: 'orgOutside', ...outside },
    { name: 'otherCodes', ...otherCodes },
    { name: 'noRoles', ...noRoles },
  ];
  // Everyone is a member of the chi đoàn, so each may hold (and pay) their own fee there.
  for (const a of [...actors, member]) await join(t, a.id, chiDoan);
  Object.assign(m, { t, api: campaigns(t), chiDoan, member });
});
afterAll(() => server.close());

describe('payments authorization matrix', () => {
  for (const route of routes) {
    it(`${route.name}: ${route.allowed.length ? route.allowed.join(', ') : 'nobody'}; 403 for the others (404 where the record is hidden)`, async () => {
      for (const a of actors) {
        const res = await route.call(a);
        const refused = route.hidden?.includes(a.name) ? 404 : 403;
        expect({ actor: a.name, status: res.status }).toEqual({
          actor: a.name,
          status: route.allowed.includes(a.name) ? route.ok : refused,
        });
      }
    });

    it(`${route.name}: 401 without a token`, async () => {
      const res = await route.call({ name: 'noRoles', id: m.member.id, token: '' });
      expect(res.status).toBe(401);
    });
  }

  it('lists are scoped: an organization role outside sees neither the campaign nor its assignments', async () => {
    const { campaignId, assignmentId } = await withAssignment();
    const outside = actors.find((a) => a.name === 'orgOutside')!;
    const inside = actors.find((a) => a.name === 'orgInside')!;
    const ids = async (a: Actor) => (await r('GET', '/api/payment-campaigns?limit=100', a)).body.campaigns.map((c: { id: number }) => c.id);
    expect(await ids(inside)).toContain(campaignId);
    expect(await ids(outside)).not.toContain(campaignId);
    const assigned = async (a: Actor) =>
      (await r('GET', '/api/payment/assignments?limit=100', a)).body.data.assignments.map((x: { id: number }) => x.id);
    expect(await assigned(inside)).toContain(assignmentId);
    expect(await assigned(outside)).not.toContain(assignmentId);
  });

  it('the webhook needs no sign-in (payOS calls it); its signature is its authentication', async () => {
    const res = await t.request('POST', '/api/payment/webhook/payos', { body: { code: '00', data: { orderCode: 1 }, signature: 'x' } });
    expect(res.status).toBe(200);
  });
});
