/**
 * Import repair (issue 15 part 5) and one rule source (issue 14 item 5): the headers call and its
 * remembered mapping, uploads through a mapping, the rows-with-errors file, and import rows
 * refused with the forms' own messages.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { departments } from '../db/tables/departments';
import { translate } from '../lib/i18n';
import { makeTestApp, type TestApp } from '../test/harness';
import { download, form, readWorkbook, sheetRows, UNTHROTTLED, USER_HEADER, userRow, validateUsers, xlsx } from './fixture';
import { firstRow } from '../db/engine';

let t: TestApp;

beforeAll(async () => {
  t = await makeTestApp(UNTHROTTLED);
});

const theirDepartments = (rows: (string | null)[][]) =>
  xlsx(
    ['STT', 'Đơn vị', 'Ký hiệu', 'Ghi chú'],
    rows.map((r, i) => [String(i + 1), ...r]),
  );
const mapping = { name: 'Đơn vị', code: 'Ký hiệu', description: 'Ghi chú' };

describe('headers and mapping', () => {
  it('suggests a mapping for a file whose headers differ, and remembers the one used for next time', async () => {
    const file = await theirDepartments([['Khoa Ánh Xạ', 'AX1', 'Một']]);
    const first = await t.request('POST', '/api/departments/import/headers', { token: t.adminToken, body: form(file) });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ needsMapping: true, headers: ['STT', 'Đơn vị', 'Ký hiệu', 'Ghi chú'], remembered: [] });

    // Without a mapping the file is refused (no name column); with one it is read.
    const refused = await t.request('POST', '/api/departments/import/upload', { token: t.adminToken, body: form(file) });
    expect(refused.status).toBe(400);
    const up = await t.request('POST', '/api/departments/import/upload', {
      token: t.adminToken,
      body: form(file, 'x.xlsx', { mapping: JSON.stringify(mapping) }),
    });
    expect(up.status).toBe(201);
    expect(up.body.previewData[0]).toMatchObject({ name: 'Khoa Ánh Xạ', code: 'AX1', description: 'Một' });
    expect(up.body.ignoredColumns).toEqual(['STT']);
    const ex = await t.request('POST', `/api/departments/import/${up.body.sessionId}/execute`, { token: t.adminToken, body: {} });
    expect(ex.body.importedCount).toBe(1);
    expect((await firstRow(t.db.select().from(departments).where(eq(departments.code, 'AX1'))))?.name).toBe('Khoa Ánh Xạ');

    const again = await t.request('POST', '/api/departments/import/headers', { token: t.adminToken, body: form(file) });
    expect(again.body.suggestion).toEqual(mapping);
    expect(again.body.remembered).toEqual(['name', 'code', 'description']);
    // Remembered per user: another user gets only the suggestion.
    const other = await t.createUser('MAPOTHER', [
      { roleId: await t.createRole('map_dept', ['departments.access', 'departments.create']) },
    ]);
    const theirs = await t.request('POST', '/api/departments/import/headers', { token: other.token, body: form(file) });
    expect(theirs.body.remembered).toEqual([]);
  });

  it('refuses an invalid mapping with 400 and a message in the caller’s language', async () => {
    const file = await theirDepartments([['Khoa X', 'AX2', '']]);
    const up = (m: string, lang = 'vi') =>
      t.request('POST', '/api/departments/import/upload', {
        token: t.adminToken,
        headers: { 'accept-language': lang },
        body: form(file, 'x.xlsx', { mapping: m }),
      });
    const notJson = await up('{name:');
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toBe('Cách ghép cột không hợp lệ');
    const badShape = await up(JSON.stringify({ name: 5 }));
    expect(badShape.status).toBe(400);
    const unknown = await up(JSON.stringify({ ...mapping, salary: 'Ghi chú' }), 'en');
    expect(unknown).toMatchObject({ status: 400, body: { message: 'Column not in the template: salary' } });
    const twice = await up(JSON.stringify({ name: 'Đơn vị', code: 'đơn vị' }));
    expect(twice.status).toBe(400);
    const absent = await up(JSON.stringify({ name: 'Đơn vị', description: 'Mô tả dài' }));
    expect(absent).toMatchObject({ status: 400, body: { message: 'File không có cột: Mô tả dài' } });
  });
});

describe('rows with errors', () => {
  it('downloads only the refused rows with their reasons; fixed and uploaded again, they import', async () => {
    const file = await theirDepartments([
      ['Khoa Tốt', 'AX3', ''],
      ['K', 'AX4', 'tên quá ngắn'],
      ['Khoa Mã Ngắn', 'A', ''],
    ]);
    const up = await t.request('POST', '/api/departments/import/upload', {
      token: t.adminToken,
      headers: { 'accept-language': 'en' },
      body: form(file, 'x.xlsx', { mapping: JSON.stringify(mapping) }),
    });
    const res = await download(t, 'GET', `/api/departments/import/${up.body.sessionId}/error-rows`, t.adminToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('departments_import_errors.xlsx');
    const rows = sheetRows((await readWorkbook(res.buf)).worksheets[0]!);
    expect(rows[0]).toEqual(['Tên khoa/phòng ban*', 'Mã', 'Mô tả', 'Dòng gốc', 'Lỗi']);
    expect(rows.slice(1).map((r) => r.slice(0, 4))).toEqual([
      ['K', 'AX4', 'tên quá ngắn', 3],
      ['Khoa Mã Ngắn', 'A', '', 4],
    ]);
    expect(rows[1]![4]).toBe('Tên phải có ít nhất 2 ký tự (cột Tên khoa/phòng ban)');
    expect(rows[2]![4]).toBe('Mã phải có ít nhất 2 ký tự (cột Mã)');

    // Fixed in the file and uploaded again: no mapping needed, both rows import.
    const fixed = await xlsx(rows[0] as string[], [
      ['Khoa Kế', 'AX4', 'tên quá ngắn', 3, rows[1]![4] as string],
      ['Khoa Mã Ngắn', 'AX5', '', 4, rows[2]![4] as string],
    ]);
    const headers = await t.request('POST', '/api/departments/import/headers', { token: t.adminToken, body: form(fixed) });
    expect(headers.body.needsMapping).toBe(false);
    const again = await t.request('POST', '/api/departments/import/upload', { token: t.adminToken, body: form(fixed) });
    expect(again.status).toBe(201);
    const ex = await t.request('POST', `/api/departments/import/${again.body.sessionId}/execute`, {
      token: t.adminToken,
      body: { options: { skipErrors: false } },
    });
    expect(ex.body).toMatchObject({ importedCount: 2, failedCount: 0 });
  });

  it('never returns a password from the file', async () => {
    const { sessionId } = await validateUsers(t, [
      userRow({ code: 'ERPW', familyName: 'Lê', givenName: 'An', email: 'bad-email', password: 'secret99' }),
    ]);
    const res = await download(t, 'GET', `/api/users/import/${sessionId}/error-rows`, t.adminToken);
    const rows = sheetRows((await readWorkbook(res.buf)).worksheets[0]!);
    expect(JSON.stringify(rows)).not.toContain('secret99');
    expect(rows[1]!.at(-1)).toContain('mật khẩu không được trả lại');
  });

  it('is the session owner’s only', async () => {
    const up = await t.request('POST', '/api/departments/import/upload', {
      token: t.adminToken,
      body: form(await xlsx(['name'], [['X']])),
    });
    const other = await t.createUser('ERROTHER', [{ roleId: await t.createRole('er_dept', ['departments.access', 'departments.create']) }]);
    const res = await t.request('GET', `/api/departments/import/${up.body.sessionId}/error-rows`, { token: other.token });
    expect(res.status).toBe(403);
  });
});

describe('one rule source: rows the form refuses are refused with the form’s message', () => {
  // The column as the reader's preview names it: the template's header in vi, its English label in en (issue 26 item 6).
  const cases: [string, Record<string, string>, string, string, string][] = [
    ['e-mail without a domain dot', { email: 'an@localhost' }, 'validation.emailInvalid', 'Email', 'E-mail'],
    ['phone of 9 digits with letters', { phone: '09123a5678' }, 'validation.phoneInvalid', 'Số điện thoại', 'Phone'],
    ['password too short', { password: '12345' }, 'validation.passwordMinLength', 'Mật khẩu', 'Password'],
    ['password too long (the form allows 128)', { password: 'x'.repeat(129) }, 'validation.passwordTooLong', 'Mật khẩu', 'Password'],
    ['code too long', { code: 'C'.repeat(51) }, 'validation.textTooLong', 'Mã số', 'Code'],
    ['e-mail over 254 characters', { email: `${'a'.repeat(250)}@x.vn` }, 'validation.textTooLong', 'Email', 'E-mail'],
    ['no family name', { familyName: '' }, 'validation.familyNameRequired', 'Họ', 'Family name'],
  ];
  for (const [name, override, key, column, columnEn] of cases) {
    it(`${name}: "${translate(key)}" in vi and en`, async () => {
      const row: Record<string, string> = {
        code: `RR${name.length}`,
        familyName: 'Lê',
        givenName: 'An',
        email: `rr${name.length}@sv.vn`,
        ...override,
      };
      const viaForm = await t.request('POST', '/api/users', { token: t.adminToken, body: { ...row, phone: row.phone ?? '0901234567' } });
      expect(viaForm.status).toBe(400);
      expect(viaForm.body.message).toContain(translate(key));
      for (const lang of ['vi', 'en'] as const) {
        const up = await t.request('POST', '/api/users/import/upload', {
          token: t.adminToken,
          body: form(await xlsx(USER_HEADER, [userRow(row)])),
        });
        const v = await t.request('GET', `/api/users/import/${up.body.sessionId}/validate`, {
          token: t.adminToken,
          headers: { 'accept-language': lang },
        });
        expect(v.body.data[0].validation.errors).toContain(
          `${translate(key, lang)} (${lang === 'vi' ? `cột ${column}` : `column ${columnEn}`})`,
        );
      }
    });
  }
});
