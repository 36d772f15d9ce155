/**
 * Issue 28: while another connection (another API process, or an import's transaction) holds
 * SQLite's write lock, a request that writes waits on a timer, so the same process keeps answering
 * reads; once the lock is given back the write goes through. Before, the write slept in SQLite's
 * busy handler on the event loop's thread: nothing else ran, and after 5 s it failed with a 500.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, TEST_ENGINE, type TestApp } from '../test/harness';
import { writeLockFree } from './write-turn';
import { writersWaiting } from './writer-gate';
import { uploadUsers, userRow } from '../imports/fixture';

// SQLite's single write lock: PostgreSQL has none to wait for (app.ts mounts writeTurn on SQLite only).
describe.skipIf(TEST_ENGINE === 'pg')('the write turn', () => {
  let dir: string;
  let app: TestApp;
  let other: Database.Database;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doanhoi-write-turn-'));
    app = await makeTestApp({}, join(dir, 'app.db'));
    other = new Database(join(dir, 'app.db'));
  });

  afterAll(() => {
    other.close();
    app.db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a write waits for the lock on a timer: reads are answered meanwhile, the write lands once the lock is free', async () => {
    expect(writeLockFree(app.db.$client)).toBe(true);
    other.exec('BEGIN IMMEDIATE');
    expect(writeLockFree(app.db.$client)).toBe(false);
    let settled = false;
    const write = app.request('PATCH', '/api/auth/me/profile', { token: app.adminToken, body: { phone: '0912345678' } });
    void write.then(() => (settled = true));
    // Reads go on while the write waits (the event loop is free), and see the old phone.
    for (let i = 0; i < 3; i++) {
      const read = await app.request('GET', '/api/auth/me/profile', { token: app.adminToken });
      expect(read.status).toBe(200);
      expect(read.body.phone).not.toBe('0912345678');
    }
    // Still waiting, not failed: before, it had slept 5 s in the busy handler and answered 500.
    expect(settled).toBe(false);
    other.exec('COMMIT');
    const written = await write;
    expect(written.status).toBe(200);
    expect(written.body.phone).toBe('0912345678');
    // The timeout the handler's own statements wait with is restored.
    expect(app.db.$client.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('an execute that waited for the lock holds its import aside for its turn only, not for the whole import', async () => {
    const rows = Array.from({ length: 300 }, (_, i) =>
      userRow({ code: `WT${i}`, familyName: 'Lê', givenName: `An${i}`, email: `wt${i}@example.vn` }),
    );
    const up = await uploadUsers(app, rows);
    expect(up.status).toBe(201);
    other.exec('BEGIN IMMEDIATE');
    let settled = false;
    const run = app.request('POST', `/api/users/import/${up.body.sessionId}/execute`, {
      token: app.adminToken,
      body: { options: { skipErrors: true, batchSize: 10 } },
    });
    void run.then(() => (settled = true));
    // Waiting for the lock, the request has announced itself: a job would stand aside for it.
    while (writersWaiting() === 0 && !settled) await new Promise((r) => setTimeout(r, 1));
    expect(writersWaiting()).toBe(1);
    other.exec('COMMIT');
    // Before, the announcement lasted until the execute answered, and the import's job stood aside
    // 250 ms after each of its 30 batches (8.8 s here); now it ends 500 ms after its turn at most.
    let freedWhileRunning = false;
    while (!settled) {
      if (writersWaiting() === 0) {
        freedWhileRunning = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    const done = await run;
    expect(done.status).toBe(200);
    expect(done.body.importedCount).toBe(300);
    expect(freedWhileRunning).toBe(true);
    expect(writersWaiting()).toBe(0);
  });
});
