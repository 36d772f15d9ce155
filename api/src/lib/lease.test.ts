/**
 * Leases on one database file through two connections, as two API processes hold them (issue 28
 * item 2): one holder at a time, renewed while held, taken over once expired or once the holder's
 * process is gone, given up on stop.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/client';
import { runMigrations } from '../db/migrate';
import { Lease, leasedInterval } from './lease';

let dir: string;
let one: Db;
let two: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'doanhoi-lease-'));
  one = openDb(join(dir, 'app.db'));
  runMigrations(one);
  two = openDb(join(dir, 'app.db'));
});

afterEach(() => {
  one.$client.close();
  two.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

const row = (name: string) =>
  one.$client.prepare('SELECT holder, expires_at AS expiresAt FROM leases WHERE name = ?').get(name) as
    { holder: string; expiresAt: number } | undefined;

describe('Lease', () => {
  it('has one holder at a time, renewed by it, taken over by another once it expires', () => {
    const a = new Lease(one.$client, 'job', 30_000);
    const b = new Lease(two.$client, 'job', 30_000);
    const t0 = Date.now();
    expect(a.hold(t0)).toBe(true);
    expect(b.hold(t0 + 1)).toBe(false);
    // Renewed once a third of its time has passed.
    expect(a.hold(t0 + 11_000)).toBe(true);
    expect(row('job')).toEqual({ holder: a.holder, expiresAt: t0 + 41_000 });
    expect(b.hold(t0 + 40_000)).toBe(false);
    // The holder stopped renewing (it died, or hangs): the other takes over, and the first has lost it.
    expect(b.hold(t0 + 41_000)).toBe(true);
    expect(a.hold(t0 + 41_001)).toBe(false);
    expect(row('job')!.holder).toBe(b.holder);
  });

  it('a holder on this machine whose process is gone is taken over at once; release frees it', () => {
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim();
    one.$client
      .prepare('INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)')
      .run('job', `${hostname()}:${gone}:x`, Date.now() + 30_000);
    const b = new Lease(two.$client, 'job');
    expect(b.hold()).toBe(true);
    b.release();
    expect(row('job')).toBeUndefined();
    // A live process elsewhere (ours, through another holder) is waited for.
    const a = new Lease(one.$client, 'job');
    expect(a.hold()).toBe(true);
    expect(b.hold()).toBe(false);
  });
});

describe('leasedInterval', () => {
  it('runs the job in one of two instances; the other takes over when the first stops', async () => {
    const runs: string[] = [];
    const stopOne = await leasedInterval(one.$client, 'job', 20, () => void runs.push('one'), { ttlMs: 300 });
    const stopTwo = await leasedInterval(two.$client, 'job', 20, () => void runs.push('two'), { ttlMs: 300 });
    try {
      await new Promise((r) => setTimeout(r, 200));
      expect(runs.length).toBeGreaterThan(3);
      expect(new Set(runs)).toEqual(new Set(['one']));
      stopOne();
      await expect.poll(() => runs.at(-1), { timeout: 2000, interval: 20 }).toBe('two');
    } finally {
      stopOne();
      stopTwo();
    }
  });
});
