import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDb, type Db } from '../db/client';
import { runMigrations } from '../db/migrate';
import { AUTO_CHECKPOINT_PAGES, checkpointOnCommit, startCheckpoints } from './checkpoints';

let dir: string;
let requests: Db;
let worker: Db;
const file = () => join(dir, 'app.db');
const fileBytes = () => statSync(file()).size;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'doanhoi-checkpoints-'));
  requests = openDb(file());
  worker = openDb(file());
  // The checkpoint timer runs under a lease (lib/lease.ts), whose table the migrations make.
  runMigrations(requests);
  requests.$client.exec('CREATE TABLE t (b BLOB)');
});

afterEach(() => {
  requests.$client.close();
  worker.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

/** 8 MB written through the request connection, one commit per 256 KB (twice SQLite's checkpoint threshold in all). */
function write() {
  const insert = requests.$client.prepare('INSERT INTO t (b) VALUES (randomblob(262144))');
  for (let i = 0; i < 32; i++) insert.run();
}

it('with checkpoints left to another connection, commits keep their pages in the WAL and the timer moves them into the file', async () => {
  checkpointOnCommit(requests.$client, false);
  expect(requests.$client.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
  write();
  expect(fileBytes()).toBeLessThan(1024 * 1024);

  const stop = await startCheckpoints(worker, 20);
  try {
    await expect.poll(fileBytes, { timeout: 5000, interval: 25 }).toBeGreaterThan(8 * 1024 * 1024);
  } finally {
    stop();
  }
});

it('by default, and again once the worker is gone, a commit checkpoints by itself', () => {
  checkpointOnCommit(requests.$client, false);
  checkpointOnCommit(requests.$client, true);
  expect(requests.$client.pragma('wal_autocheckpoint', { simple: true })).toBe(AUTO_CHECKPOINT_PAGES);
  write();
  expect(fileBytes()).toBeGreaterThan(4 * 1024 * 1024);
});
