/**
 * Leases on one database file through two connections, as two API processes hold them (issue 28
 * item 2): one holder at a time, renewed while held, taken over once expired or once the holder's
 * process is gone, given up on stop.
 */
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { sqlGet, sqlRun } from '../db/engine';
import { Lease, leasedInterval } from './lease';
import { twoConnections } from './two-connections.fixture';

let one: Db;
let two: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ one, two, close } = await twoConnections());
}, 60_000);

beforeEach(async () => {
  await sqlRun(one, sql`DELETE FROM leases`);
});

afterAll(async () => {
  await close();
});

const row = (name: string) =>
  sqlGet<{ holder: string; expiresAt: number } | undefined>(
    one,
    sql`SELECT holder, expires_at AS "expiresAt" FROM leases WHERE name = ${name}`,
  );

describe('Lease', () => {
  it('has one holder at a time, renewed by it, taken over by another once it expires', async () => {
    const a = new Lease(one, 'job', 30_000);
    const b = new Lease(two, 'job', 30_000);
    const t0 = Date.now();
    expect(await a.hold(t0)).toBe(true);
    expect(await b.hold(t0 + 1)).toBe(false);
    // Renewed once a third of its time has passed.
    expect(await a.hold(t0 + 11_000)).toBe(true);
    expect(await row('job')).toEqual({ holder: a.holder, expiresAt: t0 + 41_000 });
    expect(await b.hold(t0 + 40_000)).toBe(false);
    // The holder stopped renewing (it died, or hangs): the other takes over, and the first has lost it.
    expect(await b.hold(t0 + 41_000)).toBe(true);
    expect(await a.hold(t0 + 41_001)).toBe(false);
    expect((await row('job'))!.holder).toBe(b.holder);
  });

  it('a holder on this machine whose process is gone is taken over at once; release frees it', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim();
    await sqlRun(
      one,
      sql`INSERT INTO leases (name, holder, expires_at) VALUES (${'job'}, ${`${hostname()}:${gone}:x`}, ${Date.now() + 30_000})`,
    );
    const b = new Lease(two, 'job');
    expect(await b.hold()).toBe(true);
    await b.release();
    expect(await row('job')).toBeUndefined();
    // A live process elsewhere (ours, through another holder) is waited for.
    const a = new Lease(one, 'job');
    expect(await a.hold()).toBe(true);
    expect(await b.hold()).toBe(false);
  });
});

describe('leasedInterval', () => {
  it('runs the job in one of two instances; the other takes over when the first stops', async () => {
    const runs: string[] = [];
    const stopOne = await leasedInterval(one, 'job', 20, () => void runs.push('one'), { ttlMs: 300 });
    const stopTwo = await leasedInterval(two, 'job', 20, () => void runs.push('two'), { ttlMs: 300 });
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
