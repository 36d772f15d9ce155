/**
 * `npm run backup` and `npm run restore`: the database together with the secret files beside it,
 * since the payOS keys in the one are readable only with the other.
 */
import Database from 'better-sqlite3';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { openDb } from '../db/client';
import { secretFile, type Config } from '../env';
import { secretOpensStoredKeys } from '../payos/secrets';

const SECRETS = ['app', 'jwt'] as const;

export interface Manifest {
  createdAt: string;
  database: string;
  secrets: string[];
  /** Secrets that came from the environment: not in the folder, to be kept with it by hand. */
  fromEnvironment: string[];
  /** Absent in SQLite backups (and every backup older than PostgreSQL support); 'postgresql': a pg_dump archive (backup/pg.ts). */
  engine?: 'postgresql';
}

export const stampOf = (d: Date) => d.toISOString().replace(/[:.]/g, '-');

export function privateCopy(from: string, to: string) {
  copyFileSync(from, to);
  chmodSync(to, 0o600);
}

function quickCheck(file: string) {
  const db = new Database(file, { fileMustExist: true });
  try {
    const result = db.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new Error(`${file} is damaged: ${String(result)}`);
  } finally {
    db.close();
  }
}

/**
 * SQLite's online backup (a consistent copy while the server keeps writing) plus the secret
 * files, into a new folder named after the time: `<root>/<ISO time>/`, 0700, files 0600.
 */
export async function backupDatabase(config: Config, root?: string, now = new Date()): Promise<{ dir: string; manifest: Manifest }> {
  const dbPath = config.DATABASE_PATH;
  if (dbPath === ':memory:' || !existsSync(dbPath)) throw new Error(`No database at ${dbPath}: nothing to back up`);
  const dir = resolve(root ?? join(dirname(dbPath), 'backups'), stampOf(now));
  if (existsSync(dir)) throw new Error(`${dir} already exists`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });

  const target = join(dir, basename(dbPath));
  const source = new Database(dbPath, { fileMustExist: true });
  try {
    await source.backup(target);
  } finally {
    source.close();
  }
  chmodSync(target, 0o600);
  quickCheck(target);

  const manifest: Manifest = { createdAt: now.toISOString(), database: basename(dbPath), secrets: [], fromEnvironment: [] };
  writeSecretsAndManifest(config, dir, manifest);
  return { dir, manifest };
}

/** The secret files beside DATABASE_PATH into the backup folder, then its manifest (both engines). */
export function writeSecretsAndManifest(config: Config, dir: string, manifest: Manifest) {
  for (const name of SECRETS) {
    if (config[name === 'app' ? 'APP_SECRET' : 'JWT_SECRET']) manifest.fromEnvironment.push(`${name.toUpperCase()}_SECRET`);
    const file = secretFile(config.DATABASE_PATH, name);
    if (!existsSync(file)) continue;
    privateCopy(file, join(dir, basename(file)));
    manifest.secrets.push(basename(file));
  }
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
}

/** Throws when another connection (a running server) has the database open. */
function assertNotInUse(dbPath: string) {
  if (!existsSync(dbPath)) return;
  const probe = new Database(dbPath, { fileMustExist: true, timeout: 0 });
  try {
    // An exclusive lock cannot be had while any other connection, in any process, has the file open in WAL mode.
    probe.pragma('locking_mode = EXCLUSIVE');
    probe.exec('BEGIN EXCLUSIVE; COMMIT');
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new Error(`${dbPath} is in use (is the server running?). Stop the server, then run the restore again.`, { cause: err });
    }
    throw err;
  } finally {
    probe.close();
  }
}

export interface RestoreResult {
  /** Where the files that were replaced were moved (nothing is deleted). */
  previousDir: string | null;
  restored: string[];
  /** False when the secret now in effect cannot open the restored payOS keys. */
  secretMatches: boolean;
}

/** A plain file name: no folder part, no `..`, not hidden. */
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * The manifest, trusted for nothing: the database may be any plain file name in the folder (the
 * source database's name), and the secrets only the two names a backup of this database writes,
 * since they are written beside the database under the name given.
 */
export function readManifest(
  from: string,
  dbPath: string,
): { database: string; secrets: { from: string; to: string }[]; engine: 'sqlite' | 'postgresql' } {
  const manifestFile = join(from, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${from} is not a backup folder (no manifest.json)`);
  let manifest: Partial<Manifest>;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Partial<Manifest>;
  } catch {
    throw new Error(`${manifestFile} is not valid JSON`);
  }
  const database = manifest?.database;
  if (typeof database !== 'string' || !PLAIN_NAME.test(database) || database === 'manifest.json') {
    throw new Error(
      `${manifestFile}: "database" must be the plain file name of the database in that folder, not ${JSON.stringify(database)}`,
    );
  }
  const known = new Map(SECRETS.map((n) => [basename(secretFile(dbPath, n)), secretFile(dbPath, n)]));
  const listed = manifest.secrets ?? [];
  if (!Array.isArray(listed)) throw new Error(`${manifestFile}: "secrets" must be a list of file names`);
  const secrets: { from: string; to: string }[] = [];
  for (const s of listed) {
    const to = typeof s === 'string' ? known.get(s) : undefined;
    if (!to || secrets.some((x) => x.to === to)) {
      throw new Error(`${manifestFile}: unknown secret file ${JSON.stringify(s)} (a backup holds only ${[...known.keys()].join(' and ')})`);
    }
    secrets.push({ from: join(from, s as string), to });
  }
  // Every file it lists must be there, as a plain file, before anything is touched.
  for (const f of [join(from, database), ...secrets.map((x) => x.from)]) {
    if (!existsSync(f)) throw new Error(`${f} is missing: the backup is incomplete, nothing was changed`);
    if (!lstatSync(f).isFile()) throw new Error(`${f} is not a plain file, nothing was changed`);
  }
  return { database: join(from, database), secrets, engine: manifest.engine === 'postgresql' ? 'postgresql' : 'sqlite' };
}

/**
 * Puts a backup folder's database and secret files in place. Everything is checked and copied
 * beside its target first (`*.restoring`); only then are the current files moved to
 * `before-restore-<time>/` beside the database and the copies renamed into place. A failure at
 * any step puts the previous files back, so the old state is left whole. Refuses while the
 * database is open elsewhere.
 */
export async function restoreDatabase(config: Config, fromDir: string, now = new Date()): Promise<RestoreResult> {
  const dbPath = resolve(config.DATABASE_PATH);
  if (config.DATABASE_PATH === ':memory:') throw new Error('DATABASE_PATH is :memory:, nothing to restore into');
  const from = resolve(fromDir);
  const manifest = readManifest(from, dbPath);
  if (manifest.engine !== 'sqlite') {
    throw new Error(`${from} is a PostgreSQL backup: set DATABASE_URL to the database to restore it into, nothing was changed`);
  }

  assertNotInUse(dbPath);
  mkdirSync(dirname(dbPath), { recursive: true, mode: 0o700 });
  const placements = [{ from: manifest.database, to: dbPath }, ...manifest.secrets].map((p) => ({ ...p, staged: `${p.to}.restoring` }));
  try {
    for (const p of placements) privateCopy(p.from, p.staged);
    // Checked on the copy beside the target, so a damaged backup changes nothing.
    quickCheck(placements[0]!.staged);
  } catch (err) {
    for (const p of placements) rmSync(p.staged, { force: true });
    throw err;
  }

  const replaced = [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, ...manifest.secrets.map((x) => x.to)].filter((f) => existsSync(f));
  const previousDir = replaced.length ? join(dirname(dbPath), `before-restore-${stampOf(now)}`) : null;
  const movedAside: string[] = [];
  const placed: string[] = [];
  let createdDir = false;
  try {
    if (previousDir) {
      mkdirSync(previousDir, { mode: 0o700 });
      createdDir = true;
    }
    for (const f of replaced) {
      renameSync(f, join(previousDir!, basename(f)));
      movedAside.push(f);
    }
    for (const p of placements) {
      renameSync(p.staged, p.to);
      placed.push(p.to);
    }
  } catch (err) {
    for (const f of placed) rmSync(f, { force: true });
    for (const f of movedAside) renameSync(join(previousDir!, basename(f)), f);
    for (const p of placements) rmSync(p.staged, { force: true });
    // Only when empty again: never a folder of earlier files.
    if (createdDir) rmdirSync(previousDir!);
    throw new Error(`Restore failed, the previous files are back in place: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }

  const appSecretFile = secretFile(dbPath, 'app');
  const secret = config.APP_SECRET ?? (existsSync(appSecretFile) ? readFileSync(appSecretFile, 'utf8').trim() : null);
  const db = openDb(dbPath);
  let secretMatches = true;
  try {
    secretMatches = await secretOpensStoredKeys(db, secret ?? '');
  } catch {
    // A backup older than the payments tables holds no keys.
  } finally {
    db.$client.close();
  }
  return { previousDir, restored: placed, secretMatches };
}
