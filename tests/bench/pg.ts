/**
 * The PostgreSQL side of `npm run bench` (issue 29 item 8): with DATABASE_URL=postgres://… the bench
 * database built in SQLite is copied into that database (api/src/backup/db-copy.ts, the same path as
 * `npm run db:copy`), and the server's CPU per response counts the PostgreSQL server's own processes
 * too: the postmaster's process tree (every backend, the checkpointer, WAL writer, autovacuum), found
 * from the pid in its data directory's postmaster.pid. Only that cluster's processes count, not every
 * process of the postgres user (other clusters on a shared machine would be billed to the bench).
 */
import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { MIX_CODES, SAMPLE, type Admin } from './mix';
import { copySqliteToPg } from '../../api/src/backup/db-copy';
import { openDb } from '../../api/src/db/client';
import { runMigrations } from '../../api/src/db/migrate';

export const isPostgresUrl = (url: string | undefined): url is string => !!url && /^postgres(ql)?:\/\//.test(url);

/** The URL of another database of the same cluster (same user, host, port and options). */
export function databaseUrl(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1)) || 'postgres';

async function withClient<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops the URL's database (closing its connections) and creates it empty, with collation C, through the cluster's `postgres` database. */
export async function recreateDatabase(url: string): Promise<void> {
  const name = pg.escapeIdentifier(databaseName(url));
  await withClient(databaseUrl(url, 'postgres'), async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C'`);
  });
}

/** Users in the database and whether the mix's first admin is among them; null when the database or its tables are missing. */
async function contents(url: string): Promise<{ users: number; mixAdmin: boolean } | null> {
  try {
    return await withClient(url, async (c) => {
      const { rows } = await c.query<{ users: string; mix: boolean; grants: string }>(
        `SELECT (SELECT count(*) FROM users) AS users, EXISTS (SELECT 1 FROM users WHERE email = 'mix0@bench.vn') AS mix,
          (SELECT count(*) FROM role_permissions rp JOIN roles r ON r.id = rp.role_id WHERE r.name = 'bench_mix_admin') AS grants`,
      );
      // The mix's role as the file has it now (tests/bench/mix.ts MIX_CODES): else the engines would answer differently.
      return { users: Number(rows[0]!.users), mixAdmin: rows[0]!.mix && Number(rows[0]!.grants) === MIX_CODES.length };
    });
  } catch {
    return null;
  }
}

/**
 * Makes the PostgreSQL database hold the SQLite bench database: with BENCH_REUSE=1 a database that
 * already holds as many users as the file, the mix's admins among them, is kept; otherwise it is
 * recreated and the file copied in. Returns the copy's seconds, or null when reused.
 */
export async function syncBenchDatabase(sqlitePath: string, url: string, reuse: boolean): Promise<number | null> {
  // A file built before the latest migrations (BENCH_REUSE) gets them first, as a server starting on it would: the copy wants every column.
  const migrated = openDb(sqlitePath);
  runMigrations(migrated);
  migrated.$client.close();
  if (reuse) {
    const have = await contents(url);
    const file = new Database(sqlitePath, { readonly: true });
    const want = (file.prepare('SELECT count(*) FROM users').pluck().get() as number) ?? 0;
    file.close();
    if (have && have.users === want && have.mixAdmin) return null;
  }
  await recreateDatabase(url);
  const t = performance.now();
  const summary = await copySqliteToPg(sqlitePath, url);
  const seconds = (performance.now() - t) / 1000;
  const rows = summary.tables.reduce((n, x) => n + x.rows, 0);
  const slowest = [...summary.tables].sort((a, b) => b.ms - a.ms).slice(0, 3);
  console.log(
    `copied ${sqlitePath} into PostgreSQL (copySqliteToPg): ${rows.toLocaleString('en')} rows in ${summary.tables.length} tables in ${seconds.toFixed(1)} s` +
      ` (slowest: ${slowest.map((t) => `${t.name} ${(t.ms / 1000).toFixed(1)} s`).join(', ')})`,
  );
  // Fresh statistics, as a running deployment's autovacuum would have them.
  await withClient(url, (c) => c.query('VACUUM ANALYZE'));
  return seconds;
}

/**
 * The admins with their users sampled again from the PostgreSQL database, as prepareMix samples the file:
 * a reused database's memberships part from the file's with each writes mix (each engine takes its own),
 * and a user sampled from the file but outside the admin's scope here is a cheap 404 instead of a detail.
 */
export async function sampleFromPg(url: string, admins: Admin[]): Promise<Admin[]> {
  return await withClient(url, async (c) => {
    const out: Admin[] = [];
    for (const a of admins) {
      const { rows } = await c.query<{ user_id: number }>(
        'SELECT user_id FROM organization_members WHERE organization_id = ANY($1::int[]) ORDER BY organization_id, id LIMIT $2',
        [a.orgs, SAMPLE],
      );
      out.push({ ...a, users: rows.map((r) => Number(r.user_id)) });
    }
    return out;
  });
}

/** The postmaster's pid, from postmaster.pid in the cluster's data directory, or a reason it cannot be counted. */
/** The server settings a figure depends on, for the bench's header: at 1M users the search's counts read as many heap pages as fit in shared_buffers or not. */
export async function serverSettings(url: string): Promise<string> {
  const names = ['server_version', 'shared_buffers', 'work_mem', 'effective_cache_size', 'max_connections'];
  const rows = await withClient(
    url,
    async (c) =>
      (
        await c.query<{ name: string; setting: string }>(
          'SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name = ANY($1) ORDER BY name',
          [names],
        )
      ).rows,
  );
  return rows.map((r) => `${r.name} ${r.setting}`).join(', ');
}

export async function postmasterPid(url: string): Promise<{ pid: number; from: string } | { why: string }> {
  try {
    const dataDir = await withClient(
      url,
      async (c) => (await c.query<{ data_directory: string }>('SHOW data_directory')).rows[0]!.data_directory,
    );
    const file = join(dataDir, 'postmaster.pid');
    if (!existsSync(file)) return { why: `${file} not readable here (a server on another machine?)` };
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    if (!pid || !existsSync(`/proc/${pid}`)) return { why: `postmaster pid ${pid} of ${file} is not a process here` };
    return { pid, from: file };
  } catch (e) {
    return { why: `cannot find the PostgreSQL server's pid: ${e instanceof Error ? e.message : String(e)}` };
  }
}
