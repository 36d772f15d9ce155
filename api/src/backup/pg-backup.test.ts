/**
 * `npm run backup` / `npm run restore` with DATABASE_URL=postgres://… on a real PostgreSQL 15
 * server (test/pg-cluster.ts): a deleted row comes back; a restore is refused while another
 * session is connected, and a damaged archive or a SQLite backup changes nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../env';
import { comparisonUnavailable, startPgCluster, type PgCluster } from '../test/pg-server';
import { PG_MIGRATIONS_FOLDER } from '../db/migrate';

const missing = comparisonUnavailable();
if (missing) console.warn(`Skipping the PostgreSQL backup test: ${missing}`);

describe.skipIf(missing)('backup and restore on PostgreSQL', () => {
  let cluster: PgCluster;
  let dir: string;
  let url: string;
  let backupDir: string;

  const script = (name: 'backup' | 'restore', arg: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', resolve(REPO_ROOT, `scripts/${name}.mjs`), arg], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: url, DATABASE_PATH: join(dir, 'data', 'app.db'), SEED_DEMO: 'false' },
      encoding: 'utf8',
      timeout: 60_000,
    });

  async function query<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  }
  const emails = async () => (await query<{ email: string }>(`SELECT email FROM users ORDER BY id`)).map((r) => r.email);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doanhoi-pgbackup-'));
    cluster = await startPgCluster();
    url = await cluster.createDatabase('backup_test');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await migrate(drizzle({ client, casing: 'snake_case' }), { migrationsFolder: PG_MIGRATIONS_FOLDER });
    await client.query(
      `INSERT INTO users (code, family_name, given_name, email, created_at, updated_at)
       VALUES ('a', 'Nguyễn', 'An', 'an@x.vn', 0, 0), ('b', 'Trần', 'Bình', 'binh@x.vn', 0, 0)`,
    );
    await client.end();
    const data = join(dir, 'data');
    spawnSync('mkdir', ['-p', data]);
    writeFileSync(join(data, 'app.secret'), 'a'.repeat(64), { mode: 0o600 });
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('backs up with pg_dump into a timed folder, 0700 with 0600 files, beside the secret files', () => {
    const result = script('backup', join(dir, 'backups'));
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const [stamp] = readdirSync(join(dir, 'backups'));
    backupDir = join(dir, 'backups', stamp!);
    expect(result.stdout).toContain(`Backup written to ${backupDir}`);
    const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ engine: 'postgresql', database: 'backup_test.pgdump', secrets: ['app.secret'] });
    expect(statSync(backupDir).mode & 0o777).toBe(0o700);
    for (const f of ['backup_test.pgdump', 'app.secret', 'manifest.json']) expect(statSync(join(backupDir, f)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(backupDir, 'backup_test.pgdump')).subarray(0, 5).toString()).toBe('PGDMP');
  });

  it('brings a deleted row back, keeping what it replaced', async () => {
    await query(`DELETE FROM users WHERE email = 'binh@x.vn'`);
    expect(await emails()).toEqual(['an@x.vn']);
    const result = script('restore', backupDir);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(await emails()).toEqual(['an@x.vn', 'binh@x.vn']);
    const before = readdirSync(join(dir, 'data')).find((f) => f.startsWith('before-restore-'));
    expect(before).toBeDefined();
    expect(readdirSync(join(dir, 'data', before!)).sort()).toEqual(['app.secret', 'backup_test.pgdump']);
    // The identity continues after the restored ids.
    const [row] = await query<{ id: number }>(
      `INSERT INTO users (code, family_name, given_name, email, created_at, updated_at) VALUES ('c', 'Lê', 'Chi', 'chi@x.vn', 0, 0) RETURNING id`,
    );
    expect(row!.id).toBe(3);
    await query(`DELETE FROM users WHERE id = 3`);
  }, 60_000);

  it('refuses while the server (another session) is connected, and changes nothing', async () => {
    await query(`DELETE FROM users WHERE email = 'binh@x.vn'`);
    const server = new pg.Client({ connectionString: url });
    await server.connect();
    try {
      const result = script('restore', backupDir);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/in use by 1 other connection\(s\) \(is the server running\?\)/);
    } finally {
      await server.end();
    }
    expect(await emails()).toEqual(['an@x.vn']);
  }, 60_000);

  it('refuses a damaged archive and a SQLite backup before touching the database', async () => {
    const damaged = join(dir, 'damaged');
    spawnSync('cp', ['-r', backupDir, damaged]);
    writeFileSync(join(damaged, 'backup_test.pgdump'), readFileSync(join(backupDir, 'backup_test.pgdump')).subarray(0, 200));
    let result = script('restore', damaged);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Restore failed, the database is as it was: pg_restore failed/);
    expect(await emails()).toEqual(['an@x.vn']);

    const sqlite = join(dir, 'sqlite-backup');
    spawnSync('mkdir', ['-p', sqlite]);
    writeFileSync(join(sqlite, 'app.db'), '');
    writeFileSync(join(sqlite, 'manifest.json'), JSON.stringify({ createdAt: 'x', database: 'app.db', secrets: [], fromEnvironment: [] }));
    result = script('restore', sqlite);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/is a SQLite backup: unset DATABASE_URL/);
    expect(await emails()).toEqual(['an@x.vn']);
    expect(readdirSync(join(dir, 'data')).filter((f) => f.endsWith('.restoring') || f.endsWith('.sql'))).toEqual([]);
    expect(existsSync(join(dir, 'data', 'app.db'))).toBe(false);
  }, 60_000);
});
