/**
 * PostgreSQL: statistics a long transaction outgrows. A plan is made from what the statistics say a
 * table holds, scaled to its size now, and a connection keeps it: the foreign-key checks of a users
 * import (a membership's user, an index row's user) were planned as sequential scans of `users`
 * while a fresh database held one user, and kept that plan for the whole import — one transaction,
 * whose rows no autovacuum ANALYZE sees — so each check read every user written so far. On one bench
 * run of four a 10k import's membership inserts took 464 ms a batch instead of 10 (46 s in all).
 */
import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { isPg } from './postgres';
import { sqlAll, sqlRun } from './engine';

/**
 * ANALYZE, inside the caller's transaction, each of `tables` whose statistics count fewer rows than
 * the transaction may have added to it (`written`): ANALYZE in
 * a transaction counts that transaction's own rows, and its new statistics make every plan that
 * reads the table be made again, now from its real size. It holds the table's SHARE UPDATE EXCLUSIVE
 * lock (which only VACUUM, ANALYZE and some ALTER TABLE take) until the transaction ends; a table
 * whose statistics were right, or never taken (planned from its size alone), is left alone.
 */
export async function analyzeOutgrown(tx: Db, tables: readonly string[], written: number): Promise<string[]> {
  if (!isPg(tx) || tables.length === 0) return [];
  const outgrown = await sqlAll<{ name: string }>(
    tx,
    sql`SELECT c.relname AS name FROM unnest(${`{${tables.join(',')}}`}::text[]) t JOIN pg_class c ON c.oid = to_regclass(t)
      WHERE c.reltuples >= 0 AND c.reltuples < ${written}`,
  );
  for (const { name } of outgrown) await sqlRun(tx, sql`ANALYZE ${sql.identifier(name)}`);
  return outgrown.map((t) => t.name);
}
