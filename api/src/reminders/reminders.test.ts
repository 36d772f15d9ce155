/**
 * Reminders (issue 15.2): who may send them (in and out of the campaign's organization), the
 * interval rule and its race, the outbox without SMTP, the history and the member's notice.
 */
import { PERMISSIONS } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, join, liveServer } from '../payments/fixture';
import { paymentAssignments } from '../db/tables/payments';
import { emailOutbox, paymentReminders } from '../db/tables/reminders';
import { allRows, runQuery } from '../db/engine';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let server: Awaited<ReturnType<typeof liveServer>>;
let chiDoan: number;
let otherFaculty: number;
const tokens: Record<string, string> = {};
const members: { id: number; token: string; email: string }[] = [];

beforeAll(async () => {
  // These four members are reminded in many campaigns here: the daily cap per member has its own test (limits.test.ts).
  t = await makeTestApp({ REMINDER_MIN_INTERVAL_HOURS: '24', REMINDER_MAX_PER_MEMBER_PER_DAY: '1000' });
  server = await liveServer(t);
  api = campaigns(t);
  const root = await t.createOrg('doan_truong', 'RMD');
  const faculty = await t.createOrg('doan_co_so', 'RMD-F1', root);
  chiDoan = await t.createOrg('chi_doan', 'RMD-F1-C1', faculty);
  otherFaculty = await t.createOrg('doan_co_so', 'RMD-F2', root);
  const all = PERMISSIONS.map((p) => p.code).filter((c) => c.startsWith('payment-campaigns.'));
  const treasurer = await t.createRole('rmd_treasurer', all);
  const reader = await t.createRole('rmd_reader', ['payment-campaigns.access', 'payment-campaigns.read']);
  tokens.superAdmin = t.adminToken;
  tokens.global = (await t.createUser('RMDG', [{ roleId: treasurer }])).token;
  tokens.inside = (await t.createUser('RMDI', [{ roleId: treasurer, organizationId: faculty }])).token;
  tokens.outside = (await t.createUser('RMDO', [{ roleId: treasurer, organizationId: otherFaculty }])).token;
  tokens.reader = (await t.createUser('RMDR', [{ roleId: reader, organizationId: faculty }])).token;
  for (let i = 1; i <= 4; i++) {
    const m = await t.createUser(`RMDM${i}`);
    await join(t, m.id, chiDoan);
    members.push(m);
  }
  tokens.member = members[0].token;
});
afterAll(() => server.close());

const ids = () => members.map((m) => m.id);
const send = (campaignId: number, token: string, body: unknown = {}) =>
  t.request('POST', `/api/payment-campaigns/${campaignId}/reminders`, { token, body });

describe('who may send reminders', () => {
  it.each([
    ['superAdmin', 200],
    ['global', 200],
    ['inside', 200],
    ['outside', 403],
    ['reader', 403],
    ['member', 403],
  ])('%s → %i', async (who, status) => {
    const { campaign } = await api.active(chiDoan, ids());
    const res = await send(campaign.id, tokens[who]);
    expect(res.status).toBe(status);
    if (status === 200) expect(res.body.data).toMatchObject({ sent: 4, skippedRecent: 0, outboxed: 4 });
    else expect(res.body.message).toBeTruthy();
  });

  it('answers 401 without a session and 404 for an unknown campaign', async () => {
    expect((await t.request('POST', '/api/payment-campaigns/1/reminders', { body: {} })).status).toBe(401);
    expect((await send(999_999, t.adminToken)).status).toBe(404);
  });

  it('history and schedule read with read in the organization; writing the schedule needs send_reminders', async () => {
    const { campaign } = await api.active(chiDoan, ids());
    await send(campaign.id, tokens.inside);
    const h = await t.request('GET', `/api/payment-campaigns/${campaign.id}/reminders`, { token: tokens.reader });
    expect(h.status).toBe(200);
    expect(h.body.data.total).toBe(4);
    expect(h.body.data.reminders[0].sentBy.code).toBe('RMDI');
    expect(h.body.data.reminders[0].emailStatus).toBe('OUTBOX');
    expect((await t.request('GET', `/api/payment-campaigns/${campaign.id}/reminders`, { token: tokens.outside })).status).toBe(403);
    expect((await t.request('GET', `/api/payment-campaigns/${campaign.id}/reminders`, { token: tokens.member })).status).toBe(403);
    const body = { daysBefore: 3, onOverdue: true };
    expect((await t.request('PUT', `/api/payment-campaigns/${campaign.id}/reminder-schedule`, { token: tokens.reader, body })).status).toBe(
      403,
    );
    expect(
      (await t.request('PUT', `/api/payment-campaigns/${campaign.id}/reminder-schedule`, { token: tokens.outside, body })).status,
    ).toBe(403);
    expect((await t.request('PUT', `/api/payment-campaigns/${campaign.id}/reminder-schedule`, { token: tokens.inside, body })).status).toBe(
      200,
    );
    expect((await t.request('GET', `/api/payment-campaigns/${campaign.id}/reminder-schedule`, { token: tokens.reader })).body.data).toEqual(
      body,
    );
    const bad = await t.request('PUT', `/api/payment-campaigns/${campaign.id}/reminder-schedule`, {
      token: tokens.inside,
      body: { daysBefore: 0, onOverdue: 'yes' },
    });
    expect(bad.status).toBe(400);
  });

  it('the outbox shows e-mails of campaigns in the caller’s organizations, all of them to a system.view_logs holder, none to a member', async () => {
    const { campaign } = await api.active(chiDoan, ids());
    const stranger = await t.createUser('RMDS');
    await join(t, stranger.id, otherFaculty);
    const elsewhere = await api.active(otherFaculty, [stranger.id]);
    await send(campaign.id, tokens.inside);
    await send(elsewhere.campaign.id, t.adminToken);
    const mine = await t.request('GET', `/api/reminders/outbox?campaignId=${campaign.id}`, { token: tokens.inside });
    expect(mine.status).toBe(200);
    expect(mine.body.data.total).toBe(4);
    expect(mine.body.data.emails[0]).toMatchObject({ status: 'OUTBOX', subject: expect.stringContaining(campaign.name) });
    expect(mine.body.data.emails[0].text).toMatch(/50\.000\s₫/);
    const outside = await t.request('GET', `/api/reminders/outbox?campaignId=${campaign.id}`, { token: tokens.outside });
    expect(outside.body.data.total).toBe(0);
    expect((await t.request('GET', `/api/reminders/outbox?campaignId=${campaign.id}`, { token: t.adminToken })).body.data.total).toBe(4);
    expect((await t.request('GET', '/api/reminders/outbox', { token: tokens.member })).status).toBe(403);
    expect((await t.request('GET', '/api/reminders/outbox', { token: tokens.reader })).status).toBe(403);
    const insideAll = await t.request('GET', '/api/reminders/outbox?limit=100', { token: tokens.inside });
    expect(insideAll.body.data.emails.some((e: { campaignId: number }) => e.campaignId === elsewhere.campaign.id)).toBe(false);
    expect(
      (await t.request('GET', `/api/reminders/outbox?campaignId=${elsewhere.campaign.id}`, { token: tokens.outside })).body.data.emails[0]
        .to,
    ).toBe(stranger.email);
  });
});

describe('the interval rule', () => {
  it('skips members reminded within the interval and says so; selected paid ones are skipped too', async () => {
    const { campaign, assignments } = await api.active(chiDoan, ids());
    const first = await send(campaign.id, tokens.inside, { assignmentIds: [assignments[0].id] });
    expect(first.body.data).toMatchObject({ sent: 1, skippedRecent: 0 });
    await runQuery(t.db.update(paymentAssignments).set({ status: 'PAID' }).where(eq(paymentAssignments.id, assignments[1].id)));
    const all = await send(campaign.id, tokens.inside);
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ sent: 2, skippedRecent: 1, skippedPaid: 0 });
    expect(all.body.message).toContain('bỏ qua 1');
    const selected = await send(campaign.id, tokens.inside, { assignmentIds: [assignments[1].id, assignments[2].id] });
    expect(selected.body.data).toMatchObject({ sent: 0, skippedRecent: 1, skippedPaid: 1 });
    // Past the interval the same member can be reminded again.
    await runQuery(
      t.db
        .update(paymentReminders)
        .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
        .where(eq(paymentReminders.campaignId, campaign.id)),
    );
    expect((await send(campaign.id, tokens.inside)).body.data).toMatchObject({ sent: 3, skippedRecent: 0 });
  });

  it('parallel calls remind each member once', async () => {
    const { campaign } = await api.active(chiDoan, ids());
    const results = await Promise.all(Array.from({ length: 6 }, () => send(campaign.id, tokens.inside)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.reduce((n, r) => n + r.body.data.sent, 0)).toBe(4);
    expect(await allRows(t.db.select().from(paymentReminders).where(eq(paymentReminders.campaignId, campaign.id)))).toHaveLength(4);
    expect(await allRows(t.db.select().from(emailOutbox).where(eq(emailOutbox.campaignId, campaign.id)))).toHaveLength(4);
  });

  it('refuses a campaign that is not active', async () => {
    const draft = await api.create(chiDoan);
    const res = await send(draft.id, tokens.inside);
    expect(res.status).toBe(409);
    expect(res.body.message).toBeTruthy();
  });

  it('validates the selection', async () => {
    const { campaign } = await api.active(chiDoan, ids());
    expect((await send(campaign.id, tokens.inside, { assignmentIds: [] })).status).toBe(400);
    expect((await send(campaign.id, tokens.inside, { assignmentIds: ['x'] })).status).toBe(400);
  });
});

describe('the member’s notice', () => {
  it('lists the reminded unpaid fee with amount and due date until it is paid', async () => {
    const { campaign, assignments } = await api.active(chiDoan, [members[3].id], { amount: 120_000 });
    const before = await t.request('GET', '/api/reminders/mine', { token: members[3].token });
    expect(before.body.data.find((r: { campaignId: number }) => r.campaignId === campaign.id)).toBeUndefined();
    await send(campaign.id, tokens.inside);
    const after = await t.request('GET', '/api/reminders/mine', { token: members[3].token });
    expect(after.status).toBe(200);
    const notice = after.body.data.find((r: { campaignId: number }) => r.campaignId === campaign.id);
    expect(notice).toMatchObject({ assignmentId: assignments[0].id, campaignName: campaign.name, amount: 120_000 });
    expect(notice.dueDate).toBeTruthy();
    // Another member does not see it.
    const other = await t.request('GET', '/api/reminders/mine', { token: members[2].token });
    expect(other.body.data.find((r: { assignmentId: number }) => r.assignmentId === assignments[0].id)).toBeUndefined();
    await runQuery(t.db.update(paymentAssignments).set({ status: 'PAID' }).where(eq(paymentAssignments.id, assignments[0].id)));
    const paid = await t.request('GET', '/api/reminders/mine', { token: members[3].token });
    expect(paid.body.data.find((r: { campaignId: number }) => r.campaignId === campaign.id)).toBeUndefined();
  });
});
