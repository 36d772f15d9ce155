/**
 * What PostgreSQL's users search costs at 100k users (docs/scaling.md, "PostgreSQL: search and
 * scope"): EXPLAIN ANALYZE of counts, first pages and subtree-scoped counts, beside SQLite's FTS5
 * on the same rows. A measurement, not a check: skipped unless PG_SEARCH_COST=1 (about a minute).
 *   PG_SEARCH_COST=1 [PG_SEARCH_USERS=100000] npx vitest run api/src/db/pg/search-cost.test.ts
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { comparisonUnavailable, startPgCluster, type PgCluster } from '../../test/pg-server';
import { generateUsers, seeded } from '../../test/search-data';
import { openDb, type Db } from '../client';
import { runMigrations } from '../migrate';
import { users as sqliteUsers } from '../tables/users';
import { searchWords } from '../../users/list';
import { matchingIds, userSearchText } from '../../users/search';
import { tsQuery } from './search';
import * as pgSchema from './schema';
import { runQuery, withTransaction } from '../engine';

const wanted = process.env.PG_SEARCH_COST === '1';
const missing = comparisonUnavailable();
if (wanted && missing) console.warn(`Skipping the PostgreSQL search measurement: ${missing}`);

const migrationsFolder = fileURLToPath(new URL('../../../drizzle-pg', import.meta.url));
const USERS = Number(process.env.PG_SEARCH_USERS ?? 100_000);
const FACULTIES = 40;
const UNITS = 2_000;
const SEARCHES = ['n', 'ng', 'nguyen', 'tran thi', 'nguyen van an', 'dang', 'sv1', '21', 'an.n', 'hcmus.edu', '09', 'zzz'];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe.skipIf(!wanted || missing)('PostgreSQL users search cost', () => {
  let cluster: PgCluster;
  let pool: pg.Pool;
  let pgDb: NodePgDatabase<typeof pgSchema>;
  let sqlite: Db;
  const lines: string[] = [];

  beforeAll(async () => {
    const people = generateUsers(seeded(29), USERS).map((u) => ({ ...u, searchText: userSearchText(u) }));
    cluster = await startPgCluster();
    pool = new pg.Pool({ connectionString: await cluster.createDatabase('search_cost'), max: 2 });
    pgDb = drizzle({ client: pool, casing: 'snake_case', schema: pgSchema });
    await migrate(pgDb, { migrationsFolder });
    let t = performance.now();
    for (let i = 0; i < people.length; i += 1000) await pgDb.insert(pgSchema.users).values(people.slice(i, i + 1000));
    lines.push(`insert ${USERS} users: ${Math.round(performance.now() - t)} ms`);
    t = performance.now();
    await pool.query('SELECT sum(length(users_search_vector(search_text))) FROM users');
    lines.push(`users_search_vector over every row: ${Math.round(performance.now() - t)} ms`);
    // A university: one root, 40 faculties, 2,000 units beneath them, each user an active member of one unit.
    await pool.query(
      `INSERT INTO organizations (id, name, code, type, path, created_at, updated_at) VALUES (1, 'Trường', 'root', 'doan_truong', '/1/', 0, 0)`,
    );
    await pool.query(
      `INSERT INTO organizations (id, name, code, type, parent_id, path, created_at, updated_at)
       SELECT 1 + f, 'Khoa ' || f, 'f' || f, 'doan_co_so', 1, '/1/' || (1 + f) || '/', 0, 0 FROM generate_series(1, ${FACULTIES}) f`,
    );
    await pool.query(
      `INSERT INTO organizations (id, name, code, type, parent_id, path, created_at, updated_at)
       SELECT 100 + u, 'Chi đoàn ' || u, 'u' || u, 'chi_doan', 2 + u % ${FACULTIES}, '/1/' || (2 + u % ${FACULTIES}) || '/' || (100 + u) || '/', 0, 0
       FROM generate_series(1, ${UNITS}) u`,
    );
    await pool.query(`INSERT INTO organization_members (organization_id, user_id, joined_at) SELECT 101 + id % ${UNITS}, id, 0 FROM users`);
    await pool.query('VACUUM ANALYZE');
    const sqliteAt = performance.now();
    sqlite = openDb(':memory:');
    runMigrations(sqlite);
    await withTransaction(sqlite, async (tx) => {
      for (const p of people) await runQuery(tx.insert(sqliteUsers).values(p));
    });
    // Brings FTS5 up to date, as the first read does.
    await matchingIds(sqlite, ['x']);
    lines.push(`SQLite: insert and index ${USERS} users: ${Math.round(performance.now() - sqliteAt)} ms`);
  }, 600_000);

  afterAll(async () => {
    console.log(lines.join('\n'));
    sqlite?.$client.close();
    await pool?.end();
    await cluster?.stop();
  });

  /** Median execution time of EXPLAIN ANALYZE over 5 runs, and the plan's first lines. */
  async function explain(text: string, params: unknown[]): Promise<{ ms: number; plan: string }> {
    const times: number[] = [];
    let plan = '';
    for (let i = 0; i < 5; i++) {
      const { rows } = await pool.query<{ 'QUERY PLAN': [{ 'Execution Time': number; Plan: Record<string, unknown> }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`,
        params,
      );
      const [out] = rows[0]!['QUERY PLAN'];
      times.push(out['Execution Time']);
      const nodes: string[] = [];
      for (let n: Record<string, unknown> | undefined = out.Plan; n; n = (n.Plans as Record<string, unknown>[] | undefined)?.[0]) {
        nodes.push(`${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''}`);
      }
      plan = nodes.join(' > ');
    }
    return { ms: median(times), plan };
  }

  async function sqliteMs(words: string[]): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      // The matches' ids: what a search count reads in FTS5 (the list keeps such counts, users/list.ts).
      await matchingIds(sqlite, words);
      times.push(performance.now() - t);
    }
    return median(times);
  }

  it('measures counts, first pages and scoped counts', async () => {
    // The faculty /1/2/: its members and those of every unit beneath carry 2 in their units.
    const scoped = `SELECT count(*) FROM users_index WHERE search_vector @@ $1::tsquery AND orgs && ARRAY[2]`;
    lines.push(
      '| search | matches | PG count ms | PG count capped at 10,001 ms | PG page 1 ms | PG faculty-scoped count ms | SQLite FTS5 count ms |',
    );
    lines.push('|---|---|---|---|---|---|---|');
    const plans = new Set<string>();
    for (const search of SEARCHES) {
      const q = tsQuery(searchWords(search))!;
      const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM users_index WHERE search_vector @@ $1::tsquery', [
        q,
      ]);
      const total = await explain('SELECT count(*) FROM users_index WHERE search_vector @@ $1::tsquery', [q]);
      const capped = await explain('SELECT count(*) FROM (SELECT 1 FROM users_index WHERE search_vector @@ $1::tsquery LIMIT 10001) m', [
        q,
      ]);
      const page = await explain('SELECT id FROM users_index WHERE search_vector @@ $1::tsquery ORDER BY id DESC LIMIT 20', [q]);
      const faculty = await explain(scoped, [q]);
      lines.push(
        `| ${search} | ${rows[0]!.n} | ${total.ms.toFixed(1)} | ${capped.ms.toFixed(1)} | ${page.ms.toFixed(1)} | ${faculty.ms.toFixed(1)} | ${(await sqliteMs(searchWords(search))).toFixed(1)} |`,
      );
      for (const [kind, e] of [
        ['count', total],
        ['capped count', capped],
        ['page 1', page],
        ['scoped count', faculty],
      ] as const)
        plans.add(`${kind}: ${e.plan}`);
    }
    lines.push(...plans);
    const all = await explain('SELECT count(*) FROM users', []);
    lines.push(`count(*) of every user: ${all.ms.toFixed(1)} ms (${all.plan})`);
  }, 600_000);
});
