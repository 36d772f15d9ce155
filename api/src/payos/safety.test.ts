/**
 * Issue 10.2–10.3 and 11.7–11.11: the sandbox cannot settle real fees in a production
 * configuration, outbound payOS URLs never come from request headers, payOS answers must be
 * signed, and the payOS tab's webhook registration and connection test tell the truth.
 */
import { serve } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadEnv } from '../env';
import { expectOk, join, sandboxApp, SANDBOX_CREDS, type campaigns, type LiveServer } from '../payments/fixture';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';
import type { TestApp } from '../test/harness';
import { payosClient } from './client';
import { isPublicOrigin } from '../lib/public-origin';
import { sandboxSettlesFees } from './origin';
import { dataSignature } from './signature';
import { firstRow } from '../db/engine';

describe('sandbox start-up guard (10.2)', () => {
  it('refuses a public PUBLIC_URL with the sandbox unless asked for explicitly', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const base = { DATABASE_PATH: ':memory:', JWT_SECRET: 'x'.repeat(20), APP_SECRET: 'y'.repeat(20) };
      expect(() => loadEnv({ ...base, PUBLIC_URL: 'https://doanhoi.example.edu.vn' })).toThrow('exit 1');
      expect(error.mock.calls[0]![0]).toContain('PAYOS_SANDBOX_PUBLIC');
      const demo = loadEnv({ ...base, PUBLIC_URL: 'https://doanhoi.example.edu.vn', PAYOS_SANDBOX_PUBLIC: 'true' });
      expect(sandboxSettlesFees(demo)).toBe(false);
      expect(sandboxSettlesFees(loadEnv({ ...base, PUBLIC_URL: 'http://192.168.1.20:3000' }))).toBe(true);
      expect(sandboxSettlesFees(loadEnv(base))).toBe(true);
      expect(
        loadEnv({ ...base, PUBLIC_URL: 'https://doanhoi.example.edu.vn', PAYOS_BASE_URL: 'https://api-merchant.payos.vn' }).PAYOS_BASE_URL,
      ).toBe('https://api-merchant.payos.vn');
    } finally {
      exit.mockRestore();
      error.mockRestore();
    }
    for (const local of [
      'http://localhost:3000',
      'http://127.0.0.1:9',
      'http://10.1.2.3',
      'http://172.20.0.1',
      'http://[::1]:3000',
      'http://demo.local',
    ])
      expect(isPublicOrigin(local)).toBe(false);
    for (const pub of ['https://doanhoi.example.edu.vn', 'http://8.8.8.8', 'http://172.32.0.1']) expect(isPublicOrigin(pub)).toBe(true);
  });
});

describe('payOS through the sandbox', () => {
  let t: TestApp;
  let api: ReturnType<typeof campaigns>;
  let server: LiveServer;
  let org: number;
  let n = 0;

  beforeAll(async () => {
    ({ t, server, api, org } = await sandboxApp('SF', { PAYOS_SANDBOX_WEBHOOK_DELAY_MS: '50' }));
  });
  afterAll(() => server.close());

  async function ready(amount = 40_000) {
    const u = await t.createUser(`SFU${++n}`);
    await join(t, u.id, org);
    const { campaign, assignments } = await api.active(org, [u.id], { amount });
    return { u, campaign, assignmentId: assignments[0].id as number };
  }

  it('on a public deployment (PAYOS_SANDBOX_PUBLIC) a sandbox payment is a test record and never makes a fee PAID', async () => {
    const { u, assignmentId, campaign } = await ready();
    const l = (await expectOk(t.request('POST', '/api/payment/create-payment-link', { token: u.token, body: { assignmentId } }))).data;
    const o = (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, l.orderCode))))!;
    expect(o.isTest).toBe(true);
    const local = t.env.PUBLIC_URL;
    Object.assign(t.env, { PUBLIC_URL: 'https://doanhoi.example.edu.vn', PAYOS_SANDBOX_PUBLIC: true });
    try {
      const data = {
        orderCode: l.orderCode,
        amount: 40_000,
        description: 'DH',
        accountNumber: '1',
        reference: `SBX${l.orderCode}`,
        transactionDateTime: '',
        currency: 'VND',
        paymentLinkId: l.paymentLinkId,
        code: '00',
        desc: 'success',
      };
      const res = await t.request('POST', '/api/payment/webhook/payos', {
        body: { code: '00', desc: 'success', data, signature: dataSignature(data, SANDBOX_CREDS.checksumKey) },
      });
      expect(res.status).toBe(200);
      expect(await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.id, o.id)))).toMatchObject({
        status: 'PAID',
        receivedAmount: 40_000,
        isTest: true,
      });
      expect(await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, assignmentId)))).toMatchObject({
        status: 'PENDING',
        paidAmount: null,
      });
      expect(await expectOk(t.request('GET', `/api/payment-campaigns/${campaign.id}/statistics`, { token: t.adminToken }))).toMatchObject({
        paidCount: 0,
        collected: 0,
        testReceived: 40_000,
      });
    } finally {
      Object.assign(t.env, { PUBLIC_URL: local, PAYOS_SANDBOX_PUBLIC: false });
    }
  });

  it('payment links use the configured description length: 9 by default, up to 25 when the account allows it', async () => {
    const a = await ready();
    const short = (
      await expectOk(t.request('POST', '/api/payment/create-payment-link', { token: a.u.token, body: { assignmentId: a.assignmentId } }))
    ).data;
    expect(short.description).toMatch(/^DH\d{7}$/);
    const b = await ready();
    await expectOk(
      t.request('PUT', `/api/payment-campaigns/${b.campaign.id}/payos-config`, { token: t.adminToken, body: { descriptionMaxLength: 25 } }),
    );
    const long = (
      await expectOk(t.request('POST', '/api/payment/create-payment-link', { token: b.u.token, body: { assignmentId: b.assignmentId } }))
    ).data;
    expect(long.description.length).toBeGreaterThan(9);
    expect(long.description.length).toBeLessThanOrEqual(25);
    expect(long.description.startsWith('DH')).toBe(true);
  });

  it('saving the payOS config registers the webhook URL with payOS and shows the answer', async () => {
    const c = await api.create(org);
    const res = await expectOk(
      t.request('POST', `/api/payment-campaigns/${c.id}/payos-config`, { token: t.adminToken, body: SANDBOX_CREDS }),
      201,
    );
    const url = `${server.url}/api/payment/webhook/payos`;
    expect(res.webhook).toEqual({ webhookUrl: url, confirmed: true, message: 'PayOS đã xác nhận webhook' });
    expect(res.data).toMatchObject({
      webhookUrl: url,
      webhookConfirmedUrl: url,
      webhookConfirmedAt: expect.any(String),
      sandbox: true,
      descriptionMaxLength: 9,
    });
    const again = await expectOk(t.request('POST', `/api/payment-campaigns/${c.id}/payos-config/confirm-webhook`, { token: t.adminToken }));
    expect(again.data.confirmed).toBe(true);
    expect(
      (await expectOk(t.request('GET', `/api/payment-campaigns/${c.id}/payos-config/webhook-url`, { token: t.adminToken }))).data,
    ).toEqual({ webhookUrl: url });
  });

  it('the connection test reports wrong credentials (payOS answers HTTP 200 with another code) and an unreachable payOS', async () => {
    const c = await api.create(org);
    await api.config(c.id);
    const test = (body: Record<string, string>) =>
      expectOk(t.request('POST', `/api/payment-campaigns/${c.id}/payos-config/test-connection`, { token: t.adminToken, body }));
    expect((await test({})).data).toEqual({ connected: true, reason: 'ok' });
    expect((await test({ apiKey: 'wrong-api-key' })).data).toEqual({ connected: false, reason: 'credentials' });
    expect((await test({ clientId: 'someone-else' })).data).toEqual({ connected: false, reason: 'credentials' });
    const local = t.env.PUBLIC_URL;
    t.env.PUBLIC_URL = 'http://127.0.0.1:9';
    try {
      const down = await test({});
      expect(down.data).toEqual({ connected: false, reason: 'unreachable' });
      expect(down.message).toContain('Không kết nối được PayOS');
    } finally {
      t.env.PUBLIC_URL = local;
    }
  });

  it('outbound payOS calls and return URLs never follow the Host header (10.3)', async () => {
    const seen: string[] = [];
    const trap = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ port: 0, hostname: '127.0.0.1', fetch: (req) => (seen.push(req.url), new Response('{}')) }, () => resolve(s));
    });
    const trapPort = (trap.address() as AddressInfo).port;
    const saved = { PUBLIC_URL: t.env.PUBLIC_URL, PORT: t.env.PORT, HOST: t.env.HOST };
    // No PUBLIC_URL: the listening address is used.
    Object.assign(t.env, { PUBLIC_URL: undefined, PORT: Number(new URL(server.url).port), HOST: '127.0.0.1' });
    try {
      const { u, assignmentId } = await ready();
      const res = await fetch(`${server.url}/api/payment/create-payment-link`, {
        method: 'POST',
        headers: {
          host: `127.0.0.1:${trapPort}`,
          'x-forwarded-host': `127.0.0.1:${trapPort}`,
          authorization: `Bearer ${u.token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ assignmentId }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { checkoutUrl: string } };
      expect(body.data.checkoutUrl.startsWith(`http://localhost:${new URL(server.url).port}/sandbox/payos/checkout/`)).toBe(true);
      expect(seen).toEqual([]);
    } finally {
      Object.assign(t.env, saved);
      await new Promise((r) => trap.close(() => r(undefined)));
    }
  });
});

describe('payOS client (10.3, 11.11)', () => {
  const creds = { clientId: 'c', apiKey: 'k', checksumKey: 'checksum' };
  const info = {
    id: 'x',
    orderCode: 1,
    amount: 1000,
    amountPaid: 1000,
    amountRemaining: 0,
    status: 'PAID',
    createdAt: '',
    transactions: [],
    cancellationReason: null,
    canceledAt: null,
  };
  const answer = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

  it('refuses a PAID answer without a signature or with a wrong one', async () => {
    for (const signature of [undefined, 'a'.repeat(64), dataSignature(info, 'other-key')]) {
      const client = payosClient({
        ...creds,
        baseUrl: 'http://payos.test',
        fetch: async () => answer({ code: '00', desc: 'success', data: info, signature }),
      });
      await expect(client.getPaymentLink(1)).rejects.toMatchObject({ code: 'SIGNATURE' });
    }
    const ok = payosClient({
      ...creds,
      baseUrl: 'http://payos.test',
      fetch: async () => answer({ code: '00', desc: 'success', data: info, signature: dataSignature(info, 'checksum') }),
    });
    expect((await ok.getPaymentLink(1)).status).toBe('PAID');
  });

  it('retries once when a kept-alive connection was reset', async () => {
    let calls = 0;
    const flaky = async () => {
      calls++;
      if (calls === 1) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
      return answer({ code: '00', desc: 'success', data: info, signature: dataSignature(info, 'checksum') });
    };
    expect((await payosClient({ ...creds, baseUrl: 'http://payos.test', fetch: flaky as typeof fetch }).getPaymentLink(1)).status).toBe(
      'PAID',
    );
    expect(calls).toBe(2);
    const dead = async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    };
    await expect(
      payosClient({ ...creds, baseUrl: 'http://payos.test', fetch: dead as typeof fetch }).getPaymentLink(1),
    ).rejects.toMatchObject({ status: 0 });
  });
});
