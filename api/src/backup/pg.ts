/**
 * `npm run backup` / `npm run restore` with DATABASE_URL=postgres://… (issue 29 item 7): pg_dump's
 * custom format instead of SQLite's online copy, with the SQLite path's folder, names, modes,
 * manifest and checks (backup.ts). A restore replaces the database's schemas in one transaction,
 * after saving what it replaces; the secret files beside DATABASE_PATH travel as with SQLite.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { decryptSecret } from '../payos/crypto';
import { secretFile, type Config } from '../env';
import { privateCopy, readManifest, stampOf, writeSecretsAndManifest, type Manifest, type RestoreResult } from './backup';

const run = promisify(execFile);

/** The schemas the app's migrations create (api/drizzle-pg: freshness counters, figures); a restore drops and recreates exactly these. */
const APP_SCHEMAS = ['public', 'drizzle', 'freshness', 'figures'];

export { isPostgresUrl } from '../db/postgres';

/** Debian's newest PostgreSQL binaries (/usr/lib/postgresql/<major>/bin), else whatever PATH has. */
function pgTool(name: 'pg_dump' | 'pg_restore' | 'psql'): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((d) => /^\d+$/.test(d) && existsSync(join(root, d, 'bin', name)))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return majors.length ? join(root, majors[0]!, 'bin', name) : name;
}

/** The URL without its password, which goes to the tools through PGPASSWORD (not their command line, which `ps` shows). */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv; database: string } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || decodeURIComponent(u.username) || 'postgres';
  return { dbname: u.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) }, database };
}

async function tool(name: 'pg_dump' | 'pg_restore' | 'psql', args: string[], env: NodeJS.ProcessEnv) {
  try {
    return await run(pgTool(name), args, { env, maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`${name} failed${stderr ? `: ${stderr}` : ''}`, { cause: err });
  }
}

/** pg_dump -Fc of the whole database into `file` (0600), then read back by pg_restore --list: a damaged archive fails here. */
async function dumpTo(url: string, file: string) {
  const { dbname, env } = connection(url);
  await tool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, `--dbname=${dbname}`], env);
  await tool('pg_restore', ['--list', file], env);
}

export async function backupPg(config: Config, root?: string, now = new Date()): Promise<{ dir: string; manifest: Manifest }> {
  const url = config.DATABASE_URL!;
  const { database } = connection(url);
  const dir = resolve(root ?? join(dirname(config.DATABASE_PATH), 'backups'), stampOf(now));
  if (existsSync(dir)) throw new Error(`${dir} already exists`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = `${database.replace(/[^A-Za-z0-9_.-]/g, '_')}.pgdump`;
  const old = process.umask(0o077);
  try {
    await dumpTo(url, join(dir, name));
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  } finally {
    process.umask(old);
  }
  const manifest: Manifest = { createdAt: now.toISOString(), database: name, secrets: [], fromEnvironment: [], engine: 'postgresql' };
  writeSecretsAndManifest(config, dir, manifest);
  return { dir, manifest };
}

/** Refuses while another session (a running server) is connected to the database. */
async function assertNotInUse(client: pg.Client, database: string) {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
  );
  if (rows[0]!.n > 0) {
    throw new Error(
      `${database} is in use by ${rows[0]!.n} other connection(s) (is the server running?). Stop the server, then run the restore again.`,
    );
  }
}

async function secretOpensKeys(client: pg.Client, secret: string): Promise<boolean> {
  const { rows } = await client.query<{ enc: string }>(`SELECT api_key_enc AS enc FROM payos_configs LIMIT 1`).catch(() => ({ rows: [] }));
  if (!rows[0]) return true;
  try {
    decryptSecret(rows[0].enc, secret);
    return true;
  } catch {
    return false;
  }
}

/**
 * Puts a PostgreSQL backup folder in place: the archive is turned into SQL beside the data folder
 * first (a damaged archive changes nothing), the current database is dumped to
 * `before-restore-<time>/`, then one psql transaction drops the app's schemas and replays the
 * backup (any error: the database is as it was). The secret files are swapped afterwards, the
 * replaced ones moved to the same folder.
 */
export async function restorePg(config: Config, fromDir: string, now = new Date()): Promise<RestoreResult> {
  const url = config.DATABASE_URL!;
  const dbPath = resolve(config.DATABASE_PATH);
  const from = resolve(fromDir);
  const manifest = readManifest(from, dbPath);
  if (manifest.engine !== 'postgresql') {
    throw new Error(`${from} is a SQLite backup: unset DATABASE_URL to restore it into ${dbPath}, nothing was changed`);
  }
  const { dbname, env, database } = connection(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const dataDir = dirname(dbPath);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const previousDir = join(dataDir, `before-restore-${stampOf(now)}`);
  const script = join(dataDir, `restore-${stampOf(now)}.sql`);
  const staged = manifest.secrets.map((s) => ({ ...s, staged: `${s.to}.restoring` }));
  const old = process.umask(0o077);
  try {
    await assertNotInUse(client, database);
    await tool('pg_restore', ['--no-owner', '--no-privileges', `--file=${script}`, manifest.database], env);
    for (const s of staged) privateCopy(s.from, s.staged);
    mkdirSync(previousDir, { mode: 0o700 });
    await dumpTo(url, join(previousDir, basename(manifest.database)));
    const drops = APP_SCHEMAS.map((s) => `DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(s)} CASCADE;`).join(' ');
    await tool(
      'psql',
      [
        '--no-psqlrc',
        '--quiet',
        '--single-transaction',
        '--set=ON_ERROR_STOP=1',
        `--dbname=${dbname}`,
        '-c',
        `${drops} CREATE SCHEMA public;`,
        '-f',
        script,
      ],
      env,
    );
  } catch (err) {
    for (const s of staged) rmSync(s.staged, { force: true });
    rmSync(previousDir, { recursive: true, force: true });
    await client.end();
    throw new Error(`Restore failed, the database is as it was: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  } finally {
    rmSync(script, { force: true });
    process.umask(old);
  }

  const restored = [`${database} (PostgreSQL)`];
  for (const s of staged) {
    if (existsSync(s.to)) renameSync(s.to, join(previousDir, basename(s.to)));
    renameSync(s.staged, s.to);
    restored.push(s.to);
  }
  const appSecretFile = secretFile(dbPath, 'app');
  const secret = config.APP_SECRET ?? (existsSync(appSecretFile) ? readFileSync(appSecretFile, 'utf8').trim() : '');
  try {
    return { previousDir, restored, secretMatches: await secretOpensKeys(client, secret) };
  } finally {
    await client.end();
  }
}
