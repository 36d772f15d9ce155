/** Test helpers for the payments domain: an organization tree, members, campaigns and a live server. */
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { organizationMembers } from '../db/tables/organizations';
import { payosConfigs } from '../db/tables/payments';
import { makeTestApp, type TestApp } from '../test/harness';
import { runQuery } from '../db/engine';

/** 'YYYY-MM-DDTHH:mm:ss' in Vietnam local time, `days` from now (what the campaign form sends). */
export function vnLocal(days: number, time = '00:00:00'): string {
  const d = new Date(Date.now() + days * 86_400_000 + 7 * 3600_000);
  return `${d.toISOString().slice(0, 10)}T${time}`;
}

export async function join(t: TestApp, userId: number, organizationId: number, isActive = true) {
  await runQuery(t.db.insert(organizationMembers).values({ userId, organizationId, isActive }).onConflictDoNothing());
}

let seq = 0;
export const uniq = (p: string) => `${p}${++seq}${Math.floor(Math.random() * 1e4)}`;

export async function expectOk<T = any>(p: Promise<{ status: number; body: any }>, status = 200): Promise<T> {
  const res = await p;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as T;
}

export const SANDBOX_CREDS = {
  clientId: 'test-client-id',
  apiKey: 'test-api-key-0123456789',
  checksumKey: 'test-checksum-key-abcdef0123456789',
};

/** Campaign building through the API as the super admin (or another token). */
export function campaigns(t: TestApp, token = t.adminToken) {
  const api = {
    async create(organizationId: number, over: Record<string, unknown> = {}) {
      return expectOk(
        t.request('POST', '/api/payment-campaigns', {
          token,
          body: { organizationId, name: uniq('Đợt thu '), startDate: vnLocal(-1), endDate: vnLocal(30, '23:59:00'), ...over },
        }),
        201,
      );
    },
    async level(campaignId: number, amount = 50_000, levelName = uniq('Mức ')) {
      return expectOk(t.request('POST', '/api/payment-fee-levels', { token, body: { campaignId, levelName, amount } }), 201);
    },
    async assign(campaignId: number, userId: number, feeLevelId: number) {
      return (await expectOk(t.request('POST', '/api/payment/assignments', { token, body: { campaignId, userId, feeLevelId } }), 201)).data;
    },
    async config(campaignId: number, creds = SANDBOX_CREDS) {
      return expectOk(t.request('POST', `/api/payment-campaigns/${campaignId}/payos-config`, { token, body: creds }), 201);
    },
    async activate(campaignId: number) {
      return expectOk(t.request('POST', `/api/payment-campaigns/${campaignId}/activate`, { token }));
    },
    /** An ACTIVE campaign with one level, these members assigned and a payOS config. */
    async active(organizationId: number, memberIds: number[], opts: { amount?: number; config?: boolean } = {}) {
      const c = await api.create(organizationId);
      const level = await api.level(c.id, opts.amount ?? 50_000);
      const assignments = [];
      for (const id of memberIds) assignments.push(await api.assign(c.id, id, level.id));
      // Keys of the embedded sandbox, so members pay online; `config: false` removes them afterwards (a campaign whose config was deleted).
      await api.config(c.id);
      await api.activate(c.id);
      if (opts.config === false) await runQuery(t.db.delete(payosConfigs).where(eq(payosConfigs.campaignId, c.id)));
      return { campaign: c, level, assignments };
    },
  };
  return api;
}

export interface LiveServer {
  url: string;
  close: () => Promise<void>;
}

/**
 * Serves the test app on a real port and points PUBLIC_URL at it, so payOS calls reach the
 * sandbox and the sandbox's webhook reaches the app over HTTP, as in production.
 */
export async function liveServer(t: TestApp): Promise<LiveServer> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: t.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.env.PUBLIC_URL = url;
  return { url, close: () => new Promise((r) => server.close(() => r())) };
}

/**
 * The setup of every suite that pays through the embedded sandbox over HTTP: a fresh app (with
 * `env` overrides, e.g. a shorter PAYOS_SANDBOX_WEBHOOK_DELAY_MS), its live server, the campaign
 * helpers and one organization. Nothing is set outside the app, so suites sharing a worker cannot
 * change each other's sandbox.
 */
export async function sandboxApp(orgCode: string, env: Record<string, string> = {}) {
  const t = await makeTestApp(env);
  const server = await liveServer(t);
  return { t, server, api: campaigns(t), org: await t.createOrg('doan_co_so', orgCode) };
}
