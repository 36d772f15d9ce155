/**
 * One deployment per database file: the single server process, or a cluster's primary holding it
 * for all its workers (WEB_CONCURRENCY, api/src/cluster/). Two separate `npm start`s on one file
 * would each believe they own its periodic jobs and the first-start seed. `<database>.lock` holds
 * the owner's pid; a lock whose process is gone (a crash) is taken over. The workers never lock.
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
          `Another server process (pid ${owner}) is already using ${dbPath}. One deployment serves a database file ` +
            `(set WEB_CONCURRENCY for more processes in it). Stop that server first ` +
            `(or remove ${file} if that process is not a server of this app).`,
        );
      }
      unlinkSync(file);
    }
  }
  throw new DatabaseLockedError(`Could not take the lock ${file}`);
}
