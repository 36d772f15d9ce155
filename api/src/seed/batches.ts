import { getTableColumns, type Table } from 'drizzle-orm';

/**
 * A multi-row INSERT binds a parameter per column of each row: PostgreSQL takes at most 65,535
 * parameters a statement, SQLite 32,766. Slices `rows` so that each INSERT into `table` stays under
 * both: one round trip (and one run of the table's statement triggers) per slice instead of per row.
 */
export function insertSlices<T>(table: Table, rows: readonly T[]): T[][] {
  const size = Math.max(1, Math.floor(32_000 / Object.keys(getTableColumns(table)).length));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}
