/**
 * What ties the API to SQLite, in one place (docs/scaling.md lists the rest: the change stamp in
 * lib/freshness.ts and the one-process assumptions). A move to PostgreSQL rewrites this module:
 * - a UNIQUE violation is SQLITE_CONSTRAINT_UNIQUE here, SQLSTATE 23505 there;
 * - a bound id list is expanded with json_each here, `= ANY($1::int[])` there;
 * - organization paths compare byte by byte (BINARY collation) here; there the path column must be
 *   COLLATE "C", or the subtree ranges of access/scope.ts lose nodes (organizations/paths.test.ts).
 */
import { sql, type Column, type SQL } from 'drizzle-orm';

/** Is this a UNIQUE violation (so a race past a pre-check still ends as 409)? */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** `column IN (the values of a JSON array bound as one parameter)`: one statement whatever the list length. */
export function inJsonValues(column: Column | SQL, values: readonly (string | number)[]): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
}

/** `column IN (the ids of a JSON array bound as one parameter)`: one prepared statement whatever the list length. */
export function inJsonIds(column: Column | SQL, placeholder: string): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${sql.placeholder(placeholder)}))`;
}
