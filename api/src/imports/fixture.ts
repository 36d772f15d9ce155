/** Test helpers for the import and export suites: build xlsx files, upload them, read downloads back. */
import ExcelJS from 'exceljs';
import { count, eq, sql } from 'drizzle-orm';
import { classes } from '../db/tables/classes';
import { departments } from '../db/tables/departments';
import { organizationMembers } from '../db/tables/organizations';
import { makeTestApp, type TestApp } from '../test/harness';
import { users } from '../db/tables/users';
import { allRows, firstRow, runQuery, sqlGet } from '../db/engine';

/**
 * For suites that make many import and export calls as one user in one app and are not about
 * throttling: lib/rate-limit.ts's limits out of the way (rate-limit.test.ts checks the real ones).
 */
export const UNTHROTTLED = {
  EXPORT_RATE_LIMIT: '100000',
  IMPORT_RATE_LIMIT: '100000',
  IMPORT_VALIDATE_RATE_LIMIT: '100000',
  DASHBOARD_RATE_LIMIT: '100000',
};

export type Cells = (string | number | Date | null | undefined)[];

/** An xlsx with one sheet: the header row, then the rows (written by exceljs, as Excel would). */
export async function xlsx(
  header: string[] | null,
  rows: Cells[] = [],
  opts: { sheetName?: string; extraSheet?: boolean } = {},
): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(opts.sheetName ?? 'Sheet1');
  if (header) ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  if (opts.extraSheet) wb.addWorksheet('Other').addRow(['ignored']);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

export function form(buf: Uint8Array, name = 'x.xlsx', extra: Record<string, string> = {}): FormData {
  const fd = new FormData();
  fd.append('file', new File([buf as Uint8Array<ArrayBuffer>], name));
  for (const [k, v] of Object.entries(extra)) fd.append(k, v);
  return fd;
}

export const USER_HEADER = [
  'code',
  'familyName',
  'givenName',
  'email',
  'password',
  'phone',
  'className',
  'managementDepartmentCode',
  'trainingDepartmentCode',
  'organizationCodes',
  'userType',
  'membershipStatus',
];

/** A users row in USER_HEADER order; only the named fields are filled. */
export function userRow(v: Partial<Record<(typeof USER_HEADER)[number], string>>): Cells {
  return USER_HEADER.map((k) => v[k] ?? null);
}

export async function uploadUsers(t: TestApp, rows: Cells[], token = t.adminToken, header = USER_HEADER) {
  return t.request('POST', '/api/users/import/upload', { token, body: form(await xlsx(header, rows)) });
}

/** Upload then validate; returns the session id and the validation body. */
export async function validateUsers(t: TestApp, rows: Cells[], token = t.adminToken, header = USER_HEADER) {
  const up = await uploadUsers(t, rows, token, header);
  if (up.status !== 201) throw new Error(`upload failed: ${up.status} ${JSON.stringify(up.body)}`);
  const v = await t.request('GET', `/api/users/import/${up.body.sessionId}/validate`, { token });
  return { sessionId: up.body.sessionId as string, status: v.status, body: v.body };
}

export async function importUsers(
  t: TestApp,
  rows: Cells[],
  options: Record<string, unknown> = {},
  token = t.adminToken,
  header = USER_HEADER,
) {
  const up = await uploadUsers(t, rows, token, header);
  if (up.status !== 201) throw new Error(`upload failed: ${up.status} ${JSON.stringify(up.body)}`);
  const res = await t.request('POST', `/api/users/import/${up.body.sessionId}/execute`, { token, body: { options } });
  return { sessionId: up.body.sessionId as string, ...res };
}

/** A download as raw bytes (the harness reads bodies as text, which mangles binary). */
export async function download(t: TestApp, method: string, path: string, token: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await t.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const buf = new Uint8Array(await res.arrayBuffer());
  let json: any = null;
  if (!res.headers.get('content-type')?.includes('spreadsheetml')) json = JSON.parse(new TextDecoder().decode(buf) || 'null');
  return { status: res.status, headers: res.headers, buf, json };
}

export async function readWorkbook(buf: Uint8Array): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(buf as unknown as ArrayBuffer);
  return wb;
}

/** The first sheet's rows as arrays of cell values (1-based values dropped). */
export function sheetRows(ws: ExcelJS.Worksheet): ExcelJS.CellValue[][] {
  const out: ExcelJS.CellValue[][] = [];
  ws.eachRow({ includeEmpty: false }, (row) => out.push((row.values as ExcelJS.CellValue[]).slice(1)));
  return out;
}

/**
 * The users-import suites' world: an app with UI-DT › UI-DCS › UI-CD1 and UI-DT › UI-DCS2, the
 * department CNTT and its class L22C1 (rows refer to them by code).
 */
export async function usersImportWorld() {
  const t = await makeTestApp(UNTHROTTLED);
  const root = await t.createOrg('doan_truong', 'UI-DT');
  const faculty = await t.createOrg('doan_co_so', 'UI-DCS', root);
  const chiDoan = await t.createOrg('chi_doan', 'UI-CD1', faculty);
  const other = await t.createOrg('doan_co_so', 'UI-DCS2', root);
  const dept = (await firstRow(t.db.insert(departments).values({ name: 'Khoa CNTT', code: 'CNTT' }).returning())).id;
  await runQuery(t.db.insert(classes).values({ name: '22CNTT1', code: 'L22C1', year: 2022, departmentId: dept }));
  return { t, orgs: { root, faculty, chiDoan, other } };
}

/** Reads of the users-import suites over the app `app()` returns once their world is built, and a valid row. */
export function usersImportHelpers(app: () => TestApp) {
  return {
    userCount: async () => (await firstRow(app().db.select({ n: count() }).from(users)))!.n,
    userByCode: async (code: string) => await firstRow(app().db.select().from(users).where(eq(users.code, code))),
    membershipsOf: async (userId: number) =>
      (
        await allRows(
          app()
            .db.select({ org: organizationMembers.organizationId })
            .from(organizationMembers)
            .where(eq(organizationMembers.userId, userId)),
        )
      )
        .map((m) => m.org)
        .sort((a, b) => a - b),
    ok: (code: string, extra: Record<string, string> = {}) =>
      userRow({ code, familyName: 'Trần Thị', givenName: 'Bình', email: `${code.toLowerCase()}@sv.vn`, ...extra }),
  };
}

/** PostgreSQL: rows of users_index and member_scopes that differ from a recount, and pauses left behind (all 0 when right). */
export async function indexDrift(t: TestApp) {
  return await sqlGet<{ missing: number; words: number; units: number; scopes: number; pauses: number }>(
    t.db,
    sql`SELECT
      (SELECT count(*) FROM users u WHERE NOT EXISTS (SELECT 1 FROM users_index x WHERE x.id = u.id)) AS missing,
      (SELECT count(*) FROM users u JOIN users_index x ON x.id = u.id
        WHERE x.search_vector IS DISTINCT FROM coalesce(users_search_vector(u.search_text), '')) AS words,
      (SELECT count(*) FROM figures.scope_orgs(ARRAY(SELECT id FROM users)) s JOIN users_index x ON x.id = s.user_id
        WHERE x.orgs IS DISTINCT FROM s.orgs) AS units,
      (SELECT count(*) FROM ((SELECT organization_id, user_id FROM member_scopes EXCEPT SELECT unnest(orgs), id FROM users_index)
        UNION ALL (SELECT unnest(orgs), id FROM users_index EXCEPT SELECT organization_id, user_id FROM member_scopes)) d) AS scopes,
      (SELECT count(*) FROM trigger_pauses) AS pauses`,
  );
}
