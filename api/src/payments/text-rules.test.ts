/**
 * Issue 10 item 10's one text rule (shared cleanLine/cleanText) in the payments forms: campaign
 * and fee-level names lose NUL, bidi overrides, zero-width characters and line breaks (a campaign
 * name is the subject of reminder e-mails and the title of receipts); descriptions and notes keep
 * their line breaks but lose the invisible characters. A campaign name may hold no web address
 * (issue 25 item 15, shared containsUrl): the name that once carried "x@evil.example" is now refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, expectOk, vnLocal } from './fixture';

let t: TestApp;
let org: number;
const DIRTY = 'Quỹ\u202E tình\u200B nguyện\u0000\r\nBcc: x@evil.example\uFEFF';
const CLEAN = 'Quỹ tình nguyện Bcc: x@evil.example';
/** The same hidden characters and header-like line, without a web address (allowed in a campaign name). */
const DIRTY_NAME = 'Quỹ\u202E tình\u200B nguyện\u0000\r\nBcc: x\uFEFF';
const CLEAN_NAME = 'Quỹ tình nguyện Bcc: x';

beforeAll(async () => {
  t = await makeTestApp();
  org = await t.createOrg('doan_truong', 'TXT-ROOT');
});

describe('payments names and notes follow the shared text rule', () => {
  it('campaign name (create and edit) and description', async () => {
    const c = await expectOk(
      t.request('POST', '/api/payment-campaigns', {
        token: t.adminToken,
        body: {
          organizationId: org,
          name: DIRTY_NAME,
          description: 'dòng 1\r\ndòng 2\u202E\u0007',
          startDate: vnLocal(-1),
          endDate: vnLocal(30),
        },
      }),
      201,
    );
    expect(c.name).toBe(CLEAN_NAME);
    expect(c.description).toBe('dòng 1\ndòng 2');
    const edited = await expectOk(
      t.request('PATCH', `/api/payment-campaigns/${c.id}`, { token: t.adminToken, body: { name: `${DIRTY_NAME} 2` } }),
    );
    expect((edited.data ?? edited).name).toBe(`${CLEAN_NAME} 2`);
    for (const res of [
      await t.request('POST', '/api/payment-campaigns', {
        token: t.adminToken,
        body: { organizationId: org, name: DIRTY, startDate: vnLocal(-1), endDate: vnLocal(30) },
      }),
      await t.request('PATCH', `/api/payment-campaigns/${c.id}`, { token: t.adminToken, body: { name: DIRTY } }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('không được chứa địa chỉ web');
    }
  });

  it('fee-level name and note', async () => {
    const api = campaigns(t);
    const c = await api.create(org);
    const level = await expectOk(
      t.request('POST', '/api/payment-fee-levels', {
        token: t.adminToken,
        body: { campaignId: c.id, levelName: DIRTY, amount: 10_000, note: 'a\u202Eb' },
      }),
      201,
    );
    const l = level.data ?? level;
    expect(l.levelName).toBe(CLEAN);
    expect(l.note).toBe('ab');
  });
});
