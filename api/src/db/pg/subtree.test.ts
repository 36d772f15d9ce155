/**
 * Permission scoping's subtree ranges (access/scope.ts subtreeRange: path >= "/1/5/" AND path <
 * "/1/50") return the same organizations on PostgreSQL as on SQLite, in a database whose default
 * collation is a locale's. This machine has no en_US.UTF-8 (`locale -a`: C, C.utf8, POSIX), so
 * the database takes ICU's en-US with punctuation ignorable (-u-ka-shifted), which orders as
 * glibc's en_US does: "/1/5/7/" sorts after "/1/50" there, and the subtree of /1/5/ would lose it.
 * organizations.path is COLLATE "C" (db/pg/columns.ts byteText), so the range stays a byte range.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { and, gte, lt, sql, type SQL } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { comparisonUnavailable, startPgCluster, type PgCluster } from '../../test/pg-server';
import { seeded } from '../../test/search-data';
import { subtreeRange } from '../../access/scope';
import { openDb, type Db } from '../client';
import { runMigrations } from '../migrate';
import { organizations as sqliteOrganizations } from '../tables/organizations';
import * as pgSchema from './schema';
import { allRows, runQuery } from '../engine';

const missing = comparisonUnavailable();
if (missing) console.warn(`Skipping the PostgreSQL subtree test: ${missing}`);

const migrationsFolder = fileURLToPath(new URL('../../../drizzle-pg', import.meta.url));
const LOCALE = 'en-US-u-ka-shifted';

interface Org {
  id: number;
  parentId: number | null;
  path: string;
}

/** A random tree whose ids share leading digits (5, 50, 507, 1, 12…), so sibling and descendant paths interleave. */
function tree(count: number): Org[] {
  const random = seeded(29_03);
  const ids = new Set<number>();
  while (ids.size < count) {
    const digits = Array.from({ length: Math.floor(random() * 4) }, () => Math.floor(random() * 10)).join('');
    ids.add(Number(`${random() < 0.5 ? 1 : 5}${digits}`));
  }
  const orgs: Org[] = [];
  for (const id of ids) {
    const parent = orgs.length === 0 || random() < 0.05 ? null : orgs[Math.floor(random() * orgs.length)]!;
    orgs.push({ id, parentId: parent?.id ?? null, path: `${parent?.path ?? '/'}${id}/` });
  }
  return orgs;
}

describe.skipIf(missing)('Subtree ranges on PostgreSQL under a locale collation', () => {
  let cluster: PgCluster;
  let pool: pg.Pool;
  let pgDb: NodePgDatabase<typeof pgSchema>;
  let sqlite: Db;
  const orgs = tree(300);
  const row = (o: Org) => ({ ...o, name: `Chi đoàn ${o.id}`, code: `cd${o.id}`, type: 'chi_doan' as const });

  const pgSubtree = async (path: string, column: SQL = sql`${pgSchema.organizations.path}`) => {
    const [from, to] = subtreeRange(path);
    const rows = await pgDb
      .select({ id: pgSchema.organizations.id })
      .from(pgSchema.organizations)
      .where(sql`${column} >= ${from} AND ${column} < ${to}`)
      .orderBy(pgSchema.organizations.id);
    return rows.map((r) => r.id);
  };

  beforeAll(async () => {
    cluster = await startPgCluster();
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE subtree_test TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${LOCALE}'`);
    await admin.end();
    pool = new pg.Pool({ connectionString: cluster.url('subtree_test'), max: 2 });
    pgDb = drizzle({ client: pool, casing: 'snake_case', schema: pgSchema });
    await migrate(pgDb, { migrationsFolder });
    sqlite = openDb(':memory:');
    runMigrations(sqlite);
    // Parents first: both engines check the parent key.
    for (const o of orgs) {
      await runQuery(sqlite.insert(sqliteOrganizations).values(row(o)));
      await pgDb.insert(pgSchema.organizations).values(row(o));
    }
  }, 60_000);

  afterAll(async () => {
    sqlite?.$client.close();
    await pool?.end();
    await cluster?.stop();
  });

  it('runs in a database whose default collation is not byte order', async () => {
    const { rows } = await pool.query(
      `SELECT d.daticulocale AS locale, '/1/5/7/' < '/1/50' AS locale_order, '/1/5/7/' < '/1/50' COLLATE "C" AS byte_order
       FROM pg_database d WHERE d.datname = current_database()`,
    );
    expect(rows).toEqual([{ locale: LOCALE, locale_order: false, byte_order: true }]);
  });

  it('returns every subtree as SQLite does, and as the paths say', async () => {
    let lostUnderLocale = 0;
    for (const o of orgs) {
      const expected = orgs
        .filter((d) => d.path.startsWith(o.path))
        .map((d) => d.id)
        .sort((a, b) => a - b);
      const [from, to] = subtreeRange(o.path);
      const onSqlite = (
        await allRows(
          sqlite
            .select({ id: sqliteOrganizations.id })
            .from(sqliteOrganizations)
            .where(and(gte(sqliteOrganizations.path, from), lt(sqliteOrganizations.path, to)))
            .orderBy(sqliteOrganizations.id),
        )
      ).map((r) => r.id);
      expect({ path: o.path, ids: onSqlite }).toEqual({ path: o.path, ids: expected });
      expect({ path: o.path, ids: await pgSubtree(o.path) }).toEqual({ path: o.path, ids: expected });
      const underLocale = await pgSubtree(o.path, sql`(${pgSchema.organizations.path} COLLATE "default")`);
      if (underLocale.join() !== expected.join()) lostUnderLocale++;
    }
    // The same range on the locale's order gets subtrees wrong: the tree above would catch a path column without COLLATE "C".
    expect(lostUnderLocale).toBeGreaterThan(10);
  }, 60_000);

  it('seeks the subtree on the path index', async () => {
    const client = await pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const [from, to] = subtreeRange(orgs[0]!.path);
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT id FROM organizations WHERE path >= $1 AND path < $2`, [
        from,
        to,
      ]);
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('organizations_path_idx');
    } finally {
      client.release();
    }
  });
});
