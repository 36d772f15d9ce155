/**
 * "Download the rows with errors" checks every row of the session again (as validate does): on a
 * database file it runs in the worker thread like upload, validate and execute (issue 12), so a
 * 50,000-row session's download does not hold every other request for seconds (probe: 8 s).
 * The caller's guard and the session's owner are checked the same way. The mapping step's header
 * read (POST …/import/headers) reads the whole file as the upload does, so it goes there too.
 */
import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { offloadedCalls, stopWorkers } from '../lib/worker-pool';
import { makeTestApp, type TestApp } from '../test/harness';
import { closeAppDb } from '../db/open';
import { download, form, uploadUsers, userRow, USER_HEADER, xlsx } from './fixture';

let t: TestApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doanhoi-errrows-'));
  t = await makeTestApp({}, join(dir, 'app.db'));
}, 60_000);

afterAll(async () => {
  await stopWorkers();
  await closeAppDb(t.db);
  rmSync(dir, { recursive: true, force: true });
});

it('the error rows are built in the worker, with the same file and the same refusals', async () => {
  const rows = [
    userRow({ code: 'ER1', familyName: 'Lê', givenName: 'Một', email: 'not-an-email' }),
    userRow({ code: 'ER2', familyName: 'Lê', givenName: 'Hai', email: 'er2@test.vn', phone: '0901234567' }),
  ];
  const up = await uploadUsers(t, rows);
  expect(up.status).toBe(201);
  const before = offloadedCalls();
  const res = await download(t, 'GET', `/api/users/import/${up.body.sessionId}/error-rows`, t.adminToken);
  expect(res.status).toBe(200);
  expect(offloadedCalls()).toBe(before + 1);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(res.buf.buffer as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  expect(ws.rowCount).toBe(2);
  expect(String(ws.getRow(2).getCell(1).value)).toBe('ER1');

  const other = await t.createUser('EROTHER', [{ roleId: await t.createRole('er_importer', ['users.access', 'users.create']) }]);
  const refused = await download(t, 'GET', `/api/users/import/${up.body.sessionId}/error-rows`, other.token);
  expect(refused.status).toBe(403);
  expect(refused.json.message).toContain('người dùng khác');
  const unknown = await download(t, 'GET', '/api/users/import/00000000-0000-4000-8000-000000000000/error-rows', t.adminToken);
  expect(unknown.status).toBe(404);
}, 60_000);

it('the mapping step reads the file’s headers in the worker and answers the same', async () => {
  const before = offloadedCalls();
  const res = await t.request('POST', '/api/users/import/headers', {
    token: t.adminToken,
    body: form(await xlsx(USER_HEADER, [userRow({ code: 'H1' })])),
  });
  expect(res.status).toBe(200);
  expect(offloadedCalls()).toBe(before + 1);
  expect(res.body.headers).toEqual(USER_HEADER);
  expect(res.body.needsMapping).toBe(false);
}, 60_000);
