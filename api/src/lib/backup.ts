/**
 * `npm run backup` and `npm run restore`: the database together with the secret files beside it,
 * since the payOS keys in the one are readable only with the other.
 */
import Database from 'better-sqlite3';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { openDb } from '../db/client';
import { secretFile, type Config } from '../env';
import { secretOpensStoredKeys } from './secrets';

const SECRETS = ['app', 'jwt'] as const;

export interface Manifest {
  createdAt: string;
  database: string;
  secrets: string[];
  /** Secrets that came from the environment: not in the folder, to be kept with it by hand. */
  fromEnvironment: string[];
}

const stampOf = (d: Date) => d.toISOString().replace(/[:.]/g, '-');

function privateCopy(from: string, to: string) {
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
  for (const name of SECRETS) {
    if (config[name === 'app' ? 'APP_SECRET' : 'JWT_SECRET']) manifest.fromEnvironment.push(`${name.toUpperCase()}_SECRET`);
    const file = secretFile(dbPath, name);
    if (!existsSync(file)) continue;
    privateCopy(file, join(dir, basename(file)));
    manifest.secrets.push(basename(file));
  }
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return { dir, manifest };
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

/**
 * Puts a backup folder's database and secret files in place. Refuses while the database is open
 * elsewhere; the files it replaces are moved to `before-restore-<time>/` beside the database.
 */
export function restoreDatabase(config: Config, fromDir: string, now = new Date()): RestoreResult {
  const dbPath = config.DATABASE_PATH;
  if (dbPath === ':memory:') throw new Error('DATABASE_PATH is :memory:, nothing to restore into');
  const from = resolve(fromDir);
  const manifestFile = join(from, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${from} is not a backup folder (no manifest.json)`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const backupDb = join(from, manifest.database);
  if (!existsSync(backupDb)) throw new Error(`${backupDb} is missing`);

  assertNotInUse(dbPath);
  mkdirSync(dirname(dbPath), { recursive: true, mode: 0o700 });
  // Checked on a copy beside the target, so a damaged backup changes nothing.
  const incoming = `${dbPath}.restoring`;
  privateCopy(backupDb, incoming);
  try {
    quickCheck(incoming);
  } catch (err) {
    rmSync(incoming, { force: true });
    throw err;
  }

  const replaced = [dbPath, `${dbPath}-wal`, `${dbPath}-shm`];
  for (const s of manifest.secrets) replaced.push(join(dirname(dbPath), s));
  const present = replaced.filter((f) => existsSync(f));
  let previousDir: string | null = null;
  if (present.length) {
    previousDir = join(dirname(dbPath), `before-restore-${stampOf(now)}`);
    mkdirSync(previousDir, { mode: 0o700 });
    for (const f of present) renameSync(f, join(previousDir, basename(f)));
  }
  renameSync(incoming, dbPath);
  const restored = [dbPath];
  for (const s of manifest.secrets) {
    privateCopy(join(from, s), join(dirname(dbPath), s));
    restored.push(join(dirname(dbPath), s));
  }

  const appSecretFile = secretFile(dbPath, 'app');
  const secret = config.APP_SECRET ?? (existsSync(appSecretFile) ? readFileSync(appSecretFile, 'utf8').trim() : null);
  const db = openDb(dbPath);
  let secretMatches = true;
  try {
    secretMatches = secretOpensStoredKeys(db, secret ?? '');
  } catch {
    // A backup older than the payments tables holds no keys.
  } finally {
    db.$client.close();
  }
  return { previousDir, restored, secretMatches };
}
