/**
 * Two connections to one fresh database, as two API processes of a deployment have: two SQLite
 * connections to one file, or (TEST_ENGINE=pg) two pools on one PostgreSQL database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb, type Db } from '../db/client';
import { runMigrations } from '../db/migrate';
import { closePgDb, isPg } from '../db/postgres';
import { makeTestApp, TEST_ENGINE } from '../test/harness';

export async function twoConnections(): Promise<{ one: Db; two: Db; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'doanhoi-two-'));
  const file = join(dir, 'app.db');
  let one: Db;
  let two: Db;
  if (TEST_ENGINE === 'pg') {
    // The harness names one database per path: both apps open pools on it.
    one = (await makeTestApp({}, file)).db;
    two = (await makeTestApp({}, file)).db;
  } else {
    one = openDb(file);
    runMigrations(one);
    two = openDb(file);
  }
  return {
    one,
    two,
    async close() {
      for (const db of [one, two]) await (isPg(db) ? closePgDb(db) : db.$client.close());
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
