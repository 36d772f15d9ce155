/**
 * Import sessions across two app instances on one database file, as across two API processes
 * (issue 28 items 2 and 5): a file uploaded and validated through one is executed through the
 * other, and a session is executed once however the executes are spread.
 */
import { eq } from 'drizzle-orm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importSessions } from '../db/tables/imports';
import { users } from '../db/tables/users';
import { Lease } from '../lib/lease';
import { stopWorkers } from '../lib/worker-pool';
import { closeAppDb } from '../db/open';
import { makeTestApp, type TestApp } from '../test/harness';
import { UNTHROTTLED, userRow, validateUsers } from './fixture';
import { allRows, runQuery } from '../db/engine';

let dir: string;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doanhoi-two-imports-'));
  a = await makeTestApp(UNTHROTTLED, join(dir, 'app.db'));
  b = await makeTestApp(UNTHROTTLED, join(dir, 'app.db'));
});

afterAll(async () => {
  await stopWorkers();
  await closeAppDb(a.db);
  await closeAppDb(b.db);
  rmSync(dir, { recursive: true, force: true });
});

const row = (code: string) => userRow({ code, familyName: 'Nguyễn', givenName: code, email: `${code.toLowerCase()}@sv.vn` });
const execute = (t: TestApp, sessionId: string) =>
  t.request('POST', `/api/users/import/${sessionId}/execute`, { token: t.adminToken, body: { options: {} } });
const imported = async (code: string) => (await allRows(a.db.select().from(users).where(eq(users.code, code)))).length;

it('a file validated through one instance is executed through the other; its status reads the same in both', async () => {
  const { sessionId, status, body } = await validateUsers(a, [row('TWOIMP1'), row('TWOIMP2')]);
  expect(status).toBe(200);
  expect(body.summary).toMatchObject({ total: 2, valid: 2 });
  const done = await execute(b, sessionId);
  expect(done.status).toBe(200);
  expect(done.body.importedCount).toBe(2);
  for (const t of [a, b]) {
    const s = await t.request('GET', `/api/users/import/${sessionId}/status`, { token: t.adminToken });
    expect(s.body.status).toBe('completed');
  }
  expect((await execute(a, sessionId)).status).toBe(409);
  expect(await imported('TWOIMP1')).toBe(1);
});

it('executes of one session through both instances at once: one runs, the other is refused', async () => {
  const { sessionId } = await validateUsers(b, [row('TWOIMP3'), row('TWOIMP4')]);
  const answers = await Promise.all([execute(a, sessionId), execute(b, sessionId), execute(a, sessionId), execute(b, sessionId)]);
  expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
  expect(await imported('TWOIMP3')).toBe(1);
  expect(await imported('TWOIMP4')).toBe(1);
});

it('a session another process is executing (its lease held, no trace in this process) reads running and is not executed again', async () => {
  const { sessionId } = await validateUsers(a, [row('TWOIMP5')]);
  // What another process's execute leaves in the database while it runs.
  const other = new Lease(b.db, `import:${sessionId}`);
  expect(await other.hold()).toBe(true);
  await runQuery(b.db.update(importSessions).set({ status: 'running' }).where(eq(importSessions.id, sessionId)));
  try {
    expect((await a.request('GET', `/api/users/import/${sessionId}/status`, { token: a.adminToken })).body.status).toBe('running');
    expect((await execute(a, sessionId)).status).toBe(409);
  } finally {
    await other.release();
  }
  // Its holder gone without finishing: the session was cut off, and may run again.
  expect((await a.request('GET', `/api/users/import/${sessionId}/status`, { token: a.adminToken })).body.status).toBe('failed');
  expect((await execute(a, sessionId)).status).toBe(200);
  expect(await imported('TWOIMP5')).toBe(1);
});
