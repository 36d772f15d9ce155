/**
 * The payments authorization matrix's table (001 §6): for every payment route, who may call it and
 * how the others are refused, with the fixtures each call builds fresh. authz.test.ts runs it.
 */
import { SANDBOX_CREDS } from './fixture';
import { matrixFixtures, type Actor, type Matrix, type Name } from './authz-fixtures';

export const ALL: Name[] = ['superAdmin', 'global', 'orgInside', 'orgOutside', 'otherCodes', 'noRoles'];
/** The code held in the campaign's organization (or globally). */
export const IN: Name[] = ['superAdmin', 'global', 'orgInside'];
/** Who cannot see the campaign's orders: another member's order or fee is "not found" to them (issue 26 item 9). */
export const HIDDEN: Name[] = ['orgOutside', 'otherCodes', 'noRoles'];
/** The code held somewhere: lists answer, scoped to where it is held. */
export const ANYWHERE: Name[] = ['superAdmin', 'global', 'orgInside', 'orgOutside'];

export interface Route {
  name: string;
  ok: number;
  allowed: Name[];
  /** Refused with 404 instead of 403 (what they may not know exists). */
  hidden?: Name[];
  call: (a: Actor) => Promise<{ status: number; body: any }>;
}

export function paymentRoutes(m: Matrix): Route[] {
  const { draft, withLevel, withAssignment, inStatus, withConfig, ownOrder, orderId, r } = matrixFixtures(m);
  return [
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
      call: (a) => r('GET', `/api/payment-campaigns/organization/${m.chiDoan}`, a),
    },
    {
      name: 'POST /payment-campaigns',
      ok: 201,
      allowed: IN,
      call: (a) =>
        r('POST', '/api/payment-campaigns', a, {
          organizationId: m.chiDoan,
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
        await m.api.config(campaignId);
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
      call: (a) => r('GET', `/api/payment/assignments/organization/${m.chiDoan}`, a),
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
        return r('POST', '/api/payment/assignments', a, { campaignId, userId: m.member.id, feeLevelId: levelId });
      },
    },
    {
      name: 'POST /payment/assignments/bulk',
      ok: 201,
      allowed: IN,
      call: async (a) => {
        const { campaignId, levelId } = await withLevel();
        return r('POST', '/api/payment/assignments/bulk', a, { assignments: [{ campaignId, userId: m.member.id, feeLevelId: levelId }] });
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
        const { assignments } = await m.api.active(m.chiDoan, [a.id]);
        return r('POST', '/api/payment/create-payment-link', a, { assignmentId: assignments[0].id });
      },
    },
    {
      name: 'POST /payment/create (own)',
      ok: 200,
      allowed: ALL,
      call: async (a) => {
        const { assignments } = await m.api.active(m.chiDoan, [a.id]);
        return r('POST', '/api/payment/create', a, { assignmentId: assignments[0].id });
      },
    },
    {
      name: 'POST /payment/create-payment-link (someone else’s)',
      ok: 200,
      allowed: [],
      hidden: HIDDEN,
      call: async (a) => {
        const { assignments } = await m.api.active(m.chiDoan, [m.member.id]);
        return r('POST', '/api/payment/create-payment-link', a, { assignmentId: assignments[0].id });
      },
    },
    {
      name: 'GET /payment/check-status/:orderCode (own)',
      ok: 200,
      allowed: ALL,
      call: async (a) => r('GET', `/api/payment/check-status/${(await ownOrder(a.id, a.token || m.member.token)).orderCode}`, a),
    },
    {
      name: 'GET /payment/check-status/:orderCode (someone else’s)',
      ok: 200,
      allowed: IN,
      hidden: HIDDEN,
      call: async (a) => r('GET', `/api/payment/check-status/${(await ownOrder(m.member.id, m.member.token)).orderCode}`, a),
    },
    {
      name: 'POST /payment/process/:id (own)',
      ok: 200,
      allowed: ALL,
      call: async (a) => r('POST', `/api/payment/process/${await orderId((await ownOrder(a.id, a.token || m.member.token)).orderCode)}`, a),
    },
    {
      name: 'POST /payment/process/:id (someone else’s)',
      ok: 200,
      allowed: IN,
      hidden: HIDDEN,
      call: async (a) => r('POST', `/api/payment/process/${await orderId((await ownOrder(m.member.id, m.member.token)).orderCode)}`, a),
    },
    { name: 'GET /payment/history', ok: 200, allowed: ALL, call: (a) => r('GET', '/api/payment/history', a) },
    {
      name: 'POST /payment/cancel/:id (own)',
      ok: 200,
      allowed: ALL,
      call: async (a) => r('POST', `/api/payment/cancel/${await orderId((await ownOrder(a.id, a.token || m.member.token)).orderCode)}`, a),
    },
    {
      name: 'POST /payment/cancel/:id (someone else’s)',
      ok: 200,
      allowed: [],
      hidden: HIDDEN,
      call: async (a) => r('POST', `/api/payment/cancel/${await orderId((await ownOrder(m.member.id, m.member.token)).orderCode)}`, a),
    },
    {
      name: 'GET /payment-admin/payment-history/:campaignId',
      ok: 200,
      allowed: IN,
      call: async (a) => r('GET', `/api/payment-admin/payment-history/${await draft()}`, a),
    },
  ];
}
