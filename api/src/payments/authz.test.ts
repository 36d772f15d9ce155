/**
 * Authorization matrix of every payment route (001 §6): a super admin, a global holder of every
 * payment code, the same codes held on a faculty (inside: the campaign is in its chi đoàn;
 * outside: the campaign is in another faculty), a holder of unrelated codes and a user with no roles.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@doanhoi/shared';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, join, liveServer, SANDBOX_CREDS } from './fixture';
import { paymentCampaigns, paymentOrders } from '../db/tables/payments';

type Name = 'superAdmin' | 'global' | 'orgInside' | 'orgOutside' | 'otherCodes' | 'noRoles';
interface Actor {
  name: Name;
  id: number;
  token: string;
}

const ALL: Name[] = ['superAdmin', 'global', 'orgInside', 'orgOutside', 'otherCodes', 'noRoles'];
/** The code held in the campaign's organization (or globally). */
const IN: Name[] = ['superAdmin', 'global', 'orgInside'];
/** Who cannot see the campaign's orders: another member's order or fee is "not found" to them (issue 26 item 9). */
const HIDDEN: Name[] = ['orgOutside', 'otherCodes', 'noRoles'];
/** The code held somewhere: lists answer, scoped to where it is held. */
const ANYWHERE: Name[] = ['superAdmin', 'global', 'orgInside', 'orgOutside'];

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let server: Awaited<ReturnType<typeof liveServer>>;
let actors: Actor[];
let chiDoan: number;
let member: { id: number; token: string };

beforeAll(async () => {
  t = await makeTestApp();
  server = await liveServer(t);
  api = campaigns(t);
  const root = t.createOrg('doan_truong', 'AZP');
  const faculty = t.createOrg('doan_co_so', 'AZP-F1', root);
  chiDoan = t.createOrg('chi_doan', 'AZP-F1-C1', faculty);
  const otherFaculty = t.createOrg('doan_co_so', 'AZP-F2', root);
  const codes = PERMISSIONS.map((p) => p.code).filter((c) => c.startsWith('payment-campaigns.'));
  const full = t.createRole('azp_full', codes);
  const other = t.createRole('azp_other', ['users.access', 'organizations.access', 'my-payments.access']);
  const global = await t.createUser('AZPG', [{ roleId: full }]);
  const inside = await t.createUser('AZPI', [{ roleId: full, organizationId: faculty }]);
  const outside = await t.createUser('AZPO', [{ roleId: full, organizationId: otherFaculty }]);
  const otherCodes = await t.createUser('AZPX', [{ roleId: other }]);
  const noRoles = await t.createUser('AZPN');
  member = await t.createUser('AZPM');
  actors = [
    { name: 'superAdmin', id: t.admin.user.id, token: t.adminToken },
    { name: 'global', ...global },
    { name: 'orgInside', ...inside },
    { name: 'orgOutside', ...outside },
    { name: 'otherCodes', ...otherCodes },
    { name: 'noRoles', ...noRoles },
  ];
  // Everyone is a member of the chi đoàn, so each may hold (and pay) their own fee there.
  for (const a of [...actors, member]) join(t, a.id, chiDoan);
});
afterAll(() => server.close());

// Fresh fixtures per call, so every allowed caller has something to act on.
const draft = async () => (await api.create(chiDoan)).id as number;
async function withLevel() {
  const id = await draft();
  return { campaignId: id, levelId: (await api.level(id)).id as number };
}
async function withAssignment(userId = member.id) {
  const { campaignId, levelId } = await withLevel();
  return { campaignId, levelId, assignmentId: (await api.assign(campaignId, userId, levelId)).id as number };
}
async function inStatus(status: 'ACTIVE' | 'COMPLETED') {
  const { campaignId } = await withAssignment();
  t.db.update(paymentCampaigns).set({ status }).where(eq(paymentCampaigns.id, campaignId)).run();
  return campaignId;
}
async function withConfig() {
  const id = await draft();
  await api.config(id);
  return id;
}
/** An ACTIVE campaign where `userId` has a PENDING fee, and that user's open order (made with their token). */
async function ownOrder(userId: number, token: string) {
  const { campaign, assignments } = await api.active(chiDoan, [userId]);
  const res = await t.request('POST', '/api/payment/create-payment-link', { token, body: { assignmentId: assignments[0].id } });
  return { campaignId: campaign.id as number, assignmentId: assignments[0].id as number, orderCode: res.body.data.orderCode as number };
}
const orderId = (orderCode: number) => t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, orderCode)).get()!.id;

interface Route {
  name: string;
  ok: number;
  allowed: Name[];
  /** Refused with 404 instead of 403 (what they may not know exists). */
  hidden?: Name[];
  call: (a: Actor) => Promise<{ status: number; body: any }>;
}
const r = (method: string, path: string, a: Actor, body?: unknown) => t.request(method, path, { token: a.token, body });

const routes: Route[] = [
  // Campaigns
  { name: 'GET /payment-campaigns', ok: 200, allowed: ANYWHERE, call: (a) => r('GET', '/api/payment-campaigns', a) },
  {
    name: 'GET /payment-campaigns/accessible-organizations',
    ok: 200,
    allowed: ANYWHERE,
    call: (a) => r('GET', '/api/payment-campaigns/accessible-organizations', a),
  },
  {
    name: 'GET /payment-campaigns/organization/:id',
    ok: 200,
    allowed: IN,
    call: (a) => r('GET', `/api/payment-campaigns/organization/${chiDoan}`, a),
  },
  {
    name: 'POST /payment-campaigns',
    ok: 201,
    allowed: IN,
    call: (a) =>
      r('POST', '/api/payment-campaigns', a, {
        organizationId: chiDoan,
        name: 'Đợt',
        startDate: '2027-01-01T00:00:00',
        endDate: '2027-02-01T00:00:00',
      }),
  },
  { name: 'GET /payment-campaigns/:id', ok: 200, allowed: IN, call: async (a) => r('GET', `/api/payment-campaigns/${await draft()}`, a) },
  {
    name: 'GET /payment-campaigns/:id/statistics',
    ok: 200,
    allowed: IN,
    call: async (a) => r('GET', `/api/payment-campaigns/${await draft()}/statistics`, a),
  },
  {
    name: 'PATCH /payment-campaigns/:id',
    ok: 200,
    allowed: IN,
    call: async (a) => r('PATCH', `/api/payment-campaigns/${await draft()}`, a, { name: 'Tên mới' }),
  },
  {
    name: 'DELETE /payment-campaigns/:id',
    ok: 200,
    allowed: IN,
    call: async (a) => r('DELETE', `/api/payment-campaigns/${await inStatus('COMPLETED')}`, a),
  },
  {
    name: 'POST /payment-campaigns/:id/activate',
    ok: 200,
    allowed: IN,
    call: async (a) => {
      const { campaignId } = await withAssignment();
      await api.config(campaignId);
      return r('POST', `/api/payment-campaigns/${campaignId}/activate`, a);
    },
  },
  {
    name: 'POST /payment-campaigns/:id/complete',
    ok: 200,
    allowed: IN,
    call: async (a) => r('POST', `/api/payment-campaigns/${await inStatus('ACTIVE')}/complete`, a),
  },
  {
    name: 'POST /payment-campaigns/:id/cancel',
    ok: 200,
    allowed: IN,
    call: async (a) => r('POST', `/api/payment-campaigns/${await inStatus('ACTIVE')}/cancel`, a),
  },
  // payOS config
  {
    name: 'GET /payment-campaigns/:id/payos-config',
    ok: 200,
    allowed: IN,
    call: async (a) => r('GET', `/api/payment-campaigns/${await withConfig()}/payos-config`, a),
  },
  {
    name: 'GET /payment-campaigns/:id/payos-config?reveal=true',
    ok: 200,
    allowed: IN,
    call: async (a) => r('GET', `/api/payment-campaigns/${await withConfig()}/payos-config?reveal=true`, a),
  },
  {
    name: 'GET /payment-campaigns/:id/payos-config/effective',
    ok: 200,
    allowed: IN,
    call: async (a) => r('GET', `/api/payment-campaigns/${await withConfig()}/payos-config/effective`, a),
  },
  {
    name: 'POST /payment-campaigns/:id/payos-config',
    ok: 201,
    allowed: IN,
    call: async (a) => r('POST', `/api/payment-campaigns/${await draft()}/payos-config`, a, SANDBOX_CREDS),
  },
  {
    name: 'PUT /payment-campaigns/:id/payos-config',
    ok: 200,
    allowed: IN,
    call: async (a) => r('PUT', `/api/payment-campaigns/${await withConfig()}/payos-config`, a, { isActive: false }),
  },
  {
    name: 'DELETE /payment-campaigns/:id/payos-config',
    ok: 200,
    allowed: IN,
    call: async (a) => r('DELETE', `/api/payment-campaigns/${await withConfig()}/payos-config`, a),
  },
  {
    name: 'POST /payment-campaigns/:id/payos-config/toggle-active',
    ok: 200,
    allowed: IN,
    call: async (a) => r('POST', `/api/payment-campaigns/${await withConfig()}/payos-config/toggle-active`, a),
  },
  {
    name: 'POST /payment-campaigns/:id/payos-config/test-connection',
    ok: 200,
    allowed: IN,
    call: async (a) => r('POST', `/api/payment-campaigns/${await withConfig()}/payos-config/test-connection`, a, {}),
  },
  // Fee levels
  {
    name: 'GET /payment-fee-levels/campaign/:id',
    ok: 200,
    allowed: IN,
    call: async (a) => r('GET', `/api/payment-fee-levels/campaign/${await draft()}`, a),
  },
  {
    name: 'GET /payment-fee-levels/:id',
    ok: 200,
    allowed: IN,
    call: async (a) => r('GET', `/api/payment-fee-levels/${(await withLevel()).levelId}`, a),
  },
  {
    name: 'POST /payment-fee-levels',
    ok: 201,
    allowed: IN,
    call: async (a) => r('POST', '/api/payment-fee-levels', a, { campaignId: await draft(), levelName: 'Mức', amount: 1000 }),
  },
  {
    name: 'PATCH /payment-fee-levels/:id',
    ok: 200,
    allowed: IN,
    call: async (a) => r('PATCH', `/api/payment-fee-levels/${(await withLevel()).levelId}`, a, { amount: 2000 }),
  },
  {
    name: 'DELETE /payment-fee-levels/:id',
    ok: 200,
    allowed: IN,
    call: async (a) => r('DELETE', `/api/payment-fee-levels/${(await withLevel()).levelId}`, a),
  },
  {
    name: 'POST /payment-fee-levels/:id/set-default',
    ok: 200,
    allowed: IN,
    call: async (a) => r('POST', `/api/payment-fee-levels/${(await withLevel()).levelId}/set-default`, a),
  },
  // Assignments
  { name: 'GET /payment/assignments', ok: 200, allowed: ANYWHERE, call: (a) => r('GET', '/api/payment/assignments', a) },
  {
    name: 'GET /payment/assignments?campaignId',
    ok: 200,
    allowed: IN,
    call: async (a) => r('GET', `/api/payment/assignments?campaignId=${await draft()}`, a),
  },
  {
    name: 'GET /payment/assignments/statistics',
    ok: 200,
    allowed: IN,
    call: async (a) => r('GET', `/api/payment/assignments/statistics?campaignId=${await draft()}`, a),
  },
  {
    name: 'GET /payment/assignments/my-assignments',
    ok: 200,
    allowed: ALL,
    call: (a) => r('GET', '/api/payment/assignments/my-assignments', a),
  },
  {
    name: 'GET /payment/assignments/organization/:id',
    ok: 200,
    allowed: IN,
    call: (a) => r('GET', `/api/payment/assignments/organization/${chiDoan}`, a),
  },
  {
    name: 'GET /payment/assignments/:id (someone else’s)',
    ok: 200,
    allowed: IN,
    call: async (a) => r('GET', `/api/payment/assignments/${(await withAssignment()).assignmentId}`, a),
  },
  {
    name: 'GET /payment/assignments/:id (own)',
    ok: 200,
    allowed: ALL,
    call: async (a) => r('GET', `/api/payment/assignments/${(await withAssignment(a.id)).assignmentId}`, a),
  },
  {
    name: 'POST /payment/assignments',
    ok: 201,
    allowed: IN,
    call: async (a) => {
      const { campaignId, levelId } = await withLevel();
      return r('POST', '/api/payment/assignments', a, { campaignId, userId: member.id, feeLevelId: levelId });
    },
  },
  {
    name: 'POST /payment/assignments/bulk',
    ok: 201,
    allowed: IN,
    call: async (a) => {
      const { campaignId, levelId } = await withLevel();
      return r('POST', '/api/payment/assignments/bulk', a, { assignments: [{ campaignId, userId: member.id, feeLevelId: levelId }] });
    },
  },
  {
    name: 'PUT /payment/assignments/:id',
    ok: 200,
    allowed: IN,
    call: async (a) => r('PUT', `/api/payment/assignments/${(await withAssignment()).assignmentId}`, a, { notes: 'x' }),
  },
  {
    name: 'PATCH /payment/assignments/:id',
    ok: 200,
    allowed: IN,
    call: async (a) => r('PATCH', `/api/payment/assignments/${(await withAssignment()).assignmentId}`, a, { notes: 'x' }),
  },
  {
    name: 'DELETE /payment/assignments/:id',
    ok: 200,
    allowed: IN,
    call: async (a) => r('DELETE', `/api/payment/assignments/${(await withAssignment()).assignmentId}`, a),
  },
  {
    name: 'PATCH /payment/assignments/:id/mark-paid',
    ok: 200,
    allowed: IN,
    call: async (a) => r('PATCH', `/api/payment/assignments/${(await withAssignment()).assignmentId}/mark-paid`, a, { method: 'cash' }),
  },
  {
    name: 'PATCH /payment/assignments/:id/mark-overdue',
    ok: 200,
    allowed: IN,
    call: async (a) => r('PATCH', `/api/payment/assignments/${(await withAssignment()).assignmentId}/mark-overdue`, a),
  },
  {
    name: 'POST /payment/assignments/check-overdue',
    ok: 200,
    allowed: ANYWHERE,
    call: (a) => r('POST', '/api/payment/assignments/check-overdue', a),
  },
  // Payments: one's own needs only sign-in; another's order needs view_reports in its campaign.
  {
    name: 'POST /payment/create-payment-link (own)',
    ok: 200,
    allowed: ALL,
    call: async (a) => {
      const { assignments } = await api.active(chiDoan, [a.id]);
      return r('POST', '/api/payment/create-payment-link', a, { assignmentId: assignments[0].id });
    },
  },
  {
    name: 'POST /payment/create (own)',
    ok: 200,
    allowed: ALL,
    call: async (a) => {
      const { assignments } = await api.active(chiDoan, [a.id]);
      return r('POST', '/api/payment/create', a, { assignmentId: assignments[0].id });
    },
  },
  {
    name: 'POST /payment/create-payment-link (someone else’s)',
    ok: 200,
    allowed: [],
    hidden: HIDDEN,
    call: async (a) => {
      const { assignments } = await api.active(chiDoan, [member.id]);
      return r('POST', '/api/payment/create-payment-link', a, { assignmentId: assignments[0].id });
    },
  },
  {
    name: 'GET /payment/check-status/:orderCode (own)',
    ok: 200,
    allowed: ALL,
    call: async (a) => r('GET', `/api/payment/check-status/${(await ownOrder(a.id, a.token || member.token)).orderCode}`, a),
  },
  {
    name: 'GET /payment/check-status/:orderCode (someone else’s)',
    ok: 200,
    allowed: IN,
    hidden: HIDDEN,
    call: async (a) => r('GET', `/api/payment/check-status/${(await ownOrder(member.id, member.token)).orderCode}`, a),
  },
  {
    name: 'POST /payment/process/:id (own)',
    ok: 200,
    allowed: ALL,
    call: async (a) => r('POST', `/api/payment/process/${orderId((await ownOrder(a.id, a.token || member.token)).orderCode)}`, a),
  },
  {
    name: 'POST /payment/process/:id (someone else’s)',
    ok: 200,
    allowed: IN,
    hidden: HIDDEN,
    call: async (a) => r('POST', `/api/payment/process/${orderId((await ownOrder(member.id, member.token)).orderCode)}`, a),
  },
  { name: 'GET /payment/history', ok: 200, allowed: ALL, call: (a) => r('GET', '/api/payment/history', a) },
  {
    name: 'POST /payment/cancel/:id (own)',
    ok: 200,
    allowed: ALL,
    call: async (a) => r('POST', `/api/payment/cancel/${orderId((await ownOrder(a.id, a.token || member.token)).orderCode)}`, a),
  },
  {
    name: 'POST /payment/cancel/:id (someone else’s)',
    ok: 200,
    allowed: [],
    hidden: HIDDEN,
    call: async (a) => r('POST', `/api/payment/cancel/${orderId((await ownOrder(member.id, member.token)).orderCode)}`, a),
  },
  {
    name: 'GET /payment-admin/payment-history/:campaignId',
    ok: 200,
    allowed: IN,
    call: async (a) => r('GET', `/api/payment-admin/payment-history/${await draft()}`, a),
  },
];

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
      const res = await route.call({ name: 'noRoles', id: member.id, token: '' });
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
