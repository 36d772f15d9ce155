/**
 * Reminders as a phishing channel (issue 25 item 15): a per-member cap over every campaign, no web
 * address in campaign names (and none sent from older names), reminders only inside the campaign
 * organization's subtree; a cash campaign's reminder names the treasurer's unit instead of a link.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { users } from '../db/tables/users';
import { campaigns, join, vnLocal } from '../payments/fixture';
import { paymentCampaigns } from '../db/tables/payments';
import { makeTestApp, type TestApp } from '../test/harness';
import { emailOutbox } from '../db/tables/reminders';
import { allRows, runQuery } from '../db/engine';
import { flatMapInOrder } from '../lib/in-order';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let faculty: number;
let chiDoan: number;
let officer: string;
let seq = 0;

const member = async () => {
  const m = await t.createUser(`LIM${++seq}`);
  await join(t, m.id, faculty);
  await join(t, m.id, chiDoan);
  return m;
};
const send = (campaignId: number, token = officer) =>
  t.request('POST', `/api/payment-campaigns/${campaignId}/reminders`, { token, body: {} });
const mails = async (campaignId: number) => await allRows(t.db.select().from(emailOutbox).where(eq(emailOutbox.campaignId, campaignId)));

beforeAll(async () => {
  t = await makeTestApp();
  api = campaigns(t);
  const root = await t.createOrg('doan_truong', 'LIM');
  faculty = await t.createOrg('doan_co_so', 'LIM-F', root, 'Đoàn khoa Lim');
  chiDoan = await t.createOrg('chi_doan', 'LIM-C', faculty, 'Chi đoàn Lim 1');
  const role = await t.createRole('lim_treasurer', [
    'payment-campaigns.access',
    'payment-campaigns.read',
    'payment-campaigns.create',
    'payment-campaigns.update',
    'payment-campaigns.send_reminders',
  ]);
  officer = (await t.createUser('LIMOFF', [{ roleId: role, organizationId: faculty }])).token;
});

describe('per-member cap over every campaign', () => {
  it('five campaigns sent to one member within seconds: three e-mails, two skipped and said so', async () => {
    const m = await member();
    const results = [];
    for (let i = 0; i < 5; i++) {
      const { campaign } = await api.active(faculty, [m.id]);
      const res = await send(campaign.id);
      expect(res.status).toBe(200);
      results.push({ res, id: campaign.id });
    }
    expect(results.map((r) => r.res.body.data.sent)).toEqual([1, 1, 1, 0, 0]);
    expect(results.map((r) => r.res.body.data.skippedLimit)).toEqual([0, 0, 0, 1, 1]);
    expect(results[4]!.res.body.message).toMatch(/1 người đã nhận đủ 3 nhắc nhở trong 24 giờ/);
    const sentTo = (await flatMapInOrder(results, (r) => mails(r.id))).filter((e) => e.toAddress === m.email);
    expect(sentTo).toHaveLength(3);
  });

  it('other members of the same campaign are still reminded', async () => {
    const busy = await member();
    for (let i = 0; i < 3; i++) await send((await api.active(faculty, [busy.id])).campaign.id);
    const fresh = await member();
    const { campaign } = await api.active(faculty, [busy.id, fresh.id]);
    expect((await send(campaign.id)).body.data).toMatchObject({ sent: 1, skippedLimit: 1, skippedRecent: 0 });
    expect((await mails(campaign.id)).map((e) => e.toAddress)).toEqual([fresh.email]);
  });
});

describe('only members inside the campaign organization subtree', () => {
  it('a member who left the faculty keeps the fee but gets no reminder', async () => {
    const gone = await member();
    const stays = await member();
    const { campaign } = await api.active(faculty, [gone.id, stays.id]);
    await runQuery(t.db.delete(organizationMembers).where(eq(organizationMembers.userId, gone.id)));
    const res = await send(campaign.id);
    expect(res.body.data).toMatchObject({ sent: 1, skippedOutside: 1 });
    expect(res.body.message).toMatch(/1 người không còn thuộc đơn vị của đợt thu/);
    expect((await mails(campaign.id)).map((e) => e.toAddress)).toEqual([stays.email]);
  });
});

describe('no web address in campaign names', () => {
  const body = (name: string) => ({ organizationId: faculty, name, startDate: vnLocal(-1), endDate: vnLocal(30, '23:59:00') });

  it('refuses one on create and on edit (400 naming the field), accepts dotted numbers and class codes', async () => {
    for (const name of [
      'Đoàn phí – xác minh tài khoản tại http://evil.example/login',
      'Xác minh tại evil.example/login',
      'Xem www.tinyurl',
      'Nộp tại bit.ly',
    ]) {
      const res = await t.request('POST', '/api/payment-campaigns', { token: officer, body: body(name) });
      expect(res.status, name).toBe(400);
      expect(res.body.message).toMatch(/^name: Tên đợt thu không được chứa địa chỉ web/);
    }
    const ok = await t.request('POST', '/api/payment-campaigns', { token: officer, body: body('Đoàn phí HK1 2024.2025 lớp K66.CNTT') });
    expect(ok.status).toBe(201);
    expect(typeof ok.body.id).toBe('number');
    // Full-width letters, ideographic full stops and zero-width spaces still spell a host.
    for (const name of [
      'Xác minh tại ｅｖｉｌ．ｃｏｍ/login',
      'Xác minh tại evil。com/login',
      'Xác minh tại evil\u200b.com',
      'Xác minh tại evil.ai',
    ]) {
      expect((await t.request('POST', '/api/payment-campaigns', { token: officer, body: body(name) })).status, name).toBe(400);
    }
    const edit = await t.request('PATCH', `/api/payment-campaigns/${ok.body.id}`, {
      token: officer,
      body: { name: 'Gia hạn tại https://evil.example' },
    });
    expect(edit.status).toBe(400);
    expect(edit.body.message).toMatch(/^name: /);
  });

  it('an older campaign named with an address still reminds, with the address hidden from subject and text', async () => {
    const m = await member();
    const { campaign } = await api.active(faculty, [m.id]);
    await runQuery(
      t.db
        .update(paymentCampaigns)
        .set({ name: 'Đoàn phí xác minh tài khoản tại http://evil.example/login ngay' })
        .where(eq(paymentCampaigns.id, campaign.id)),
    );
    expect((await send(campaign.id)).body.data.sent).toBe(1);
    const [mail] = await mails(campaign.id);
    expect(`${mail!.subject}\n${mail!.text}`).not.toMatch(/evil|http:\/\/evil/);
    expect(mail!.subject).toContain('Đoàn phí xác minh tài khoản tại [địa chỉ web đã ẩn] ngay');
    // The real payment link is still there for a payOS campaign.
    expect(mail!.text).toContain('/payment/my-campaigns');
  });

  it('a unit or member named with an address: the address is hidden from the e-mail too', async () => {
    const m = await member();
    const { campaign } = await api.active(chiDoan, [m.id], { config: false });
    await runQuery(
      t.db
        .update(organizations)
        .set({ name: 'Chi đoàn Lim 1 – xác minh tại http://evil.example/login' })
        .where(eq(organizations.id, chiDoan)),
    );
    await runQuery(t.db.update(users).set({ givenName: 'Lim www.evil.vn' }).where(eq(users.id, m.id)));
    try {
      expect((await send(campaign.id)).body.data.sent).toBe(1);
      const [mail] = await mails(campaign.id);
      expect(`${mail!.subject}\n${mail!.text}`).not.toMatch(/evil/);
      expect(mail!.text).toContain('thủ quỹ của Chi đoàn Lim 1 – xác minh tại [địa chỉ web đã ẩn].');
    } finally {
      await runQuery(t.db.update(organizations).set({ name: 'Chi đoàn Lim 1' }).where(eq(organizations.id, chiDoan)));
    }
  });
});

describe('cash campaigns (no active payOS configuration)', () => {
  it('the reminder offers no link and names the member’s own unit for the treasurer', async () => {
    const m = await member();
    const { campaign } = await api.active(faculty, [m.id], { config: false });
    expect((await send(campaign.id)).body.data.sent).toBe(1);
    const [mail] = await mails(campaign.id);
    expect(mail!.text).not.toMatch(/https?:\/\//);
    expect(mail!.text).toContain('Đợt thu này nộp bằng tiền mặt: vui lòng nộp cho thủ quỹ của Chi đoàn Lim 1.');
    expect(mail!.text).toContain('Pay in cash to the treasurer of Chi đoàn Lim 1.');
  });
});
