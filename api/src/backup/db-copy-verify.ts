/**
 * db:copy's proof before it commits: every table's row count, and a checksum of the columns a
 * deployment lives by (sign-ins, the trigger-kept figures, the money of payment orders), read from
 * the SQLite file and from the open PostgreSQL transaction and compared.
 */
import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { CopyTable } from './db-copy';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** Columns summed up per table; `'*'`: every copied column (the figures tables, whose every cell is a figure). */
const CHECKSUMS: Record<string, string[] | '*'> = {
  users: ['id', 'email', 'password_hash'],
  payment_orders: ['id', 'order_code', 'amount', 'status'],
  organization_member_counts: '*',
  member_figures: '*',
  unit_member_figures: '*',
  campaign_figures: '*',
  campaign_weeks: '*',
  campaign_week_fees: '*',
  user_facet_counts: '*',
  report_member_cells: '*',
  report_live_members: '*',
};

const PAGE = 50_000;
const q = (name: string) => pg.escapeIdentifier(name);

/** One text per value whichever engine read it: int8 arrives as a string from node-postgres, booleans as 0/1 from SQLite. */
const cell = (v: unknown) => (v === null || v === undefined ? '\u0000' : v === true ? '1' : v === false ? '0' : String(v));
const line = (row: unknown[]) => row.map(cell).join('\u001f');

interface Reader {
  count(table: string): Promise<number>;
  /** Rows after `after` in id order, at most PAGE. */
  page(table: string, columns: string[], after: number): Promise<unknown[][]>;
  all(table: string, columns: string[]): Promise<unknown[][]>;
}

function sqliteReader(db: Database.Database): Reader {
  const cols = (columns: string[]) => columns.map((c) => `"${c}"`).join(', ');
  return {
    count: async (table) => (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n,
    page: async (table, columns, after) =>
      db
        .prepare(`SELECT ${cols(columns)} FROM "${table}" WHERE id > ? ORDER BY id LIMIT ${PAGE}`)
        .raw(true)
        .all(after) as unknown[][],
    all: async (table, columns) =>
      db
        .prepare(`SELECT ${cols(columns)} FROM "${table}"`)
        .raw(true)
        .all() as unknown[][],
  };
}

function pgReader(client: pg.Client): Reader {
  const cols = (columns: string[]) => columns.map(q).join(', ');
  const rows = async (text: string, values: unknown[] = []) => (await client.query({ text, values, rowMode: 'array' })).rows as unknown[][];
  return {
    count: async (table) => Number((await rows(`SELECT count(*) FROM ${q(table)}`))[0]![0]),
    page: (table, columns, after) => rows(`SELECT ${cols(columns)} FROM ${q(table)} WHERE id > $1 ORDER BY id LIMIT ${PAGE}`, [after]),
    all: (table, columns) => rows(`SELECT ${cols(columns)} FROM ${q(table)}`),
  };
}

/** sha256 of the rows, in id order when the table has ids (paged), else sorted as text (the figures tables are small). */
async function checksum(reader: Reader, table: string, columns: string[]): Promise<string> {
  const hash = createHash('sha256');
  if (columns[0] === 'id') {
    for (let after = 0; ;) {
      const rows = await reader.page(table, columns, after);
      for (const row of rows) hash.update(`${line(row)}\n`);
      if (rows.length < PAGE) break;
      after = Number(rows[rows.length - 1]![0]);
    }
  } else {
    for (const text of (await reader.all(table, columns)).map(line).sort()) hash.update(`${text}\n`);
  }
  return hash.digest('hex');
}

export async function verifyCopy(source: Database.Database, client: pg.Client, tables: CopyTable[]): Promise<Check[]> {
  const from = sqliteReader(source);
  const to = pgReader(client);
  const checks: Check[] = [];
  for (const table of tables) {
    const [a, b] = [await from.count(table.name), await to.count(table.name)];
    checks.push({ name: `${table.name} rows`, ok: a === b, detail: `${table.name}: ${a} rows in SQLite, ${b} in PostgreSQL` });
  }
  for (const [name, wanted] of Object.entries(CHECKSUMS)) {
    const table = tables.find((t) => t.name === name);
    if (!table) continue;
    const columns = wanted === '*' ? table.columns.map((c) => c.name) : wanted;
    const [a, b] = [await checksum(from, name, columns), await checksum(to, name, columns)];
    checks.push({
      name: `${name} checksum`,
      ok: a === b,
      detail: `${name} (${columns.join(', ')}): ${a === b ? `sha256 ${a.slice(0, 16)}… on both` : `SQLite ${a.slice(0, 16)}… ≠ PostgreSQL ${b.slice(0, 16)}…`}`,
    });
  }
  return checks;
}
