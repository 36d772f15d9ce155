/**
 * The outbox screen (issue 15.2): e-mails of every campaign within the caller's reach, filtered by
 * status and by an organization subtree. Authorization matrix: a global system.view_logs holder
 * reads all, a send_reminders holder its subtree only (another subtree is 403, not an empty page),
 * campaign readers and members nothing.
 */
import { PERMISSIONS } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, join, liveServer } from '../payments/fixture';
import { emailOutbox } from '../db/tables/reminders';
import { runQuery } from '../db/engine';

let t: TestApp;
let server: Awaited<ReturnType<typeof liveServer>>;
const org: Record<string, number> = {};
const tokens: Record<string, string> = {};
const campaign: Record<string, { id: number; name: string }> = {};

const outbox = (token: string, query = '') => t.request('GET', `/api/reminders/outbox?limit=100${query}`, { token });
const campaignsOf = (body: { data: { emails: { campaignId: number }[] } }) =>
  [...new Set(body.data.emails.map((e) => e.campaignId))].sort();

beforeAll(async () => {
  t = await makeTestApp();
  server = await liveServer(t);
  const api = campaigns(t);
  const root = await t.createOrg('doan_truong', 'OBX');
  org.faculty = await t.createOrg('doan_co_so', 'OBX-F1', root);
  org.branch = await t.createOrg('chi_doan', 'OBX-F1-C1', org.faculty);
  org.other = await t.createOrg('doan_co_so', 'OBX-F2', root);
  const treasurer = await t.createRole(
    'obx_treasurer',
    PERMISSIONS.map((p) => p.code).filter((c) => c.startsWith('payment-campaigns.')),
  );
  const reader = await t.createRole('obx_reader', ['payment-campaigns.access', 'payment-campaigns.read']);
  const logs = await t.createRole('obx_logs', ['system.view_logs']);
  tokens.logs = (await t.createUser('OBXL', [{ roleId: logs }])).token;
  tokens.faculty = (await t.createUser('OBXF', [{ roleId: treasurer, organizationId: org.faculty }])).token;
  tokens.branch = (await t.createUser('OBXB', [{ roleId: treasurer, organizationId: org.branch }])).token;
  tokens.reader = (await t.createUser('OBXR', [{ roleId: reader, organizationId: org.faculty }])).token;
  // A faculty's view_logs grant is not the global one: the outbox reads it as nothing.
  tokens.orgLogs = (await t.createUser('OBXO', [{ roleId: logs, organizationId: org.faculty }])).token;
  for (const [key, where] of [
    ['faculty', org.faculty],
    ['branch', org.branch],
    ['other', org.other],
  ] as const) {
    const m = await t.createUser(`OBXM-${key}`);
    await join(t, m.id, where);
    const made = await api.active(where, [m.id]);
    campaign[key] = made.campaign;
    const res = await t.request('POST', `/api/payment-campaigns/${made.campaign.id}/reminders`, { token: t.adminToken, body: {} });
    expect(res.status).toBe(200);
  }
  // One e-mail failed (as an SMTP refusal would leave it), to filter on.
  await runQuery(
    t.db
      .update(emailOutbox)
      .set({ status: 'FAILED', error: '550 mailbox unavailable' })
      .where(eq(emailOutbox.campaignId, campaign.branch!.id)),
  );
});
afterAll(() => server.close());

describe('who reads the outbox screen', () => {
  it.each([
    ['super admin', 'admin', ['faculty', 'branch', 'other']],
    ['global system.view_logs', 'logs', ['faculty', 'branch', 'other']],
    ['faculty treasurer', 'faculty', ['faculty', 'branch']],
    ['branch treasurer', 'branch', ['branch']],
  ])('%s sees the e-mails of its campaigns only', async (_, who, expected) => {
    const res = await outbox(who === 'admin' ? t.adminToken : tokens[who]!);
    expect(res.status).toBe(200);
    expect(campaignsOf(res.body)).toEqual(expected.map((k) => campaign[k]!.id).sort());
  });

  it.each(['reader', 'orgLogs'])('%s (no send_reminders, no global view_logs) is refused', async (who) => {
    expect((await outbox(tokens[who]!)).status).toBe(403);
  });

  it('names the campaign and organization of each e-mail', async () => {
    const res = await outbox(tokens.branch!);
    expect(res.body.data.emails[0]).toMatchObject({
      campaign: { id: campaign.branch!.id, name: campaign.branch!.name },
      organization: { id: org.branch },
    });
  });
});

describe('filters', () => {
  it('by status', async () => {
    const failed = await outbox(tokens.logs!, '&status=FAILED');
    expect(failed.body.data.total).toBe(1);
    expect(failed.body.data.emails[0]).toMatchObject({ status: 'FAILED', error: '550 mailbox unavailable' });
    expect((await outbox(tokens.logs!, '&status=OUTBOX')).body.data.total).toBe(2);
    expect((await outbox(tokens.logs!, '&status=LOST')).status).toBe(400);
  });

  it('by organization subtree, inside the caller’s reach', async () => {
    expect(campaignsOf((await outbox(tokens.faculty!, `&organizationId=${org.faculty}`)).body)).toEqual(
      [campaign.faculty!.id, campaign.branch!.id].sort(),
    );
    expect(campaignsOf((await outbox(tokens.faculty!, `&organizationId=${org.branch}`)).body)).toEqual([campaign.branch!.id]);
    expect(campaignsOf((await outbox(tokens.logs!, `&organizationId=${org.other}`)).body)).toEqual([campaign.other!.id]);
  });

  it('refuses an organization outside the caller’s reach rather than answering empty', async () => {
    expect((await outbox(tokens.faculty!, `&organizationId=${org.other}`)).status).toBe(403);
    // The branch treasurer cannot widen its view to the parent faculty.
    expect((await outbox(tokens.branch!, `&organizationId=${org.faculty}`)).status).toBe(403);
    expect((await outbox(tokens.logs!, '&organizationId=999999')).status).toBe(404);
  });
});
