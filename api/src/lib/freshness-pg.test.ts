/**
 * The cache versions on PostgreSQL (lib/freshness.ts pgVersions): a request uses any versions read
 * sent since it began, so twenty concurrent requests share reads, and never one sent before it
 * began, so a commit another process made before the request is always seen. The other process is
 * a plain connection here: a write through this process would be noticed by its write count alone.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departments } from '../db/tables/departments';
import { count } from 'drizzle-orm';
import { firstRow } from '../db/engine';
import { closePgDb, pgPoolOf } from '../db/postgres';
import { makeTestApp, TEST_ENGINE, type TestApp } from '../test/harness';
import { freshCache, inReadEpoch } from './freshness';

const VERSIONS = 'SELECT name, version FROM freshness.versions';

describe.skipIf(TEST_ENGINE !== 'pg')('cache versions on PostgreSQL', () => {
  let app: TestApp;
  let other: pg.Client;
  let reads = 0;

  beforeAll(async () => {
    app = await makeTestApp();
    const pool = pgPoolOf(app.db)!;
    const query = pool.query.bind(pool) as (...a: unknown[]) => unknown;
    (pool as unknown as { query: (...a: unknown[]) => unknown }).query = (...a: unknown[]) => {
      if ((a[0] as { text?: string }).text === VERSIONS) reads++;
      return query(...a);
    };
    other = new pg.Client({ connectionString: (pool as unknown as { options: { connectionString: string } }).options.connectionString });
    await other.connect();
  });

  afterAll(async () => {
    await other?.end();
    if (app) await closePgDb(app.db);
  });

  const departmentCount = async () => (await firstRow(app.db.select({ n: count() }).from(departments)))!.n;
  let code = 0;
  const addDepartment = () =>
    other.query("INSERT INTO departments (code, name, search_text, created_at, updated_at) VALUES ($1, 'K', '', 0, 0)", [`K${++code}`]);

  it('reads the versions once for a request, across its awaits and other requests arriving meanwhile', async () => {
    const cache = freshCache<number>(10, ['departments']);
    await inReadEpoch(async () => {
      const before = reads;
      await cache.get(app.db, 'n', departmentCount);
      await new Promise((r) => setTimeout(r, 5));
      await inReadEpoch(async () => {}); // another request begins
      await cache.get(app.db, 'n', departmentCount);
      expect(reads - before).toBe(1);
    });
  });

  it('shares one read among requests that all began before it was sent', async () => {
    const cache = freshCache<number>(10, ['departments']);
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    // Ten requests arrive, then each asks for the versions: the first one's read serves all ten.
    const requests = Array.from({ length: 10 }, () =>
      inReadEpoch(async () => {
        await gate;
        return cache.get(app.db, 'n', departmentCount);
      }),
    );
    const before = reads;
    release();
    await Promise.all(requests);
    expect(reads - before).toBe(1);
  });

  it('sends one read at the end of the turn for every request that arrived in it', async () => {
    const cache = freshCache<number>(10, ['departments']);
    const before = reads;
    // Six requests arrive in one turn of the event loop: one read, sent after all of them began.
    await Promise.all(Array.from({ length: 6 }, () => inReadEpoch(() => cache.get(app.db, 'n', departmentCount))));
    expect(reads - before).toBe(1);
  });

  it('keeps one read in flight: requests that begin after it was sent share the next one, sent when it answers', async () => {
    const cache = freshCache<number>(10, ['departments']);
    const before = reads;
    const first = inReadEpoch(() => cache.get(app.db, 'n', departmentCount));
    // The turn ends and the first request's read is sent; five requests begin while it is on its way.
    await new Promise((r) => setImmediate(r));
    expect(reads - before).toBe(1);
    const later = Array.from({ length: 5 }, () => inReadEpoch(() => cache.get(app.db, 'n', departmentCount)));
    await Promise.all([first, ...later]);
    expect(reads - before).toBe(2);
  });

  it('sees a commit made in the turn a request began, before its read was sent', async () => {
    const cache = freshCache<number>(10, ['departments']);
    const start = await inReadEpoch(() => cache.get(app.db, 'n', departmentCount));
    // Another process commits; then, in one turn, two requests begin: both see it.
    await addDepartment();
    const [a, b] = await Promise.all([
      inReadEpoch(() => cache.get(app.db, 'n', departmentCount)),
      inReadEpoch(() => cache.get(app.db, 'n', departmentCount)),
    ]);
    expect([a, b]).toEqual([start + 1, start + 1]);
  });

  it('sees a commit made before the request began, although a read sent earlier is still in flight', async () => {
    const cache = freshCache<number>(10, ['departments']);
    const start = await inReadEpoch(() => cache.get(app.db, 'n', departmentCount));
    for (let round = 0; round < 5; round++) {
      // A request whose read is on its way…
      const earlier = inReadEpoch(() => cache.get(app.db, 'n', departmentCount));
      // …another process commits…
      await addDepartment();
      // …and a request that begins now sees it.
      expect(await inReadEpoch(() => cache.get(app.db, 'n', departmentCount))).toBe(start + round + 1);
      await earlier;
    }
  });
});
