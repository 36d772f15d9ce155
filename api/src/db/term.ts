/**
 * The term of an instant, in SQL: the only place its engine-specific text is chosen. The term is
 * the Vietnamese university semester the instant falls in, in Vietnam time (UTC+7, no daylight
 * saving) — HK1 1 Sep–31 Jan, HK2 1 Feb–30 Jun, summer 1 Jul–31 Aug — given as its first instant in
 * epoch ms, as dashboard/scope.ts currentTerm computes it in JS (term.test.ts holds them equal at
 * every boundary). It feeds organization_members.joined_term (a generated column the member-figure
 * triggers read) and the bulk membership insert. PostgreSQL's text is db/pg/term.ts (its pg-core
 * table builds the generated column from it directly); callers elsewhere ask this module only.
 */
import { sql, type SQL } from 'drizzle-orm';
import { onPg } from './dialect';
import { termStartSql as pgTermStartSql } from './pg/term';

/** SQLite's text, which the SQLite table's generated column is declared with. */
export function sqliteTermStartSql(ms: SQL): SQL {
  const local = sql`${ms} / 1000 + 25200, 'unixepoch'`;
  const month = sql`CAST(strftime('%m', ${local}) AS INTEGER)`;
  const year = sql`CAST(strftime('%Y', ${local}) AS INTEGER)`;
  return sql`((CAST(strftime('%s', CASE WHEN ${month} >= 9 THEN printf('%04d-09-01', ${year}) WHEN ${month} = 1 THEN printf('%04d-09-01', ${year} - 1) WHEN ${month} <= 6 THEN printf('%04d-02-01', ${year}) ELSE printf('%04d-07-01', ${year}) END) AS INTEGER) - 25200) * 1000)`;
}

/** `ms`: an integer epoch-milliseconds expression; the text of the engine this process serves. */
export function termStartSql(ms: SQL): SQL {
  return onPg() ? pgTermStartSql(ms) : sqliteTermStartSql(ms);
}
