/**
 * db/term.ts's termStartSql for PostgreSQL: the first instant (epoch ms) of the Vietnamese
 * university term an epoch-ms expression falls in, in Vietnam time (UTC+7, no daylight saving).
 * Built only from immutable functions, as a stored generated column requires.
 */
import { sql, type SQL } from 'drizzle-orm';

export function termStartSql(ms: SQL): SQL {
  const local = sql`timezone('UTC', to_timestamp((${ms} + 25200000) / 1000.0))`;
  const month = sql`extract(month from ${local})::int`;
  const year = sql`extract(year from ${local})::int`;
  const startYear = sql`CASE WHEN ${month} = 1 THEN ${year} - 1 ELSE ${year} END`;
  const startMonth = sql`CASE WHEN ${month} >= 9 OR ${month} = 1 THEN 9 WHEN ${month} <= 6 THEN 2 ELSE 7 END`;
  return sql`((extract(epoch from make_timestamp(${startYear}, ${startMonth}, 1, 0, 0, 0))::bigint - 25200) * 1000)`;
}
