/**
 * The API on PostgreSQL (issue 29): the same drizzle tables (db/tables, written with sqlite-core)
 * built into SQL by drizzle's PostgreSQL dialect, on node-postgres. db/pg/ holds the pg-core twin of
 * the schema that migrations are generated from (db/pg/parity.test.ts keeps the two alike); the
 * services never see which engine runs them.
 *
 * Every statement goes through one router: inside a transaction (db/engine.ts withTransaction) it
 * runs on that transaction's connection, found through AsyncLocalStorage; otherwise on the pool.
 * So a query builder made anywhere runs where its caller's transaction is.
 */
import { getTableName, is, sql, Table } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { PgDialect, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { currentFrame } from './async-frame';
import type { Db } from './client';
import * as schema from './schema';

/**
 * PostgreSQL's dialect renders a joined table as `"table" "alias"` only for its own PgTable; a
 * joined alias of one of our sqlite-core tables came out as its bare alias ("relation
 * management_department does not exist"). Such a join is handed over as that SQL instead.
 */
type Join = { table: unknown };
const dialect = PgDialect.prototype as unknown as { buildJoins(joins: Join[] | undefined): unknown };
const buildJoins = dialect.buildJoins;
dialect.buildJoins = function (this: unknown, joins) {
  const named = joins?.map((j) =>
    is(j.table, Table) && !is(j.table, PgTable) && (j.table as unknown as Record<symbol, unknown>)[Symbol.for('drizzle:IsAlias')]
      ? {
          ...j,
          table: sql`${sql.identifier(String((j.table as unknown as Record<symbol, unknown>)[Symbol.for('drizzle:OriginalName')]))} ${sql.identifier(getTableName(j.table))}`,
        }
      : j,
  );
  return buildJoins.call(this, named);
};

// int8 (counts, epoch milliseconds) and numeric (sums of bigint) as numbers, as SQLite answers them:
// every value the app keeps in them is an integer far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

/**
 * A statement the app sends again and again gets a name, so each pooled connection parses it once
 * and PostgreSQL can keep its plan (after five runs it plans generically when that costs no more
 * than planning each call): planning was a fifth of the database's time under the read mix, the
 * users page's row query alone 0.65 ms a call (docs/benchmark.md). A text is named on its third
 * use, so one-off statements (migrations, literals) stay unnamed, and at most MAX_NAMED texts a
 * process, which bounds what each connection keeps prepared. Statements whose plan depends on a
 * scope's size stay unnamed (sizedByScope).
 */
const MAX_NAMED = 1_000;
/**
 * A subtree's path range, the users index's units or member_scopes: the best plan depends on how big the scope
 * is (a university walks users by id, a chi đoàn collects its few members), which a generic plan
 * cannot know — the scoped pages took 6 ms a call instead of 1.4 once generic. Planned per call.
 * So is a list of ids (`= ANY($1::int[])`, an import batch's new users): planned generically while a
 * fresh database's tables were small, it scanned the whole of them to the end of a 10k import (9 ms a batch).
 */
// member_scopes in an IN subquery joined to users (unquoted, users/list.ts whereFor) is sized by scope; read alone
// by its key (users/scope-statements.ts, quoted by drizzle) it is one range of one unit at any size, planned once.
const sizedByScope = /"path" >= \$|"orgs" && \$|(?<!")member_scopes|= ANY\(\$\d+::int\[\]\)/;
/** Whether PostgreSQL plans this statement's text at each call (sizedByScope): it is never named. */
export const plannedPerCall = (text: string) => sizedByScope.test(text);

const names = new Map<string, string>();
const uses = new Map<string, number>();
const perCall = new Set<string>();
function named(config: unknown): unknown {
  if (typeof config !== 'object' || config === null) return config;
  const { text, name } = config as { text?: unknown; name?: unknown };
  if (name || typeof text !== 'string') return config;
  // Looked up before the pattern is tested: the test was 1.6 % of the API's CPU under a load of details.
  let chosen = names.get(text);
  if (!chosen) {
    if (perCall.has(text)) return config;
    if (plannedPerCall(text)) {
      if (perCall.size < MAX_NAMED) perCall.add(text);
      return config;
    }
    if (names.size >= MAX_NAMED) return config;
    const n = (uses.get(text) ?? 0) + 1;
    if (n < 3) {
      if (uses.size >= 10 * MAX_NAMED) uses.clear();
      uses.set(text, n);
      return config;
    }
    uses.delete(text);
    chosen = `app_${names.size}`;
    names.set(text, chosen);
  }
  return { ...config, name: chosen };
}

interface PgHandle {
  pool: pg.Pool;
}

const handles = new WeakMap<object, PgHandle>();

export function isPostgresUrl(url: string | undefined): url is string {
  return /^postgres(ql)?:\/\//.test(url ?? '');
}

/** The pool behind a PostgreSQL `db`, or undefined for SQLite. */
export function pgPoolOf(db: object): pg.Pool | undefined {
  return handles.get(db)?.pool;
}

export function isPg(db: object): boolean {
  return handles.has(db);
}

/**
 * The app's session settings, sent at connection (node-postgres `options`), unless the URL carries
 * its own `options`: JIT off. The figure functions' set-wise statements are estimated far above
 * their cost (a 10k import's figures_delta insert: 320,000 for 90,000 rows in 0.25 s), and
 * PostgreSQL's default JIT (past a cost of 100,000) compiled it for 1.5 s. docs/deploy/postgresql.conf
 * turns it off too, but a server left at its defaults must not cost an import seconds.
 */
export function sessionOptions(url: string): string | undefined {
  return /[?&]options=/.test(url) ? undefined : '-c jit=off';
}

/** Opens a pool on `url`; the answer is typed as the app's Db (the builders are dialect-neutral at the call sites). */
export function openPgDb(url: string, { max = 10, idleMs = 10_000 }: { max?: number; idleMs?: number } = {}): Db {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: idleMs, options: sessionOptions(url) });
  // An idle pooled connection that the server drops must not crash the process.
  pool.on('error', () => {});
  const router = {
    query: (config: unknown, ...rest: unknown[]) => {
      const target = currentFrame()?.pg?.client ?? pool;
      return (target.query as (...a: unknown[]) => unknown)(named(config), ...rest);
    },
  };
  const db = drizzle(router as unknown as pg.Pool, { schema, casing: 'snake_case' });
  handles.set(db, { pool });
  return db as unknown as Db;
}

export async function closePgDb(db: object): Promise<void> {
  await handles.get(db)?.pool.end();
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unparsable URL)';
  }
}
