/** Bad input that used to get through (security issue item 10): LIKE wildcards, invisible characters, oversized passwords. */
import { beforeAll, describe, expect, it } from 'vitest';
import { form, readWorkbook, sheetRows, USER_HEADER, userRow, xlsx } from '../imports/fixture';
import { download } from '../imports/fixture';
import { organizationMembers } from '../db/tables/organizations';
import { makeTestApp, type TestApp } from '../test/harness';
import { runQuery } from '../db/engine';

let t: TestApp;
let orgId: number;
beforeAll(async () => {
  t = await makeTestApp();
  orgId = await t.createOrg('doan_truong', 'DT', null, 'Đoàn trường');
  await t.createOrg('doan_co_so', 'DCS', orgId, 'Giảm 50% phí');
  for (const code of ['SV01', 'SV02']) {
    const u = await t.createUser(code);
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: orgId, userId: u.id }));
  }
});

const get = (path: string) => t.request('GET', path, { token: t.adminToken });

describe('search terms are matched literally', () => {
  it('organizations: "%" and "_" match no name unless a name holds them', async () => {
    expect((await get('/api/organizations?search=%25')).body.total).toBe(1);
    expect((await get('/api/organizations?search=%25')).body.data[0].code).toBe('DCS');
    expect((await get('/api/organizations?search=_')).body.total).toBe(0);
    expect((await get('/api/organizations?search=50%25')).body.total).toBe(1);
  });

  it('organization members: "%" and "_" find nobody', async () => {
    const all = await get(`/api/organizations/${orgId}/members`);
    expect(all.body.total).toBe(2);
    expect((await get(`/api/organizations/${orgId}/members?search=%25`)).body.total).toBe(0);
    expect((await get(`/api/organizations/${orgId}/members?search=_`)).body.total).toBe(0);
  });

  it('users export: "%" exports nobody', async () => {
    const res = await download(t, 'POST', '/api/export/users', t.adminToken, { fields: ['code'], search: '%' });
    expect(res.status).toBe(200);
    const rows = sheetRows((await readWorkbook(res.buf)).worksheets[0]!);
    expect(rows.filter((r) => r.some((v) => String(v ?? '').startsWith('SV0')))).toHaveLength(0);
    const every = await download(t, 'POST', '/api/export/users', t.adminToken, { fields: ['code'], search: 'sv0' });
    expect(
      sheetRows((await readWorkbook(every.buf)).worksheets[0]!).filter((r) => r.some((v) => String(v ?? '').startsWith('SV0'))),
    ).toHaveLength(2);
  });
});

describe('invisible characters', () => {
  it('are removed from names and codes sent to the API', async () => {
    const res = await t.request('POST', '/api/departments', {
      token: t.adminToken,
      body: { name: 'Khoa\u0000 Kinh\u202E tế\r\n', code: 'K\u200BT' },
    });
    expect(res.status).toBe(201);
    expect([res.body.name, res.body.code]).toEqual(['Khoa Kinh tế', 'KT']);
    const dup = await t.request('POST', '/api/departments', { token: t.adminToken, body: { name: 'Khoa khác', code: 'KT\uFEFF' } });
    expect(dup.status).toBe(409);
  });

  it('are removed from imported cells too', async () => {
    const buf = await xlsx(USER_HEADER, [
      userRow({ code: 'SV9\u200B', familyName: 'Trần\u202E', givenName: 'Bình\u0007', email: 'b@sv.vn' }),
    ]);
    const res = await t.request('POST', '/api/users/import/upload', { token: t.adminToken, body: form(buf) });
    expect(res.status).toBe(201);
    expect(res.body.previewData[0]).toMatchObject({ code: 'SV9', familyName: 'Trần', givenName: 'Bình' });
  });
});

describe('change password', () => {
  it('refuses a 5 MB password and one made of spaces (400), and keeps the old one', async () => {
    const u = await t.createUser('PW01');
    const change = (newPassword: string) =>
      t.request('POST', '/api/auth/change-password', { token: u.token, body: { currentPassword: 'secret123', newPassword } });
    const started = Date.now();
    const huge = await change('x'.repeat(5 * 1024 * 1024));
    expect(huge.status).toBe(400);
    expect(huge.body.message).toContain('128');
    expect(Date.now() - started).toBeLessThan(2000);
    const blank = await change('        ');
    expect(blank.status).toBe(400);
    expect(blank.body.message).toContain('dấu cách');
    await t.login(u.email, 'secret123');
  });
});
