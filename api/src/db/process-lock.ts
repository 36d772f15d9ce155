/**
 * One server process per database file. Rate limits, revoked token families, the verified-token
 * cache and the cached lists live in this process's memory (docs/scaling.md), so a second process
 * on the same file would silently disagree with the first. `<database>.lock` holds the owner's pid;
 * a lock whose process is gone (a crash) is taken over.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';

export class DatabaseLockedError extends Error {}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock of `dbPath` or throws DatabaseLockedError; returns the release function. */
export function lockDatabase(dbPath: string): () => void {
  if (dbPath === ':memory:') return () => {};
  const file = `${dbPath}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (alive(owner)) {
        throw new DatabaseLockedError(
          `Another server process (pid ${owner}) is already using ${dbPath}. This server keeps rate limits, ` +
            `revoked sessions and caches in memory, so only one process may serve a database file. Stop it first ` +
            `(or remove ${file} if that process is not a server of this app).`,
        );
      }
      unlinkSync(file);
    }
  }
  throw new DatabaseLockedError(`Could not take the lock ${file}`);
}
