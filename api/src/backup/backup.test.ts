/** Backups, restores, file modes and the app-secret check at start (security issue item 8). */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../db/client';
import { runMigrations } from '../db/migrate';
import { loadConfig, loadEnv, REPO_ROOT, type Env } from '../env';
import { payosConfigs } from '../db/tables/payments';
import { encryptSecret } from '../payos/crypto';
import { backupDatabase, restoreDatabase } from './backup';
import { checkAppSecret } from '../payos/secrets';
import { allRows, runQuery } from '../db/engine';

// About the SQLite file itself (locks, WAL, file backups): not run again in the TEST_ENGINE=pg pass.
const SQLITE_FILE_ONLY = process.env.TEST_ENGINE === 'pg';

let dir: string;
let dbPath: string;
const source = () => ({ DATABASE_PATH: dbPath, SEED_DEMO: 'false', ADMIN_PASSWORD: 'admin123' });
const mode = (f: string) => (statSync(f).mode & 0o777).toString(8);

/** A database as a running server leaves it: migrated, open, with an encrypted payOS key. */
async function serverDb(env: Env): Promise<Db> {
  const db = openDb(env.DATABASE_PATH);
  runMigrations(db);
  db.$client.pragma('foreign_keys = OFF');
  await runQuery(
    db.insert(payosConfigs).values({
      campaignId: 1,
      organizationId: 1,
      clientId: 'client',
      apiKeyEnc: encryptSecret('api-key-1234', env.appSecret),
      checksumKeyEnc: encryptSecret('sum', env.appSecret),
    }),
  );
  return db;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'doanhoi-backup-'));
  dbPath = join(dir, 'data', 'app.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(SQLITE_FILE_ONLY)('files at rest', () => {
  it('the database, its WAL and shared memory, and the generated secrets are 0600 (an old 0644 database is tightened)', async () => {
    const env = loadEnv(source());
    const db = await serverDb(env);
    for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, join(dir, 'data/app.secret'), join(dir, 'data/jwt.secret')])
      expect([f, mode(f)]).toEqual([f, '600']);
    db.$client.close();
    spawnSync('chmod', ['644', dbPath]);
    openDb(dbPath).$client.close();
    expect(mode(dbPath)).toBe('600');
  });
});

describe.skipIf(SQLITE_FILE_ONLY)('app secret check at start', () => {
  it('passes with the secret that encrypted the payOS keys, and when no keys are stored', async () => {
    const env = loadEnv(source());
    const db = await serverDb(env);
    expect(await checkAppSecret(db, env, join(dir, 'data/app.secret'))).toBeNull();
    await runQuery(db.delete(payosConfigs));
    expect(await checkAppSecret(db, { ...env, appSecret: 'another-secret-0123456789' }, join(dir, 'data/app.secret'))).toBeNull();
    db.$client.close();
  });

  it('a missing app.secret: refused with what to do, and the secret generated meanwhile is removed again', async () => {
    (await serverDb(loadEnv(source()))).$client.close();
    const file = join(dir, 'data/app.secret');
    rmSync(file);
    const env = loadEnv(source());
    expect(existsSync(file)).toBe(true);
    const db = openDb(dbPath);
    const message = await checkAppSecret(db, env, file);
    db.$client.close();
    expect(message).toContain(`${file} is missing`);
    expect(message).toContain('npm run restore');
    expect(existsSync(file)).toBe(false);
  });

  it('another app.secret or APP_SECRET: refused, the file is left alone', async () => {
    (await serverDb(loadEnv(source()))).$client.close();
    const file = join(dir, 'data/app.secret');
    writeFileSync(file, 'f'.repeat(64));
    const db = openDb(dbPath);
    expect(await checkAppSecret(db, loadEnv(source()), file)).toContain('is not the secret that encrypted them');
    expect(await checkAppSecret(db, loadEnv({ ...source(), APP_SECRET: 'x'.repeat(32) }), file)).toContain('APP_SECRET');
    db.$client.close();
    expect(readFileSync(file, 'utf8')).toBe('f'.repeat(64));
  });

  it('the server itself refuses to start (exit 1, message on stderr) instead of answering 500 later', async () => {
    (await serverDb(loadEnv(source()))).$client.close();
    rmSync(join(dir, 'data/app.secret'));
    const run = spawnSync(process.execPath, ['--import', 'tsx', resolve(REPO_ROOT, 'api/src/index.ts')], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...source(), PORT: '0', HOST: '127.0.0.1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Refusing to start');
    expect(run.stdout).not.toContain('is running at');
  }, 60_000);
});

describe.skipIf(SQLITE_FILE_ONLY)('backup and restore', () => {
  it('backs up a database in use (its latest writes included) with the secrets, into a dated private folder', async () => {
    const env = loadEnv(source());
    const db = await serverDb(env);
    const { dir: out, manifest } = await backupDatabase(loadConfig(source()), join(dir, 'bk'), new Date('2026-11-23T15:00:00Z'));
    db.$client.close();
    expect(out).toBe(join(dir, 'bk', '2026-11-23T15-00-00-000Z'));
    expect(mode(out)).toBe('700');
    expect(readdirSync(out).sort()).toEqual(['app.db', 'app.secret', 'jwt.secret', 'manifest.json']);
    for (const f of readdirSync(out)) expect(mode(join(out, f))).toBe('600');
    expect(manifest.secrets).toEqual(['app.secret', 'jwt.secret']);
    expect(readFileSync(join(out, 'app.secret'), 'utf8')).toBe(env.appSecret);
    const copy = openDb(join(out, 'app.db'));
    expect(await allRows(copy.select().from(payosConfigs))).toHaveLength(1);
    copy.$client.close();
  });

  it('restore refuses while the server (another process) has the database open, and changes nothing', async () => {
    (await serverDb(loadEnv(source()))).$client.close();
    const { dir: out } = await backupDatabase(loadConfig(source()), join(dir, 'bk'));
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const D=require(${JSON.stringify(require.resolve('better-sqlite3'))}); const d=new D(${JSON.stringify(dbPath)}); d.pragma('journal_mode = WAL'); d.prepare('select 1').get(); console.log('open'); setInterval(()=>{}, 1000)`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise((ok) => holder.stdout!.once('data', ok));
      await expect(restoreDatabase(loadConfig(source()), out)).rejects.toThrow(/in use \(is the server running\?\)/);
      expect(readdirSync(join(dir, 'data')).some((f) => f.startsWith('before-restore') || f.endsWith('.restoring'))).toBe(false);
    } finally {
      holder.kill();
    }
  });

  it('restore puts the database and its secret back; the replaced files are kept aside; the server check then passes', async () => {
    const env = loadEnv(source());
    (await serverDb(env)).$client.close();
    const { dir: out } = await backupDatabase(loadConfig(source()), join(dir, 'bk'));
    // Disaster: keys deleted and the secret replaced.
    const db = openDb(dbPath);
    await runQuery(db.delete(payosConfigs));
    db.$client.close();
    writeFileSync(join(dir, 'data/app.secret'), 'lost');

    const result = await restoreDatabase(loadConfig(source()), out);
    expect(result.secretMatches).toBe(true);
    expect(readFileSync(join(dir, 'data/app.secret'), 'utf8')).toBe(env.appSecret);
    expect(readFileSync(join(result.previousDir!, 'app.secret'), 'utf8')).toBe('lost');
    expect(mode(dbPath)).toBe('600');
    const restored = openDb(dbPath);
    expect(await allRows(restored.select().from(payosConfigs))).toHaveLength(1);
    expect(await checkAppSecret(restored, loadEnv(source()), join(dir, 'data/app.secret'))).toBeNull();
    restored.$client.close();
  });

  it('npm run backup and npm run restore work from the command line', async () => {
    (await serverDb(loadEnv(source()))).$client.close();
    const cli = (script: string, ...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', resolve(REPO_ROOT, 'scripts', script), ...args], {
        cwd: REPO_ROOT,
        env: { ...process.env, ...source() },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const backup = cli('backup.mjs', join(dir, 'bk'));
    expect(backup.status).toBe(0);
    expect(backup.stdout).toContain('Backup written to');
    const folder = readdirSync(join(dir, 'bk'))[0]!;
    const restore = cli('restore.mjs', join(dir, 'bk', folder));
    expect(restore.stderr).toBe('');
    expect(restore.status).toBe(0);
    expect(restore.stdout).toContain('Restored');
  }, 60_000);
});
