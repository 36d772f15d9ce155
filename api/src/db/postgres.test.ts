/**
 * The app's PostgreSQL sessions run without JIT (postgres.ts sessionOptions): the figure functions'
 * estimates would otherwise have a server at its defaults compile for seconds during an import.
 * A URL that carries its own `options` is left to them.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, TEST_ENGINE, type TestApp } from '../test/harness';
import { sqlGet, withTransaction } from './engine';
import { closePgDb, openPgDb, pgPoolOf, sessionOptions } from './postgres';

it('sends jit=off unless the URL names its own options', () => {
  expect(sessionOptions('postgres://app@db.example:5432/doanhoi')).toBe('-c jit=off');
  expect(sessionOptions('postgres://app@db.example/doanhoi?sslmode=require&options=-c%20jit%3Don')).toBeUndefined();
  // An empty one sends none (node-postgres skips an empty startup option): a PgBouncer that refuses `options` accepts it.
  expect(sessionOptions('postgres://app@db.example/doanhoi?options=')).toBeUndefined();
});

describe.skipIf(TEST_ENGINE !== 'pg')('the app’s PostgreSQL sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });

  it('have JIT off, in and out of a transaction', async () => {
    expect((await sqlGet<{ jit: string }>(t.db, sql`SHOW jit`)).jit).toBe('off');
    const inside = await withTransaction(t.db, async (tx) => (await sqlGet<{ jit: string }>(tx, sql`SHOW jit`)).jit);
    expect(inside).toBe('off');
  });

  it('connect with an empty options of the URL, and then run at the server’s own setting', async () => {
    const url = pgPoolOf(t.db)!.options.connectionString!;
    const own = openPgDb(`${url}${url.includes('?') ? '&' : '?'}options=`, { max: 1 });
    try {
      expect((await sqlGet<{ jit: string }>(own, sql`SHOW jit`)).jit).toBe('on');
    } finally {
      await closePgDb(own);
    }
  });
});
