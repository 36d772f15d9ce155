/**
 * `npm run restore` on crafted backup folders (issue 25 item 17): a manifest naming `../` files
 * must not reach outside the data folder, a listed file that is missing must not swap the
 * database in first, and any refusal leaves the previous files exactly as they were.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, REPO_ROOT } from '../env';
import { restoreDatabase } from './backup';

// About the SQLite file itself (locks, WAL, file backups): not run again in the TEST_ENGINE=pg pass.
const SQLITE_FILE_ONLY = process.env.TEST_ENGINE === 'pg';

let dir: string;
let data: string;
let bk: string;

/** A SQLite file holding one marker, to tell which database is in place. */
function markedDb(file: string, marker: string) {
  const db = new Database(file);
  db.exec(`CREATE TABLE marker (v TEXT); INSERT INTO marker VALUES ('${marker}')`);
  db.close();
}
const markerOf = (file: string) => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare('SELECT v FROM marker').get() as { v: string }).v;
  } finally {
    db.close();
  }
};

function restore(folder: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', resolve(REPO_ROOT, 'scripts/restore.mjs'), folder], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_PATH: join(data, 'app.db'),
      SEED_DEMO: 'false',
      ADMIN_PASSWORD: 'admin123',
      APP_SECRET: 'x'.repeat(32),
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/** A backup folder with a valid database and these manifest fields and files. */
function crafted(manifest: Record<string, unknown> | string, files: Record<string, string> = {}) {
  rmSync(bk, { recursive: true, force: true });
  mkdirSync(bk, { recursive: true });
  markedDb(join(bk, 'app.db'), 'from-backup');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(bk, name), text);
  writeFileSync(
    join(bk, 'manifest.json'),
    typeof manifest === 'string'
      ? manifest
      : JSON.stringify({ createdAt: '2026-01-01T00:00:00Z', database: 'app.db', secrets: [], fromEnvironment: [], ...manifest }),
  );
}

/** The data folder is exactly as it was: the old database and secret, nothing moved aside or staged. */
function untouched() {
  expect(markerOf(join(data, 'app.db'))).toBe('current');
  expect(readFileSync(join(data, 'jwt.secret'), 'utf8')).toBe('current-jwt');
  expect(readdirSync(data).sort()).toEqual(['app.db', 'jwt.secret']);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'doanhoi-restore-'));
  data = join(dir, 'data');
  bk = join(dir, 'backups', 'crafted');
  mkdirSync(data);
  markedDb(join(data, 'app.db'), 'current');
  writeFileSync(join(data, 'jwt.secret'), 'current-jwt');
  writeFileSync(join(dir, 'victim.txt'), 'precious');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(SQLITE_FILE_ONLY)('npm run restore on a crafted backup folder', () => {
  it('a secret named ../victim.txt: refused, the file outside the data folder and the data folder untouched', () => {
    // join(backup, '../victim.txt') is backups/victim.txt; join(data, '../victim.txt') would be <dir>/victim.txt.
    crafted({ secrets: ['../victim.txt'] });
    writeFileSync(join(dir, 'backups', 'victim.txt'), 'attacker');
    const run = restore(bk);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('unknown secret file "../victim.txt"');
    expect(readFileSync(join(dir, 'victim.txt'), 'utf8')).toBe('precious');
    untouched();
  }, 60_000);

  it('a database named with ../ or an absolute path: refused, nothing changed', () => {
    for (const database of ['../victim.txt', '/etc/hostname', '.hidden.db']) {
      crafted({ database });
      const run = restore(bk);
      expect([database, run.status]).toEqual([database, 1]);
      expect(run.stderr).toContain('"database" must be the plain file name');
      untouched();
    }
  }, 60_000);

  it('a listed secret missing from the folder: refused before the database is swapped in', () => {
    crafted({ secrets: ['app.secret', 'jwt.secret'] }, { 'app.secret': 'backup-app' });
    const run = restore(bk);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('jwt.secret is missing: the backup is incomplete, nothing was changed');
    untouched();
  }, 60_000);

  it('a secret that is a symbolic link, or a manifest that is not JSON: refused, nothing changed', () => {
    crafted({ secrets: ['jwt.secret'] });
    symlinkSync(join(dir, 'victim.txt'), join(bk, 'jwt.secret'));
    const linked = restore(bk);
    expect(linked.status).toBe(1);
    expect(linked.stderr).toContain('is not a plain file');
    untouched();
    writeFileSync(join(bk, 'manifest.json'), '{ not json');
    const broken = restore(bk);
    expect(broken.status).toBe(1);
    expect(broken.stderr).toContain('manifest.json is not valid JSON');
    untouched();
  }, 60_000);

  it('a damaged database in the backup: refused, nothing changed', () => {
    crafted({ secrets: ['jwt.secret'] }, { 'jwt.secret': 'backup-jwt' });
    writeFileSync(join(bk, 'app.db'), 'SQLite format 3\0 but not really');
    const run = restore(bk);
    expect(run.status).toBe(1);
    untouched();
  }, 60_000);

  it('a well-formed folder is restored, the previous files kept aside', () => {
    crafted({ secrets: ['jwt.secret'] }, { 'jwt.secret': 'backup-jwt' });
    const run = restore(bk);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(markerOf(join(data, 'app.db'))).toBe('from-backup');
    expect(readFileSync(join(data, 'jwt.secret'), 'utf8')).toBe('backup-jwt');
    const aside = readdirSync(data).find((f) => f.startsWith('before-restore-'))!;
    expect(readFileSync(join(data, aside, 'jwt.secret'), 'utf8')).toBe('current-jwt');
    expect(markerOf(join(data, aside, 'app.db'))).toBe('current');
    expect(existsSync(join(dir, 'victim.txt'))).toBe(true);
  }, 60_000);

  it('a failure while swapping (the folder for the replaced files cannot be made) puts everything back', async () => {
    crafted({ secrets: ['jwt.secret'] }, { 'jwt.secret': 'backup-jwt' });
    const now = new Date('2026-11-23T15:00:00Z');
    const taken = join(data, 'before-restore-2026-11-23T15-00-00-000Z');
    writeFileSync(taken, 'a file where the folder would go');
    const config = loadConfig({
      DATABASE_PATH: join(data, 'app.db'),
      SEED_DEMO: 'false',
      ADMIN_PASSWORD: 'admin123',
      APP_SECRET: 'x'.repeat(32),
    });
    await expect(restoreDatabase(config, bk, now)).rejects.toThrow(/Restore failed, the previous files are back in place/);
    rmSync(taken);
    untouched();
  });
});
