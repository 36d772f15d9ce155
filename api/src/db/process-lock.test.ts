import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseLockedError, lockDatabase } from './process-lock';

const dirs: string[] = [];
const dbFile = () => {
  dirs.push(mkdtempSync(join(tmpdir(), 'doanhoi-lock-')));
  return join(dirs.at(-1)!, 'app.db');
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('lockDatabase', () => {
  it('refuses a second server on the same database file with a clear message, and frees the file on release', async () => {
    const db = dbFile();
    // Another live process holds the lock.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      writeFileSync(`${db}.lock`, String(other.pid));
      expect(() => lockDatabase(db)).toThrow(DatabaseLockedError);
      expect(() => lockDatabase(db)).toThrow(`Another server process (pid ${other.pid}) is already using ${db}`);
    } finally {
      other.kill();
      await new Promise((r) => other.once('exit', r));
    }
    // Its process is gone (a crash): the lock is taken over.
    const release = lockDatabase(db);
    expect(readFileSync(`${db}.lock`, 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(`${db}.lock`)).toBe(false);
  });

  it('does not lock an in-memory database', () => {
    expect(() => lockDatabase(':memory:')()).not.toThrow();
  });
});
