/**
 * Authorization matrix of the export routes: users (users.export anywhere, rows scoped), an
 * organization's members (organizations.export there or above), a campaign's assignments
 * (payment-campaigns.export in the campaign's organization or above).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogueActors, type ActorName, type MatrixActor } from '../departments/authz.fixture';
import { download } from '../imports/fixture';
import { paymentCampaigns } from '../db/tables/payments';
import { makeTestApp, type TestApp } from '../test/harness';
import { firstRow } from '../db/engine';

let t: TestApp;
let actors: MatrixActor[];
let campaignIn: number;
let campaignOut: number;
let orgs: { root: number; faculty: number; chiDoan: number; otherFaculty: number };

const CODES = [
  'users.access',
  'users.export',
  'organizations.access',
  'organizations.export',
  'payment-campaigns.access',
  'payment-campaigns.export',
];
const EVERY_HOLDER: ActorName[] = ['superAdmin', 'global', 'orgInside', 'orgOutside'];
const IN_ORGANIZATION: ActorName[] = ['superAdmin', 'global', 'orgInside'];
/** orgInside targets a descendant of its organization, orgOutside one beside it. */
const target = (a: MatrixActor, inside: number, outside: number) => (a.name === 'orgOutside' ? outside : inside);

const routes: { name: string; allowed: ActorName[]; call: (a: MatrixActor) => Promise<{ status: number }> }[] = [
  {
    name: 'POST /export/users',
    allowed: EVERY_HOLDER,
    call: (a) => download(t, 'POST', '/api/export/users', a.token, { fields: ['code'] }),
  },
  {
    name: 'POST /export/organizations/:id/members',
    allowed: IN_ORGANIZATION,
    call: (a) =>
      download(t, 'POST', `/api/export/organizations/${target(a, orgs.chiDoan, orgs.otherFaculty)}/members`, a.token, { fields: ['code'] }),
  },
  {
    name: 'POST /export/payment-assignments/:campaignId',
    allowed: IN_ORGANIZATION,
    call: (a) =>
      download(t, 'POST', `/api/export/payment-assignments/${target(a, campaignIn, campaignOut)}`, a.token, { fields: ['memberCode'] }),
  },
];

beforeAll(async () => {
  t = await makeTestApp();
  ({ actors, orgs } = await catalogueActors(t, 'EZ', CODES));
  const campaign = async (organizationId: number) =>
    (
      await firstRow(
        t.db
          .insert(paymentCampaigns)
          .values({ organizationId, name: `Đợt ${organizationId}`, startDate: new Date(), endDate: new Date(Date.now() + 86_400_000) })
          .returning(),
      )
    ).id;
  campaignIn = await campaign(orgs.chiDoan);
  campaignOut = await campaign(orgs.otherFaculty);
});

describe('exports authorization matrix', () => {
  for (const r of routes) {
    it(`${r.name}: allowed for ${r.allowed.join(', ')}; 403 for the others`, async () => {
      for (const a of actors) {
        const res = await r.call(a);
        expect({ actor: a.name, status: res.status }).toEqual({ actor: a.name, status: r.allowed.includes(a.name) ? 200 : 403 });
      }
    });

    it(`${r.name}: 401 without a token`, async () => {
      expect((await r.call({ name: 'noRoles', token: '', orgQuery: '' })).status).toBe(401);
    });
  }

  it('checks permission before the body: a caller without the code gets 403 even with no fields', async () => {
    const none = actors.find((a) => a.name === 'noRoles')!;
    expect((await t.request('POST', '/api/export/users', { token: none.token, body: {} })).status).toBe(403);
  });
});
