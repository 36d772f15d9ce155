/**
 * Which SQL the raw fragments speak (issue 29). A process serves one database, SQLite or
 * PostgreSQL, chosen at start-up (index.ts, the cluster's workers, the test harness under
 * TEST_ENGINE=pg): raw SQL that the two engines write differently asks `onPg()` where it is built,
 * so call sites keep one rule and no database handle has to travel to them (docs/decisions.md).
 */
let engine: 'sqlite' | 'pg' = 'sqlite';

export function useEngine(e: 'sqlite' | 'pg'): void {
  engine = e;
}

export function onPg(): boolean {
  return engine === 'pg';
}
