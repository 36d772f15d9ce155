/**
 * `npm run db:copy -- <sqlite file> <postgres url>` (issue 29 item 7): moves a deployment from its
 * SQLite file to an empty PostgreSQL database. The target gets the PostgreSQL migrations, then every
 * table of the pg set in foreign-key order, in batches, in one transaction that commits only when
 * the row counts and the key columns' checksums (db-copy-verify.ts) equal the source's. Values move
 * as they are stored (instants are epoch ms on both engines, docs/decisions.md); only SQLite's 0/1
 * booleans become PostgreSQL booleans.
 */
import Database from 'better-sqlite3';
import { is } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { getTableConfig, PgTable, type PgColumn } from 'drizzle-orm/pg-core';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import pg from 'pg';
import { MIGRATIONS_FOLDER, PG_MIGRATIONS_FOLDER } from '../db/migrate';
import { DatabaseLockedError, lockDatabase } from '../db/process-lock';
import { sessionOptions } from '../db/postgres';
import * as pgSchema from '../db/pg/schema';
import { verifyCopy, type Check } from './db-copy-verify';

/** SQLite's own machinery, rebuilt on PostgreSQL by its own means (tsvector search, PL/pgSQL triggers). */
const SQLITE_ONLY: Record<string, string> = {
  users_fts: 'FTS5 search index, rebuilt from users as users_index',
  users_fts_pending: 'the FTS5 refresh queue',
  cache_versions: "the list caches' version counters, which start afresh",
};
const isSqliteOnly = (name: string) => name in SQLITE_ONLY || name.startsWith('users_fts_') || name === '__drizzle_migrations';

/** PostgreSQL's bind-parameter limit is 65,535 per statement. */
const MAX_PARAMS = 60_000;
const MAX_BATCH = 2_000;

export interface CopyTable {
  name: string;
  columns: { name: string; boolean: boolean }[];
  /** A column referencing this same table (organizations.parent_id): its rows go parents first. */
  selfRef: { column: string; target: string } | null;
  identity: string | null;
}

export interface CopySummary {
  tables: { name: string; rows: number; ms: number }[];
  skipped: { name: string; why: string }[];
  checks: Check[];
}

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const q = (name: string) => pg.escapeIdentifier(name);

/** The pg set's tables, each after every table it references. */
export function tablesInKeyOrder(): CopyTable[] {
  const configs = (Object.values(pgSchema) as unknown[]).filter((t): t is PgTable => is(t, PgTable)).map((t) => getTableConfig(t));
  const byName = new Map(configs.map((c) => [c.name, c]));
  const ordered: CopyTable[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (placed.has(name)) return;
    if (visiting.has(name)) throw new Error(`Foreign keys form a cycle through ${name}: no copy order`);
    visiting.add(name);
    const config = byName.get(name)!;
    let selfRef: CopyTable['selfRef'] = null;
    for (const fk of config.foreignKeys) {
      const ref = fk.reference();
      const target = getTableConfig(ref.foreignTable).name;
      if (target === name) selfRef = { column: snake(ref.columns[0]!.name), target: snake(ref.foreignColumns[0]!.name) };
      else visit(target);
    }
    visiting.delete(name);
    const columns = config.columns.filter((c) => !(c as PgColumn & { generated?: unknown }).generated);
    ordered.push({
      name,
      columns: columns.map((c) => ({ name: snake(c.name), boolean: c.columnType === 'PgBoolean' })),
      selfRef,
      identity: snake(config.columns.find((c) => (c as PgColumn & { generatedIdentity?: unknown }).generatedIdentity)?.name ?? '') || null,
    });
    placed.add(name);
  };
  for (const name of [...byName.keys()].sort()) visit(name);
  return ordered;
}

/** Refuses a source written by another version of the app: its tables would not match the pg set. */
function checkSource(source: Database.Database, tables: CopyTable[]): { name: string; why: string }[] {
  const journal = JSON.parse(readFileSync(resolve(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
  const applied = (() => {
    try {
      return (source.prepare('SELECT count(*) AS n FROM __drizzle_migrations').get() as { n: number }).n;
    } catch {
      return 0;
    }
  })();
  if (applied !== journal.entries.length) {
    throw new Error(
      `The SQLite file has ${applied} of this version's ${journal.entries.length} migrations: start this version of the app on it once ` +
        '(npm start migrates it), stop it, then copy.',
    );
  }
  const present = (
    source.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all() as { name: string }[]
  ).map((r) => r.name);
  const known = new Set(tables.map((t) => t.name));
  const skipped: { name: string; why: string }[] = [];
  for (const name of present.sort()) {
    if (known.has(name)) continue;
    if (!isSqliteOnly(name))
      throw new Error(`Table ${name} of the SQLite file has no PostgreSQL twin in api/src/db/pg/tables: nothing copied`);
    if (name in SQLITE_ONLY) skipped.push({ name, why: SQLITE_ONLY[name]! });
  }
  for (const t of tables) {
    if (!present.includes(t.name)) throw new Error(`The SQLite file has no table ${t.name}: nothing copied`);
    const have = new Set((source.prepare(`SELECT name FROM pragma_table_xinfo(?)`).all(t.name) as { name: string }[]).map((r) => r.name));
    const missing = t.columns.filter((c) => !have.has(c.name)).map((c) => c.name);
    if (missing.length) throw new Error(`${t.name} in the SQLite file lacks ${missing.join(', ')}: nothing copied`);
  }
  return skipped;
}

/** Tables of the target's public schema that hold rows (a copy goes into an empty database only). */
async function rowsInTarget(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`,
  );
  const full: string[] = [];
  for (const { name } of rows) {
    const { rows: any } = await client.query(`SELECT 1 FROM ${q(name)} LIMIT 1`);
    if (any.length) full.push(name);
  }
  return full;
}

/** Parents before children for a self-referencing table; a row whose parent is absent keeps its place at the end. */
function parentsFirst(rows: unknown[][], refIndex: number, keyIndex: number): unknown[][] {
  const placed = new Set<unknown>();
  const out: unknown[][] = [];
  let pending = rows;
  while (pending.length) {
    const next = pending.filter((r) => {
      const parent = r[refIndex];
      if (parent !== null && parent !== r[keyIndex] && !placed.has(parent)) return true;
      out.push(r);
      placed.add(r[keyIndex]);
      return false;
    });
    if (next.length === pending.length) return [...out, ...next];
    pending = next;
  }
  return out;
}

async function copyTable(source: Database.Database, client: pg.Client, table: CopyTable): Promise<number> {
  const names = table.columns.map((c) => c.name);
  const select = source.prepare(`SELECT ${names.map((n) => `"${n}"`).join(', ')} FROM "${table.name}" ORDER BY rowid`).raw(true);
  const perBatch = Math.max(1, Math.min(MAX_BATCH, Math.floor(MAX_PARAMS / names.length)));
  const head = `INSERT INTO ${q(table.name)} (${names.map(q).join(', ')}) VALUES `;
  const booleans = table.columns.map((c, i) => (c.boolean ? i : -1)).filter((i) => i >= 0);
  let copied = 0;
  const flush = async (batch: unknown[][]) => {
    const params: unknown[] = [];
    const tuples = batch.map((row) => {
      for (const i of booleans) if (row[i] !== null) row[i] = row[i] !== 0;
      const marks = row.map((v) => {
        params.push(v);
        return `$${params.length}`;
      });
      return `(${marks.join(', ')})`;
    });
    await client.query(head + tuples.join(', '), params);
    copied += batch.length;
  };
  const rows: Iterable<unknown[]> = table.selfRef
    ? parentsFirst(select.all() as unknown[][], names.indexOf(table.selfRef.column), names.indexOf(table.selfRef.target))
    : (select.iterate() as Iterable<unknown[]>);
  let batch: unknown[][] = [];
  for (const row of rows) {
    batch.push(row);
    if (batch.length === perBatch) {
      await flush(batch);
      batch = [];
    }
  }
  if (batch.length) await flush(batch);
  return copied;
}

export interface CopyOptions {
  /** Progress lines (table by table); silent when absent. */
  log?: (line: string) => void;
}

/** Copies the SQLite file at `sqlitePath` into the empty PostgreSQL database at `url`; throws (and leaves the target's rows untouched) on any refusal or mismatch. */
export async function copySqliteToPg(sqlitePath: string, url: string, options: CopyOptions = {}): Promise<CopySummary> {
  const log = options.log ?? (() => undefined);
  const file = resolve(sqlitePath);
  if (!existsSync(file)) throw new Error(`No SQLite database at ${file}`);
  // The server's own deployment lock: none may run on the file while it moves (its later writes would be lost).
  let unlock: () => void;
  try {
    unlock = lockDatabase(file);
  } catch (err) {
    if (err instanceof DatabaseLockedError) throw new Error(`${err.message} Nothing was copied.`, { cause: err });
    throw err;
  }
  const source = new Database(file, { readonly: true, fileMustExist: true });
  const client = new pg.Client({ connectionString: url, options: sessionOptions(url) });
  try {
    await client.connect();
    const tables = tablesInKeyOrder();
    const skipped = checkSource(source, tables);
    const full = await rowsInTarget(client);
    if (full.length) {
      throw new Error(`The target database is not empty (${full.join(', ')} hold rows): db:copy writes only into an empty database`);
    }
    await migrate(drizzle({ client, casing: 'snake_case' }), { migrationsFolder: PG_MIGRATIONS_FOLDER });

    // One read transaction: every table as of one instant.
    source.exec('BEGIN');
    await client.query('BEGIN');
    try {
      // The figures arrive copied: the triggers that keep them (drizzle-pg 0003, 0004) would count every row again.
      for (const table of tables) await client.query(`ALTER TABLE ${q(table.name)} DISABLE TRIGGER USER`);
      const summary: CopySummary = { tables: [], skipped, checks: [] };
      for (const table of tables) {
        const started = performance.now();
        const rows = await copyTable(source, client, table);
        const ms = Math.round(performance.now() - started);
        summary.tables.push({ name: table.name, rows, ms });
        log(`  ${table.name.padEnd(28)} ${String(rows).padStart(9)} rows  ${ms} ms`);
        if (table.identity) {
          // The next id continues after the copied ones (identity columns are BY DEFAULT, so the ids above were taken as given).
          await client.query(
            `SELECT setval(pg_get_serial_sequence($1, $2), (SELECT coalesce(max(${q(table.identity)}), 0) + 1 FROM ${q(table.name)}), false)`,
            [table.name, table.identity],
          );
        }
      }
      for (const table of tables) await client.query(`ALTER TABLE ${q(table.name)} ENABLE TRIGGER USER`);
      // What the copied figures count, so the next membership change moves them from there.
      await client.query(
        `INSERT INTO figures.members_seen SELECT id, user_id, organization_id, joined_term FROM organization_members WHERE is_active`,
      );
      await client.query(
        `INSERT INTO figures.cells_seen SELECT * FROM figures.cells_now(ARRAY(SELECT DISTINCT user_id FROM organization_members))`,
      );
      // The users index (drizzle-pg 0007) is built by triggers that were off during the copy.
      await client.query('SELECT users_index_rebuild()');
      summary.checks = await verifyCopy(source, client, tables);
      const failed = summary.checks.filter((c) => !c.ok);
      if (failed.length) throw new Error(`Verification failed, nothing was committed: ${failed.map((c) => c.detail).join('; ')}`);
      await client.query('COMMIT');
      return summary;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      source.exec('COMMIT');
    }
  } finally {
    source.close();
    unlock();
    await client.end().catch(() => undefined);
  }
}
