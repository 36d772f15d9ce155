/**
 * WAL checkpoints off the request thread (issue 12). SQLite's automatic checkpoint runs inside
 * the commit that pushes the WAL past 1,000 pages, so with a write every few requests one request
 * in a few hundred copied 4 MB into the database file and synced it while every other request
 * queued behind it (p99 of the +10 % writes mix: 99–139 ms). The request connection turns its
 * automatic checkpoint off while the worker thread lives, and the worker's connection checkpoints
 * on a timer instead: PASSIVE, so it never waits for, nor blocks, a reader or the writer. With
 * several API processes on one file (issue 28), only the worker holding the 'wal-checkpoint' lease
 * checkpoints; another takes over when its process dies.
 */
import type Database from 'better-sqlite3';
import type { Db } from '../db/client';
import { isPg } from '../db/postgres';
import { leasedInterval } from './lease';

/** Pages the WAL may hold before a commit checkpoints (SQLite's default). */
export const AUTO_CHECKPOINT_PAGES = 1000;

/**
 * Checkpoints through `db`'s connection every `everyMs` until the returned function is called.
 * PostgreSQL has no WAL file of ours to checkpoint (the server does its own): nothing runs there.
 */
export async function startCheckpoints(db: Db, everyMs = 500): Promise<() => void> {
  if (isPg(db)) return () => {};
  const client = db.$client;
  return leasedInterval(db, 'wal-checkpoint', everyMs, () => {
    if (client.open) client.pragma('wal_checkpoint(PASSIVE)');
  });
}

/** Whether commits on `client` checkpoint by themselves (off while a worker checkpoints for it). */
export function checkpointOnCommit(client: Database.Database, on: boolean): void {
  if (client.open && !client.memory) client.pragma(`wal_autocheckpoint = ${on ? AUTO_CHECKPOINT_PAGES : 0}`);
}
