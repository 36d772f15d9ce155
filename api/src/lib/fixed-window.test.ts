/**
 * Fixed windows counted in the database through two connections, as two API processes count them
 * (issue 28), on either engine (issue 29): every hit counted once, windows ending on time, undo
 * and forget seen by the other process; the in-memory counter answers the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { FixedWindowCounter, SharedWindowCounter, type WindowCounter } from './fixed-window';
import { twoConnections } from './two-connections.fixture';

let one: Db;
let two: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ one, two, close } = await twoConnections());
}, 60_000);

afterAll(async () => {
  await close();
});

const T0 = 1_700_000_000_000;

async function windows(a: WindowCounter, b: WindowCounter) {
  expect(await a.hitWindow('k', T0)).toEqual({ count: 1, resetAt: T0 + 1000 });
  expect(await b.hit('k', T0 + 10)).toBe(2);
  expect(await a.current('k', T0 + 999)).toEqual({ count: 2, resetAt: T0 + 1000 });
  await b.undo('k');
  expect(await a.current('k', T0 + 20)).toEqual({ count: 1, resetAt: T0 + 1000 });
  // Past its end a window counts as empty, and the next hit starts a new one.
  expect(await a.current('k', T0 + 1000)).toBeUndefined();
  expect(await b.hitWindow('k', T0 + 1000)).toEqual({ count: 1, resetAt: T0 + 2000 });
  await a.forget('k');
  expect(await b.current('k', T0 + 1001)).toBeUndefined();
  // Taking back the only event leaves nothing behind.
  await a.hit('u', T0);
  await b.undo('u');
  expect(await a.current('u', T0)).toBeUndefined();
}

describe('SharedWindowCounter', () => {
  it('two processes count in one window; undo and forget are seen by both', async () => {
    await windows(new SharedWindowCounter(one, 'fw1', 1000), new SharedWindowCounter(two, 'fw1', 1000));
  });

  it('parallel hits from both processes are each counted once', async () => {
    const a = new SharedWindowCounter(one, 'fw2', 60_000);
    const b = new SharedWindowCounter(two, 'fw2', 60_000);
    const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).hit('k')));
    expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('scopes keep their keys apart', async () => {
    const a = new SharedWindowCounter(one, 'fw3', 60_000);
    const b = new SharedWindowCounter(two, 'fw4', 60_000);
    expect(await a.hit('k')).toBe(1);
    expect(await b.hit('k')).toBe(1);
  });
});

describe('FixedWindowCounter', () => {
  it('answers as the shared counter does, in one process', async () => {
    const c = new FixedWindowCounter(1000);
    await windows(c, c);
  });
});
