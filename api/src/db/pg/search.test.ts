/**
 * PostgreSQL's users search (db/pg/search.ts) answers as SQLite's FTS5 search (users/search.ts):
 * the same random Vietnamese users in a migrated SQLite and a migrated PostgreSQL database, a few
 * hundred random searches through each, identical id sets — also after updates and deletes, which
 * PostgreSQL's generated column follows with no queue.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { eq, inArray } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { comparisonUnavailable, startPgCluster, type PgCluster } from '../../test/pg-server';
import { generateQueries, generateUsers, seeded, type GeneratedUser } from '../../test/search-data';
import { openDb, type Db } from '../client';
import { runMigrations } from '../migrate';
import { users as sqliteUsers } from '../tables/users';
import { searchWords } from '../../users/list';
import { matchingIds, userSearchText } from '../../users/search';
import { expandedTsQuery, matchingUserIds, tsQuery } from './search';
import * as pgSchema from './schema';
import { runQuery, withTransaction } from '../engine';

const missing = comparisonUnavailable();
if (missing) console.warn(`Skipping the PostgreSQL search test: ${missing}`);

const migrationsFolder = fileURLToPath(new URL('../../../drizzle-pg', import.meta.url));
const SEED = Number(process.env.SEARCH_SEED ?? 29_04);

const row = (u: GeneratedUser) => ({ ...u, searchText: userSearchText(u) });

describe.skipIf(missing)('PostgreSQL users search against FTS5', () => {
  let cluster: PgCluster;
  let pool: pg.Pool;
  let pgDb: NodePgDatabase<typeof pgSchema>;
  let sqlite: Db;
  const random = seeded(SEED);
  const people = generateUsers(random, 3000);

  // What an export reads on SQLite (FTS5), against PostgreSQL's matchingUserIds below.
  const sqliteIds = (words: string[]) => matchingIds(sqlite, words);

  /** Each query's two answers, and how many found someone (the searches must not all be empty). */
  async function compare(queries: string[]) {
    const differences: { query: string; words: string[]; sqlite: number[]; pg: number[] }[] = [];
    let found = 0;
    for (const query of queries) {
      const words = searchWords(query);
      const [a, b, c] = [await sqliteIds(words), await matchingUserIds(pgDb, words), await matchingUserIds(pgDb, words, true)];
      if (a.length > 0 && a.length < people.length) found++;
      if (a.join() !== b.join()) differences.push({ query, words, sqlite: a.slice(0, 10), pg: b.slice(0, 10) });
      // Prefixes spelled out as the words they begin (search_words): the same users.
      if (a.join() !== c.join()) differences.push({ query: `${query} (expanded)`, words, sqlite: a.slice(0, 10), pg: c.slice(0, 10) });
    }
    return { differences, found };
  }

  beforeAll(async () => {
    cluster = await startPgCluster();
    pool = new pg.Pool({ connectionString: await cluster.createDatabase('search_test'), max: 2 });
    pgDb = drizzle({ client: pool, casing: 'snake_case', schema: pgSchema });
    await migrate(pgDb, { migrationsFolder });
    sqlite = openDb(':memory:');
    runMigrations(sqlite);
    await withTransaction(sqlite, async (tx) => {
      for (const u of people) await runQuery(tx.insert(sqliteUsers).values(row(u)));
    });
    for (let i = 0; i < people.length; i += 500) await pgDb.insert(pgSchema.users).values(people.slice(i, i + 500).map(row));
  }, 60_000);

  afterAll(async () => {
    sqlite?.$client.close();
    await pool?.end();
    await cluster?.stop();
  });

  it(`find the same users for 400 random searches (seed ${SEED})`, async () => {
    const queries = generateQueries(random, people, 400);
    const { differences, found } = await compare(queries);
    expect(differences).toEqual([]);
    expect(found).toBeGreaterThan(200);
  }, 60_000);

  it('find the same users for the searches people type', async () => {
    const queries = [
      'Nguyễn Văn',
      'nguyen van',
      'NGUYEN',
      'ng',
      'n',
      'đặng',
      'Đ',
      'dang',
      'do duc',
      'Nguye\u0302\u0303n',
      'thuy',
      'thuỳ',
      'sv',
      'k1',
      'cntt',
      '66it',
      '66it1-',
      'hcmus.edu',
      'edu.vn',
      '@gmail',
      '+84',
      '(028)',
      '09',
      '...',
      '',
      '   ',
      'tran,thi',
      'tran thi tran',
    ];
    const { differences } = await compare(queries);
    expect(differences).toEqual([]);
  });

  it('follow updates and deletes as FTS5 does', async () => {
    const changed = people.filter((u) => u.id % 37 === 0);
    const renamed = changed.map((u) => ({ ...u, familyName: 'Đoàn', givenName: `Thị Nghiêng ${u.givenName}` }));
    for (const u of renamed) {
      await runQuery(sqlite.update(sqliteUsers).set(row(u)).where(eq(sqliteUsers.id, u.id)));
      await pgDb.update(pgSchema.users).set(row(u)).where(eq(pgSchema.users.id, u.id));
    }
    const gone = people.filter((u) => u.id % 41 === 0).map((u) => u.id);
    await runQuery(sqlite.delete(sqliteUsers).where(inArray(sqliteUsers.id, gone)));
    await pgDb.delete(pgSchema.users).where(inArray(pgSchema.users.id, gone));
    const after = people.filter((u) => !gone.includes(u.id)).map((u) => renamed.find((v) => v.id === u.id) ?? u);
    const { differences } = await compare(['doan', 'đoàn thị', 'nghieng', 'nghi', ...generateQueries(random, after, 100)]);
    expect(differences).toEqual([]);
    expect((await matchingUserIds(pgDb, ['doan', 'nghieng'])).length).toBe(renamed.filter((u) => !gone.includes(u.id)).length);
    // The renames' new word reached search_words, and a prefix is spelled out rather than left a prefix.
    expect(await expandedTsQuery(pgDb, ['nghi'])).toMatch(/^\(\((?:'\w+' \| )*'nghieng'(?: \| '\w+')*\)\)$/);
  }, 60_000);

  it('build the tsquery as ftsQuery builds the FTS5 query', () => {
    expect(tsQuery(['nguyen', 'van'])).toBe("('nguyen':*) & ('van':*)");
    expect(tsQuery(['quyet.nv@hcmus'])).toBe("('quyet' <-> 'nv' <-> 'hcmus':*)");
    expect(tsQuery(['an', '...'])).toBeNull();
  });
});
