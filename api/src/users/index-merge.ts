/**
 * Keeps SQLite's users index (FTS5, users/search.ts) in few segments. Every sync of the index
 * writes a segment of its own, and FTS5's automerge leaves up to four on each level: the 100k bench
 * database held 21 after its writes, a freshly generated one 10. Each term of a query is looked up
 * in every segment, about 5 µs a segment: a faculty admin's search page (a word and the unit, two
 * terms) cost 230 µs of FTS5 with 21 segments and 39 µs with one, and a term that matches nothing
 * 100 µs against 9 (docs/benchmark.md, session 28).
 *
 * FTS5's incremental 'merge' with `usermerge` 2 (migration 0050) merges the segments of any level
 * that holds two or more, a few pages a step, cascading up the levels: 21 → 3 segments in 10 ms on
 * the bench database, the large segments left alone until a level holds two of them. One thread
 * of the deployment does it: the worker thread (imports/worker.ts) holding the 'users-index-merge' lease.
 * Each step is a transaction of its own, so a request's write waiting for it is woken when it
 * ends (lib/writer-gate.ts), and the steps stop for the tick as soon as a request write waits.
 */
import type { Database } from 'better-sqlite3';
import type { Db } from '../db/client';
import { isPg } from '../db/postgres';
import { leasedInterval } from '../lib/lease';
import { writersWaiting } from '../lib/writer-gate';

/** Pages of merged output a step writes at most (FTS5's 'merge' argument). */
const STEP_PAGES = 32;

/** FTS5's structure record header (fts5_index.c): a 4-byte cookie, the version 2 marker when present, then varints. */
const V2_MARKER = [0xff, 0x00, 0x00, 0x01];

/** The number of segments in the users index, from its structure record (null: no record, not read). */
export function segmentCount(sqlite: Database): number | null {
  const block = sqlite.prepare<[], Buffer>('SELECT block FROM users_fts_data WHERE id = 10').pluck().get();
  if (!block || block.length < 6) return null;
  let i = V2_MARKER.every((b, k) => block[4 + k] === b) ? 8 : 4;
  const varint = () => {
    let v = 0;
    for (let k = 0; k < 9 && i < block.length; k++) {
      const c = block[i++]!;
      v = k === 8 ? v * 256 + c : v * 128 + (c & 0x7f);
      if (k < 8 && !(c & 0x80)) break;
    }
    return v;
  };
  varint(); // levels
  return varint();
}

const idle = new WeakMap<Database, number>();

/**
 * Merges the index's levels that hold two segments or more, step by step, for at most `budgetMs`.
 * Skipped while the segment count is the one a merge last found nothing to do at. Returns the steps that merged something.
 */
export function mergeUsersIndex(sqlite: Database, budgetMs = 25): number {
  const segments = segmentCount(sqlite);
  if (segments === null || segments <= 1 || idle.get(sqlite) === segments) return 0;
  const merge = sqlite.prepare(`INSERT INTO users_fts (users_fts, rank) VALUES ('merge', ${STEP_PAGES})`);
  const changes = sqlite.prepare<[], number>('SELECT total_changes()').pluck();
  const step = sqlite.transaction(() => merge.run());
  const end = performance.now() + budgetMs;
  let merged = 0;
  while (performance.now() < end && writersWaiting() === 0) {
    const before = changes.get()!;
    step();
    // FTS5 changes at least two rows when a step merged anything (its documentation's test).
    if (changes.get()! - before < 2) {
      idle.set(sqlite, segmentCount(sqlite) ?? 0);
      break;
    }
    merged++;
  }
  return merged;
}

/**
 * Merges the users index every `everyMs` in whichever thread of the deployment holds the lease.
 * PostgreSQL's users_index is a GIN index the server keeps itself: nothing runs there.
 */
export async function startIndexMerges(db: Db, everyMs = 500): Promise<() => void> {
  if (isPg(db)) return () => {};
  const client = db.$client;
  return leasedInterval(db, 'users-index-merge', everyMs, () => {
    if (client.open) mergeUsersIndex(client);
  });
}
