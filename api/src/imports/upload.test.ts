/** Templates and every bad-file case of the upload (000 §5 file rules, §7 template calls). */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { download, form, readWorkbook, sheetRows, USER_HEADER, userRow, xlsx } from './fixture';

let t: TestApp;

beforeAll(async () => {
  t = await makeTestApp();
});

const upload = (body: FormData, headers: Record<string, string> = {}) =>
  t.request('POST', '/api/users/import/upload', { token: t.adminToken, body, headers });

describe('templates', () => {
  it('GET /users/template is a real xlsx: header row, example row, notes and dropdowns for userType and membershipStatus', async () => {
    const res = await download(t, 'GET', '/api/users/template', t.adminToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml.sheet');
    expect(res.headers.get('content-disposition')).toContain('filename="users_import_template.xlsx"');
    const wb = await readWorkbook(res.buf);
    const ws = wb.worksheets[0]!;
    const [head, example] = sheetRows(ws);
    expect(head).toEqual([
      'Mã số*',
      'Họ*',
      'Tên*',
      'Email*',
      'Mật khẩu',
      'Số điện thoại',
      'Lớp',
      'Mã khoa quản lý',
      'Mã khoa đào tạo',
      'Mã tổ chức',
      'Loại người dùng',
      'Đoàn viên/Hội viên',
      // The member record (issue 30 item 8).
      'Ngày sinh',
      'Giới tính',
      'Dân tộc',
      'Tôn giáo',
      'Ngày vào Đoàn',
      'Ngày vào Hội',
      'Ngày vào Đảng',
      'Quê quán',
    ]);
    expect(example).toHaveLength(head!.length);
    expect(example![3]).toContain('@');
    const note = ws.getCell('A1').note;
    expect(typeof note === 'string' ? note : note?.texts?.map((x) => x.text).join('')).toContain('bắt buộc');
    const typeCol = head!.indexOf('Loại người dùng') + 1;
    const statusCol = head!.indexOf('Đoàn viên/Hội viên') + 1;
    expect(ws.getRow(2).getCell(typeCol).dataValidation).toMatchObject({ type: 'list', formulae: ['"student,staff"'] });
    expect(ws.getRow(50).getCell(statusCol).dataValidation).toMatchObject({ type: 'list', formulae: ['"none,doan_vien,hoi_vien,both"'] });
  });

  it('the unchanged template uploads (its headers are recognised, the example row is a data row)', async () => {
    const tpl = await download(t, 'GET', '/api/users/template', t.adminToken);
    const res = await upload(form(tpl.buf, 'users_import_template.xlsx'));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ fileName: 'users_import_template.xlsx', totalRows: 1 });
    expect(res.body.previewData[0]).toMatchObject({ rowIndex: 2, code: '22001234', userType: 'student' });
  });

  it('departments and classes templates', async () => {
    for (const [path, name] of [
      ['/api/departments/template', 'departments_import_template.xlsx'],
      ['/api/classes/template', 'classes_import_template.xlsx'],
    ] as const) {
      const res = await download(t, 'GET', path, t.adminToken);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toContain(name);
      const [head] = sheetRows((await readWorkbook(res.buf)).worksheets[0]!);
      expect(head![0]).toMatch(/^Tên/);
    }
  });

  it('member templates: level 3 has the member code only, level 2 also the unit code; other levels → 400', async () => {
    for (const prefix of ['/api/organizations/template', '/api/organizations/members/import/template']) {
      const l3 = await download(t, 'GET', `${prefix}/3`, t.adminToken);
      const l2 = await download(t, 'GET', `${prefix}/2`, t.adminToken);
      expect(sheetRows((await readWorkbook(l3.buf)).worksheets[0]!)[0]).toEqual(['Mã sinh viên*']);
      expect(sheetRows((await readWorkbook(l2.buf)).worksheets[0]!)[0]).toEqual(['Mã sinh viên*', 'Mã lớp/đơn vị*']);
      expect(l2.headers.get('content-disposition')).toContain('level_2');
      for (const bad of ['4', '1', 'abc']) {
        const res = await t.request('GET', `${prefix}/${bad}`, { token: t.adminToken });
        expect(res.status).toBe(400);
        expect(res.body.message).toContain('Level phải là 2 hoặc 3');
      }
    }
  });

  it('templates need a sign-in and the create right', async () => {
    expect((await t.request('GET', '/api/users/template')).status).toBe(401);
    const nobody = await t.createUser('TPLNONE');
    expect((await t.request('GET', '/api/users/template', { token: nobody.token })).status).toBe(403);
    expect((await t.request('GET', '/api/organizations/template/3', { token: nobody.token })).status).toBe(403);
  });
});

describe('bad files', () => {
  const good = () => xlsx(USER_HEADER, [userRow({ code: 'BF1', familyName: 'Lê', givenName: 'An', email: 'bf1@x.vn' })]);

  it('no file, or not multipart → 400', async () => {
    const fd = new FormData();
    fd.append('other', 'x');
    expect((await upload(fd)).status).toBe(400);
    const res = await t.request('POST', '/api/users/import/upload', { token: t.adminToken, body: { file: 'x' } });
    expect(res.status).toBe(400);
  });

  it('wrong extension (.csv) → 400 naming the accepted types', async () => {
    const res = await upload(form(new TextEncoder().encode('code,email\n1,a@b.vn'), 'users.csv'));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('.xlsx');
  });

  it('.xls → 400 asking to save as .xlsx', async () => {
    const ole = new Uint8Array(1024);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const res = await upload(form(ole, 'old.XLS'));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/lưu lại dưới dạng \.xlsx/);
  });

  it('over 5 MB → 413, by the actual size', async () => {
    const big = new Uint8Array(5 * 1024 * 1024 + 10);
    big.set([0x50, 0x4b, 0x03, 0x04]);
    const res = await upload(form(big, 'big.xlsx'));
    expect(res.status).toBe(413);
    expect(res.body.message).toContain('5 MB');
  });

  it('over 5 MB → 413 from Content-Length, before the body is read', async () => {
    const res = await upload(form(await good()), { 'content-length': String(5 * 1024 * 1024 + 200 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body.message).toContain('5 MB');
  });

  it('exactly at the limit is still read (not refused for size)', async () => {
    const buf = await good();
    const res = await upload(form(buf, 'ok.xlsx'));
    expect(res.status).toBe(201);
  });

  it('corrupt bytes named .xlsx → 400', async () => {
    const res = await upload(form(new TextEncoder().encode('this is not a spreadsheet at all'), 'bad.xlsx'));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/hỏng|không phải/);
  });

  it('a truncated xlsx (zip header, broken body) → 400, and the server keeps answering', async () => {
    const buf = await good();
    const res = await upload(form(buf.slice(0, Math.floor(buf.length / 2)), 'half.xlsx'));
    expect(res.status).toBe(400);
    const again = await upload(form(buf, 'ok.xlsx'));
    expect(again.status).toBe(201);
  });

  it('a zip that is not a workbook → 400', async () => {
    // A minimal empty zip archive (end-of-central-directory record only) starts with PK.
    const emptyZip = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
    const res = await upload(form(emptyZip, 'empty.xlsx'));
    expect(res.status).toBe(400);
  });

  it('password-protected workbook (OLE container named .xlsx) → 400 mentioning mật khẩu', async () => {
    const ole = new Uint8Array(2048);
    ole.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const res = await upload(form(ole, 'secret.xlsx'));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('mật khẩu');
  });

  it('empty sheet → 400', async () => {
    const res = await upload(form(await xlsx(null, [])));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/trống|không có dữ liệu/);
  });

  it('header only → 400', async () => {
    const res = await upload(form(await xlsx(USER_HEADER, [])));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('không có dòng dữ liệu');
  });

  it('missing required columns → 400 naming each of them', async () => {
    const res = await upload(form(await xlsx(['code', 'Họ', 'phone'], [['X1', 'Lê', '0901234567']])));
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Thiếu cột bắt buộc');
    expect(res.body.message).toContain('Tên (givenName)');
    expect(res.body.message).toContain('Email (email)');
    expect(res.body.message).not.toContain('Mã số (code)');
  });

  it('headers match by key or Vietnamese label, ignoring accents, case and a trailing *; unknown headers are reported', async () => {
    const res = await upload(
      form(await xlsx(['MA SO*', 'họ', 'TEN', 'e-mail?', 'Email', 'Ghi chú'], [['H1', 'Lê', 'An', 'x', 'h1@x.vn', 'note']])),
    );
    expect(res.status).toBe(201);
    // Punctuation does not count either (issue 26): "e-mail?" is the e-mail column, so the later "Email" is a second one, ignored.
    expect(res.body.previewData[0]).toEqual({ rowIndex: 2, code: 'H1', familyName: 'Lê', givenName: 'An', email: 'x' });
    expect(res.body.ignoredColumns).toEqual(['Email', 'Ghi chú']);
  });

  it('reads only the first sheet and skips blank rows; previews at most 10 rows', async () => {
    const rows = Array.from({ length: 14 }, (_, i) => userRow({ code: `P${i}`, familyName: 'Lê', givenName: 'An', email: `p${i}@x.vn` }));
    rows.splice(3, 0, []);
    const buf = await xlsx(USER_HEADER, rows, { extraSheet: true });
    const res = await upload(form(buf));
    expect(res.status).toBe(201);
    expect(res.body.totalRows).toBe(14);
    expect(res.body.previewData).toHaveLength(10);
    expect(res.body.previewData[3].rowIndex).toBe(6); // the blank spreadsheet row 5 is skipped, numbering kept
  });

  it('upload needs a sign-in and users.create', async () => {
    expect((await t.request('POST', '/api/users/import/upload', { body: form(await good()) })).status).toBe(401);
    const viewer = await t.createUser('UPVIEW', [{ roleId: await t.createRole('up_viewer', ['users.access', 'users.export']) }]);
    expect((await t.request('POST', '/api/users/import/upload', { token: viewer.token, body: form(await good()) })).status).toBe(403);
  });
});
