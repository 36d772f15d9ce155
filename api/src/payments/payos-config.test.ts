import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import type { TestApp } from '../test/harness';
import { expectOk, join, sandboxApp, SANDBOX_CREDS, type campaigns, type LiveServer } from './fixture';
import { payosConfigs } from '../db/tables/payments';
import { allRows, firstRow } from '../db/engine';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let server: LiveServer;
let org: number;

beforeAll(async () => {
  ({ t, server, api, org } = await sandboxApp('PC'));
});
afterAll(() => server.close());

const SECRET = { clientId: 'pc-client-0001', apiKey: 'pc-api-key-SECRET-1111', checksumKey: 'pc-checksum-SECRET-2222' };

describe('payOS config per campaign', () => {
  it('credentials are required and trimmed; one config per campaign; stored encrypted', async () => {
    const c = await api.create(org);
    const path = `/api/payment-campaigns/${c.id}/payos-config`;
    const missing = await t.request('POST', path, { token: t.adminToken, body: { clientId: ' ', apiKey: 'a', checksumKey: '' } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('Vui lòng nhập Client ID');
    expect(missing.body.message).toContain('Vui lòng nhập Checksum Key');
    const created = await expectOk(
      t.request('POST', path, {
        token: t.adminToken,
        body: { organizationId: org, clientId: ` ${SECRET.clientId} `, apiKey: SECRET.apiKey, checksumKey: `${SECRET.checksumKey}\n` },
      }),
      201,
    );
    expect(created.data).toMatchObject({
      clientId: SECRET.clientId,
      apiKey: '••••1111',
      checksumKey: '••••2222',
      masked: true,
      isActive: true,
      organizationId: org,
    });
    const row = (await firstRow(t.db.select().from(payosConfigs).where(eq(payosConfigs.campaignId, c.id))))!;
    expect(row.apiKeyEnc).not.toContain(SECRET.apiKey);
    expect(row.checksumKeyEnc).not.toContain(SECRET.checksumKey);
    expect((await t.request('POST', path, { token: t.adminToken, body: SECRET })).status).toBe(409);
    expect((await t.request('POST', path, { token: t.adminToken, body: { ...SECRET, organizationId: 999 } })).status).toBe(400);
  });

  it('GET, effective, PUT (masked keys leave stored ones), toggle-active and DELETE', async () => {
    const c = await api.create(org);
    const path = `/api/payment-campaigns/${c.id}/payos-config`;
    expect(await expectOk(t.request('GET', path, { token: t.adminToken }))).toEqual({ success: true, data: null });
    expect((await expectOk(t.request('GET', `${path}/effective`, { token: t.adminToken }))).data).toMatchObject({
      config: null,
      active: false,
    });
    await api.config(c.id, SECRET);
    const put = await expectOk(
      t.request('PUT', path, {
        token: t.adminToken,
        body: { clientId: 'pc-client-0002', apiKey: '••••1111', checksumKey: 'new-checksum-3333' },
      }),
    );
    expect(put.data).toMatchObject({ clientId: 'pc-client-0002', apiKey: '••••1111', checksumKey: '••••3333' });
    const revealed = await expectOk(t.request('GET', `${path}?reveal=true`, { token: t.adminToken }));
    expect(revealed.data).toMatchObject({ apiKey: SECRET.apiKey, checksumKey: 'new-checksum-3333', masked: false });
    const off = await expectOk(t.request('POST', `${path}/toggle-active`, { token: t.adminToken }));
    expect(off.data.isActive).toBe(false);
    expect((await expectOk(t.request('GET', `${path}/effective`, { token: t.adminToken }))).data).toMatchObject({
      config: null,
      active: false,
      reason: 'Cấu hình PayOS đang tắt',
    });
    await expectOk(t.request('POST', `${path}/toggle-active`, { token: t.adminToken }));
    expect((await expectOk(t.request('GET', `${path}/effective`, { token: t.adminToken }))).data.active).toBe(true);
    await expectOk(t.request('DELETE', path, { token: t.adminToken }));
    expect((await t.request('DELETE', path, { token: t.adminToken })).status).toBe(404);
    expect((await t.request('GET', '/api/payment-campaigns/999999/payos-config', { token: t.adminToken })).status).toBe(404);
  });

  it('a masked key that is not the stored one is said on its field, in words (no field code in front)', async () => {
    const c = await api.create(org);
    const path = `/api/payment-campaigns/${c.id}/payos-config`;
    await api.config(c.id, SECRET);
    const res = await t.request('PUT', path, {
      token: t.adminToken,
      body: { clientId: SECRET.clientId, apiKey: '••••11zz', checksumKey: '••••2222' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ apiKey: ['Giá trị đã che (••••) không khớp khóa đang lưu, hãy nhập khóa đầy đủ'] });
  });

  it('revealing needs payment-campaigns.update in the campaign organization (403 for readers) and is audited', async () => {
    const c = await api.create(org);
    await api.config(c.id, SECRET);
    const reader = await t.createRole('pc_reader', ['payment-campaigns.read']);
    const u = await t.createUser('PCREAD', [{ roleId: reader, organizationId: org }]);
    const masked = await expectOk(t.request('GET', `/api/payment-campaigns/${c.id}/payos-config`, { token: u.token }));
    expect(masked.data.apiKey).toBe('••••1111');
    expect((await t.request('GET', `/api/payment-campaigns/${c.id}/payos-config?reveal=true`, { token: u.token })).status).toBe(403);
    await expectOk(t.request('GET', `/api/payment-campaigns/${c.id}/payos-config?reveal=true`, { token: t.adminToken }));
    expect((await allRows(t.db.select().from(auditLogs).where(eq(auditLogs.action, 'payos_config.reveal')))).length).toBeGreaterThan(0);
  });

  it('test-connection asks payOS (here the sandbox) with stored or unsaved credentials', async () => {
    const c = await api.create(org);
    const path = `/api/payment-campaigns/${c.id}/payos-config/test-connection`;
    expect((await t.request('POST', path, { token: t.adminToken, body: {} })).status).toBe(404);
    await api.config(c.id, SANDBOX_CREDS);
    expect(await expectOk(t.request('POST', path, { token: t.adminToken, body: {} }))).toMatchObject({
      success: true,
      data: { connected: true },
    });
    const wrong = await expectOk(t.request('POST', path, { token: t.adminToken, body: { apiKey: 'wrong-api-key' } }));
    expect(wrong).toMatchObject({ success: false, data: { connected: false } });
    expect(wrong.message).toContain('API Key');
  });
});

describe('secrets are never in clear in a response', () => {
  it('no response of the payments API (nor the audit log API) contains the api key or checksum key', async () => {
    const u = await t.createUser('PCPAY');
    await join(t, u.id, org);
    const { campaign, assignments } = await api.active(org, [u.id], { config: false });
    const cfg = { clientId: SANDBOX_CREDS.clientId, apiKey: 'leak-check-api-key-XYZ', checksumKey: 'leak-check-checksum-key-QRS' };
    const bodies: unknown[] = [];
    const call = async (method: string, path: string, token = t.adminToken, body?: unknown) => {
      const res = await t.request(method, path, { token, body });
      bodies.push(res.body);
      return res.body;
    };
    await call('POST', `/api/payment-campaigns/${campaign.id}/payos-config`, t.adminToken, cfg);
    await call('GET', `/api/payment-campaigns/${campaign.id}/payos-config`);
    await call('GET', `/api/payment-campaigns/${campaign.id}/payos-config/effective`);
    await call('PUT', `/api/payment-campaigns/${campaign.id}/payos-config`, t.adminToken, { isActive: true });
    await call('POST', `/api/payment-campaigns/${campaign.id}/payos-config/test-connection`, t.adminToken, {});
    const linked = (await call('POST', '/api/payment/create-payment-link', u.token, { assignmentId: assignments[0].id })) as {
      data: { orderCode: number };
    };
    await call('GET', `/api/payment/check-status/${linked.data.orderCode}`, u.token);
    await call('GET', '/api/payment/history', u.token);
    await call('GET', `/api/payment-campaigns/${campaign.id}`);
    await call('GET', '/api/payment-campaigns');
    await call('GET', `/api/payment/assignments?campaignId=${campaign.id}`);
    await call('GET', '/api/payment/assignments/my-assignments', u.token);
    await call('GET', `/api/payment-admin/payment-history/${campaign.id}?status=ALL`);
    await call('POST', `/api/payment-campaigns/${campaign.id}/payos-config/toggle-active`);
    await call('DELETE', `/api/payment-campaigns/${campaign.id}/payos-config`);
    await call('GET', '/api/audit-logs?limit=100');
    const text = JSON.stringify(bodies);
    expect(bodies.length).toBe(16);
    expect(text).toContain('••••');
    expect(text).not.toContain(cfg.apiKey);
    expect(text).not.toContain(cfg.checksumKey);
    expect(text).not.toContain(SANDBOX_CREDS.checksumKey);
    const history = bodies[12] as { data: { items: { api_key: string; checksum_key: string }[] } };
    expect(history.data.items[0]).toMatchObject({ api_key: '••••-XYZ', checksum_key: '••••-QRS' });
  });
});
