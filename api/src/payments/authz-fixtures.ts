/** The callers of the payments authorization matrix (authz-routes.ts) and the fresh fixtures each call builds. */
import { eq } from 'drizzle-orm';
import type { TestApp } from '../test/harness';
import { campaigns } from './fixture';
import { paymentCampaigns, paymentOrders } from '../db/tables/payments';
import { firstRow, runQuery } from '../db/engine';

export type Name = 'superAdmin' | 'global' | 'orgInside' | 'orgOutside' | 'otherCodes' | 'noRoles';
export interface Actor {
  name: Name;
  id: number;
  token: string;
}

/** What the table's calls need (filled in by the test's beforeAll, read when a call runs): the app, the campaigns helper, the chi đoàn where the campaigns live, a plain member. */
export interface Matrix {
  t: TestApp;
  api: ReturnType<typeof campaigns>;
  chiDoan: number;
  member: { id: number; token: string };
}

/** Fresh fixtures per call, so every allowed caller has something to act on. */
export function matrixFixtures(m: Matrix) {
  const draft = async () => (await m.api.create(m.chiDoan)).id as number;
  async function withLevel() {
    const id = await draft();
    return { campaignId: id, levelId: (await m.api.level(id)).id as number };
  }
  async function withAssignment(userId = m.member.id) {
    const { campaignId, levelId } = await withLevel();
    return { campaignId, levelId, assignmentId: (await m.api.assign(campaignId, userId, levelId)).id as number };
  }
  async function inStatus(status: 'ACTIVE' | 'COMPLETED') {
    const { campaignId } = await withAssignment();
    await runQuery(m.t.db.update(paymentCampaigns).set({ status }).where(eq(paymentCampaigns.id, campaignId)));
    return campaignId;
  }
  async function withConfig() {
    const id = await draft();
    await m.api.config(id);
    return id;
  }
  /** An ACTIVE campaign where `userId` has a PENDING fee, and that user's open order (made with their token). */
  async function ownOrder(userId: number, token: string) {
    const { campaign, assignments } = await m.api.active(m.chiDoan, [userId]);
    const res = await m.t.request('POST', '/api/payment/create-payment-link', { token, body: { assignmentId: assignments[0].id } });
    return { campaignId: campaign.id as number, assignmentId: assignments[0].id as number, orderCode: res.body.data.orderCode as number };
  }
  const orderId = async (orderCode: number) =>
    (await firstRow(m.t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, orderCode))))!.id;

  const r = (method: string, path: string, a: Actor, body?: unknown) => m.t.request(method, path, { token: a.token, body });
  return { draft, withLevel, withAssignment, inStatus, withConfig, ownOrder, orderId, r };
}
