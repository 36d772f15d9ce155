/**
 * The preview's row messages come in the caller's language (issue 26 item 6): Accept-Language en
 * gives English reasons and warnings, vi (the default) the Vietnamese ones, word for word as before.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { form, UNTHROTTLED, userRow, USER_HEADER, xlsx } from './fixture';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp(UNTHROTTLED);
});

async function validate(lang: string, header: string[], rows: (string | null)[][], base = '/api/users') {
  const headers = { 'Accept-Language': lang };
  const up = await t.request('POST', `${base}/import/upload`, { token: t.adminToken, body: form(await xlsx(header, rows)), headers });
  expect(up.status).toBe(201);
  const v = await t.request('GET', `${base}/import/${up.body.sessionId}/validate`, { token: t.adminToken, headers });
  expect(v.status).toBe(200);
  return v.body as { errors: { row: number; message: string }[]; warnings: { row: number; message: string }[] };
}

const ROWS = [
  userRow({ code: 'LANG1', familyName: 'Trần', givenName: 'Một', email: 'lang1@sv.vn', phone: '912345678', userType: 'giảng viên' }),
  userRow({
    code: 'LANG1',
    familyName: 'Trần',
    givenName: 'Hai',
    email: 'lang2@sv.vn',
    className: 'KHONG-CO-LOP',
    organizationCodes: 'KHONG-CO',
  }),
] as (string | null)[][];

describe('row messages follow Accept-Language', () => {
  it('in English, every reason and warning of the users preview is English', async () => {
    const body = await validate('en', USER_HEADER, ROWS);
    const all = [...body.errors, ...body.warnings].map((e) => e.message);
    expect(all).toEqual(
      expect.arrayContaining([
        'Invalid user type: giảng viên (student or staff)',
        'Added the leading 0 to the phone number: 0912345678',
        'Code LANG1 repeats row 2',
        'No class found: KHONG-CO-LOP',
        'No organization has the code KHONG-CO',
        'The default password is the part of the e-mail before @: "lang1" (to be changed at first sign-in)',
      ]),
    );
    // Nothing Vietnamese is left but the values the file itself holds.
    for (const m of all) expect(m.replace(/giảng viên|Trần/g, '')).not.toMatch(/[ăâđêôơưàảãáạèẻẽéẹìỉĩíịòỏõóọùủũúụỳỷỹýỵ]/i);
  });

  it('in Vietnamese the messages are as they were', async () => {
    const body = await validate('vi', USER_HEADER, ROWS);
    const all = [...body.errors, ...body.warnings].map((e) => e.message);
    expect(all).toEqual(
      expect.arrayContaining(['Mã số LANG1 trùng với dòng 2', 'Không tìm thấy lớp: KHONG-CO-LOP', 'Không tìm thấy tổ chức có mã KHONG-CO']),
    );
  });

  it('departments: a repeated code and an over-long code, in English', async () => {
    const body = await validate(
      'en',
      ['Tên khoa/phòng ban', 'Mã'],
      [
        ['Khoa Ngôn Ngữ', 'LANGDEPT-LONG'],
        ['Khoa Ngôn Ngữ Hai', 'LANGDEPT-LONG'],
      ],
      '/api/departments',
    );
    expect(body.errors.map((e) => e.message)).toContain('Code LANGDEPT-LONG repeats row 2');
    expect(body.warnings.map((e) => e.message)).toContain('The code is longer than 10 characters');
  });
});
