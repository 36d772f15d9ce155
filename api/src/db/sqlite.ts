/**
 * What ties the API to SQLite, in one place (docs/scaling.md lists the rest: the change stamp in
 * lib/freshness.ts and the one-process assumptions). A move to PostgreSQL rewrites this module:
 * - a UNIQUE violation is SQLITE_CONSTRAINT_UNIQUE here, SQLSTATE 23505 there;
 * - a bound id list is expanded with json_each here, `= ANY($1::int[])` there;
 * - organization paths compare byte by byte (BINARY collation) here; there the path column must be
 *   COLLATE "C", or the subtree ranges of access/scope.ts lose nodes (organizations/paths.test.ts).
 */
import { sql, type Column, type SQL } from 'drizzle-orm';
import { onPg } from './dialect';

/** Is this a UNIQUE violation (so a race past a pre-check still ends as 409)? */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  // drizzle wraps the driver's error in its own (DrizzleQueryError) with the driver's as cause.
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === '23505' || e.cause?.code === '23505';
}

/**
 * Is this PostgreSQL refusing a number out of its column's range (SQLSTATE 22003: an id of
 * 99999999999 against an integer key)? SQLite's integers are 64-bit and never refuse one.
 */
export function isOutOfRange(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '22003' || e.cause?.code === '22003';
}

/** The values of a JSON array bound as one parameter, as a one-column set (`value`); `cast`: PostgreSQL's type for them. */
function jsonValues(param: unknown, cast = ''): SQL {
  return onPg()
    ? sql`(SELECT value${sql.raw(cast)} FROM jsonb_array_elements_text(${param}::jsonb) v(value))`
    : sql`(SELECT value FROM json_each(${param}))`;
}

/** `column IN (the values of a JSON array bound as one parameter)`: one statement whatever the list length. */
export function inJsonValues(column: Column | SQL, values: readonly (string | number)[]): SQL {
  if (!onPg()) return sql`${column} IN ${jsonValues(JSON.stringify(values))}`;
  // PostgreSQL's set is text: numbers are cast to the set, never the column (a cast column reads no index).
  if (values.length === 0) return sql`1 = 0`;
  return sql`${column} IN ${jsonValues(JSON.stringify(values), typeof values[0] === 'number' ? '::int8' : '')}`;
}

/** `column IN (the ids of a JSON array bound as one parameter)`: one prepared statement whatever the list length. */
export function inJsonIds(column: Column | SQL, placeholder: string): SQL {
  return sql`${column} IN ${jsonValues(sql.placeholder(placeholder), '::int8')}`;
}
