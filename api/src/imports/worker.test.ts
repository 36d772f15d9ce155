/**
 * Issue 12: on a database file, imports and exports run in a worker thread with its own
 * connection. A light request must answer at once while they run, their writes must be seen by
 * the next cached read of this thread, and their answers and errors must be the same as in-process.
 */
import { USER_EXPORT_FIELDS } from '@doanhoi/shared';
import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { offloadedCalls, stopWorkers } from '../lib/worker-pool';
import { makeTestApp, TEST_ENGINE, type TestApp } from '../test/harness';
import { closeAppDb } from '../db/open';
import { uploadUsers, userRow } from './fixture';

let t: TestApp;
let dir: string;
const N = 5000;
const rows = Array.from({ length: N }, (_, i) =>
  userRow({ code: `WK${i}`, familyName: 'Phạm Thị', givenName: `Lan${i}`, email: `wk${i}@example.vn`, phone: '0901234567' }),
);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doanhoi-worker-'));
  t = await makeTestApp({}, join(dir, 'app.db'));
  // The worker's first job loads the API's modules (≈ 1–3 s): not what this test measures.
  const warm = await uploadUsers(t, [userRow({ code: 'WARM', familyName: 'A', givenName: 'B', email: 'warm@example.vn' })]);
  expect(warm.status).toBe(201);
}, 60_000);

afterAll(async () => {
  await stopWorkers();
  await closeAppDb(t.db);
  rmSync(dir, { recursive: true, force: true });
});

/** Latencies (ms) of profile requests sent one after another until `work` settles (and the session's statuses meanwhile). */
async function profileLatencies<T>(work: Promise<T>, sessionId?: string): Promise<{ value: T; latencies: number[]; statuses: string[] }> {
  let settled = false;
  const job = work.finally(() => (settled = true));
  const latencies: number[] = [];
  const statuses: string[] = [];
  while (!settled) {
    if (sessionId) statuses.push((await t.request('GET', `/api/users/import/${sessionId}/status`, { token: t.adminToken })).body.status);
    const start = performance.now();
    const res = await t.request('GET', '/api/auth/profile', { token: t.adminToken });
    expect(res.status).toBe(200);
    latencies.push(performance.now() - start);
    await new Promise((r) => setTimeout(r, 5));
  }
  return { value: await job, latencies, statuses };
}

// SQLite's WAL: PostgreSQL checkpoints itself.
it.skipIf(TEST_ENGINE === 'pg')('while the worker lives, the request connection leaves WAL checkpoints to it (lib/checkpoints.ts)', () => {
  expect(t.db.$client.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
});

it("a validation answer crosses from the worker gzipped for a client that accepts it (a 10,000-row file's is ≈ 6 MB of JSON)", async () => {
  const up = await uploadUsers(t, rows.slice(0, 40));
  const path = `/api/users/import/${up.body.sessionId}/validate`;
  const ask = (encoding?: string) =>
    t.app.request(path, { headers: { authorization: `Bearer ${t.adminToken}`, ...(encoding ? { 'accept-encoding': encoding } : {}) } });
  const zipped = await ask('gzip, deflate, br');
  expect(zipped.status).toBe(200);
  expect(zipped.headers.get('content-encoding')).toBe('gzip');
  const body = Buffer.from(await zipped.arrayBuffer());
  const plain = await ask();
  expect(plain.headers.get('content-encoding')).toBeNull();
  const text = await plain.text();
  expect(JSON.parse(gunzipSync(body).toString())).toEqual(JSON.parse(text));
  expect(JSON.parse(text).summary.valid).toBe(40);
  expect(body.byteLength).toBeLessThan(text.length / 4);
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const total = async () => (await t.request('GET', '/api/users?page=1&limit=1', { token: t.adminToken })).body.total as number;

it('a 5,000-row all-or-nothing import: profile requests keep answering at once, and the list sees the rows right after', async () => {
  const before = await total(); // cached on this thread from here on
  const up = await uploadUsers(t, rows);
  expect(up.status).toBe(201);
  const id = up.body.sessionId as string;
  const v = await t.request('GET', `/api/users/import/${id}/validate`, { token: t.adminToken });
  expect(v.body.summary.valid).toBe(N);

  const sent = offloadedCalls();
  const exec = t.request('POST', `/api/users/import/${id}/execute`, { token: t.adminToken, body: { options: { skipErrors: false } } });
  const { value, latencies, statuses } = await profileLatencies(exec, id);
  // The status route answers on this thread while the worker executes: running, never "cut off by a restart".
  expect(statuses).toContain('running');
  expect(statuses).not.toContain('failed');
  expect(value.status).toBe(200);
  expect(value.body.importedCount).toBe(N);
  // In-process, the one transaction held this thread for 0.3–1 s (and the check before it for longer), so no
  // profile request could answer meanwhile; in the worker they keep answering. Figures are in `npm run bench`:
  // here only the job's place and a median far from the in-process hold, robust on a loaded 2-core machine.
  expect(offloadedCalls()).toBe(sent + 1);
  expect(latencies.length).toBeGreaterThan(3);
  expect(median(latencies)).toBeLessThan(150);

  // Written by the worker's connection, seen by this thread's cache at once.
  expect(await total()).toBe(before + N);
  const again = await t.request('POST', `/api/users/import/${id}/execute`, {
    token: t.adminToken,
    body: { options: { skipErrors: false } },
  });
  expect(again.status).toBe(409);
  expect(again.body.message).toMatch(/đã được thực hiện xong/);
}, 120_000);

it('errors raised in the worker keep their status and message', async () => {
  const missing = await t.request('GET', '/api/users/import/00000000-0000-4000-8000-000000000000/validate', { token: t.adminToken });
  expect(missing.status).toBe(404);
  expect(missing.body.message).toBeTruthy();
  const bad = await t.request('POST', '/api/export/users', { token: t.adminToken, body: { fields: ['code', 'nope'] } });
  expect(bad.status).toBe(400);
  expect(bad.body.message).toMatch(/nope/);
});

it('an export streamed from the worker holds every user in scope, while profile requests answer at once', async () => {
  const fields = USER_EXPORT_FIELDS.map((f) => f.key);
  const exp = Promise.resolve(
    t.app.request('/api/export/users', {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fields }),
    }),
  ).then(async (r) => ({ headers: r.headers, bytes: await r.arrayBuffer() }));
  const { value, latencies } = await profileLatencies(exp);
  expect(value.headers.get('content-disposition')).toMatch(/users_.*\.xlsx/);
  expect(median(latencies)).toBeLessThan(150);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(value.bytes);
  const codes = wb.worksheets[0]!.getColumn(1).values.slice(2);
  expect(codes).toHaveLength(await total());
  expect(codes).toContain('WK4999');

  // The serialising happens in the worker, not on this thread (in-process it kept this thread busy ≈ 90 % of
  // the export). Asserted as the job being sent to the worker, not as a load-sensitive utilisation figure.
  const sent = offloadedCalls();
  const again = await t.app.request('/api/export/users', {
    method: 'POST',
    headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fields }),
  });
  expect((await again.arrayBuffer()).byteLength).toBeGreaterThan(value.bytes.byteLength / 2);
  expect(offloadedCalls()).toBe(sent + 1);
}, 90_000);
