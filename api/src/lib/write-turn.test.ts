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
});
