import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openDb } from '../db/client';
import { testEnv } from '../env';
import { AUTO_CHECKPOINT_PAGES } from './checkpoints';
import { setWorkerSource, startWorker, stopWorkers } from './worker-pool';

setWorkerSource(new URL('../imports/worker.ts', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'doanhoi-worker-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('startWorker settles once the worker has loaded; meanwhile and after, the worker owns the WAL checkpoints until it stops', async () => {
  const db = openDb(join(dir, 'app.db'));
  try {
    const loaded = startWorker({ db, env: testEnv() });
    expect(db.$client.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await loaded;
    await stopWorkers();
    expect(db.$client.pragma('wal_autocheckpoint', { simple: true })).toBe(AUTO_CHECKPOINT_PAGES);
  } finally {
    db.$client.close();
  }
}, 60_000);

it('an in-memory database has no worker to wait for', async () => {
  const db = openDb(':memory:');
  await expect(startWorker({ db, env: testEnv() })).resolves.toBeUndefined();
  expect(db.$client.pragma('wal_autocheckpoint', { simple: true })).toBe(AUTO_CHECKPOINT_PAGES);
  db.$client.close();
});
