/**
 * The generated PostgreSQL migrations (api/drizzle-pg) applied by drizzle's node-postgres migrator
 * to a fresh database on a real PostgreSQL 15 server (test/pg-cluster.ts) create every table of the
 * pg set with its indexes, and the term column agrees with SQLite's at the term boundaries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { is, sql } from 'drizzle-orm';
import { drizzle as sqliteDrizzle } from 'drizzle-orm/better-sqlite3';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { comparisonUnavailable, startPgCluster, type PgCluster } from '../../test/pg-server';
import { sqliteTermStartSql } from '../term';
import * as pgSchema from './schema';
import { MEMBER_SCOPES, SEARCH_WORDS, USERS_INDEX } from './search';
import { sqlGet } from '../engine';
import { mapInOrder } from '../../lib/in-order';

const missing = comparisonUnavailable();
if (missing) console.warn(`Skipping the PostgreSQL migration test: ${missing}`);

const migrationsFolder = fileURLToPath(new URL('../../../drizzle-pg', import.meta.url));
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** The search and scope tables only PostgreSQL has (db/pg/search.ts), as FTS5's tables are SQLite's own. */
const engineOnly = new Set([USERS_INDEX, MEMBER_SCOPES, SEARCH_WORDS]);
/**
 * Indexes only PostgreSQL's migrations create on tables both engines declare, with their definitions: drizzle
 * declares no INCLUDE column, and the engines' tables declare the same indexes (parity.test).
 */
const engineOnlyIndexes: Record<string, string> = {
  users_type_status_idx:
    'CREATE INDEX users_type_status_idx ON public.users USING btree (user_type, membership_status, id) INCLUDE (is_active)',
};

describe.skipIf(missing)('PostgreSQL migrations', () => {
  let cluster: PgCluster;
  let pool: pg.Pool;

  beforeAll(async () => {
    cluster = await startPgCluster();
    pool = new pg.Pool({ connectionString: await cluster.createDatabase('migrate_test'), max: 2 });
    await migrate(drizzle({ client: pool, casing: 'snake_case' }), { migrationsFolder });
  }, 30_000);

  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  it('create every table with its columns and indexes', async () => {
    const { rows: columns } = await pool.query<{ table_name: string; column_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const { rows: indexes } = await pool.query<{ tablename: string; indexname: string; indexdef: string; primary: boolean }>(
      `SELECT t.relname AS tablename, i.relname AS indexname, pg_get_indexdef(i.oid) AS indexdef, x.indisprimary AS primary
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 'public'`,
    );
    const { rows: keyColumns } = await pool.query<{ table_name: string; column_name: string }>(
      `SELECT c.conrelid::regclass::text AS table_name, a.attname AS column_name FROM pg_constraint c
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey) WHERE c.contype = 'p'`,
    );
    const primaryKeys = new Map<string, string[]>();
    for (const k of keyColumns) primaryKeys.set(k.table_name, [...(primaryKeys.get(k.table_name) ?? []), k.column_name].sort());
    const tables = Object.values(pgSchema).filter((t) => is(t, PgTable));
    expect(tables.length).toBeGreaterThan(40);
    const names = tables.map((t) => getTableConfig(t).name).sort();
    expect([...new Set(columns.map((c) => c.table_name))].filter((t) => !engineOnly.has(t)).sort()).toEqual(names);
    expect(indexes.filter((i) => i.indexname in engineOnlyIndexes).length).toBe(Object.keys(engineOnlyIndexes).length);
    // Words and units under one GIN index: a scoped search is one index walk.
    expect(indexes.find((i) => i.tablename === USERS_INDEX && !i.primary)?.indexdef).toMatch(/USING gin \(search_vector, orgs\)/);
    for (const table of tables) {
      const config = getTableConfig(table);
      const expectedColumns = config.columns.map((c) => `${snake(c.name)} ${c.notNull ? 'NO' : 'YES'}`).sort();
      const actualColumns = columns
        .filter((c) => c.table_name === config.name)
        .map((c) => `${c.column_name} ${c.is_nullable}`)
        .sort();
      expect({ [config.name]: actualColumns }).toEqual({ [config.name]: expectedColumns });
      const actualIndexes = indexes.filter((i) => i.tablename === config.name);
      for (const { config: ix } of config.indexes) {
        const found = actualIndexes.find((i) => i.indexname === ix.name);
        expect(found, `${config.name}.${ix.name}`).toBeDefined();
        expect(found!.indexdef.startsWith(ix.unique ? 'CREATE UNIQUE INDEX' : 'CREATE INDEX'), found!.indexdef).toBe(true);
      }
      const declared = config.indexes.map((i) => i.config.name);
      for (const i of actualIndexes.filter((i) => i.indexname in engineOnlyIndexes))
        expect(i.indexdef).toBe(engineOnlyIndexes[i.indexname]);
      expect(
        actualIndexes
          .filter((i) => !i.primary && !(i.indexname in engineOnlyIndexes))
          .map((i) => i.indexname)
          .sort(),
      ).toEqual(declared.sort());
      // The primary key, with the columns the table declares.
      const key = config.primaryKeys[0]?.columns ?? config.columns.filter((c) => c.primary);
      expect({ [config.name]: primaryKeys.get(config.name) ?? [] }).toEqual({ [config.name]: key.map((c) => snake(c.name)).sort() });
    }
  });

  it('round-trip rows through drizzle as SQLite hands them over', async () => {
    const db = drizzle({ client: pool, casing: 'snake_case', schema: pgSchema });
    const at = new Date(Date.UTC(2026, 10, 27, 3, 4, 5, 678));
    const [org] = await db
      .insert(pgSchema.organizations)
      .values({ name: 'Đoàn trường', code: 'dt', type: 'doan_truong', path: '/1/' })
      .returning();
    const [campaign] = await db
      .insert(pgSchema.paymentCampaigns)
      .values({ organizationId: org.id, name: 'Đoàn phí', startDate: at, endDate: new Date(at.getTime() + 86_400_000) })
      .returning();
    // A national subtree's money passes 2^31 VND; it comes back a number, not node-postgres's int8 string.
    await db.insert(pgSchema.campaignFigures).values({ campaignId: campaign.id, organizationId: 0, collected: 24_000 * 1_000_000 });
    const read = await db.query.paymentCampaigns.findFirst({ where: (c, { eq }) => eq(c.id, campaign.id) });
    expect(read?.startDate).toEqual(at);
    expect(read?.createdAt).toBeInstanceOf(Date);
    expect(org.createdAt).toBeInstanceOf(Date);
    const figures = await db.select().from(pgSchema.campaignFigures);
    expect(figures[0].collected).toBe(24_000_000_000);
    const { rows } = await pool.query(`SELECT start_date FROM payment_campaigns WHERE id = $1`, [campaign.id]);
    expect(Number(rows[0].start_date)).toBe(at.getTime());
    const [department] = await db.insert(pgSchema.departments).values({ name: 'CNTT' }).returning();
    expect(department.isActive).toBe(true);
  });

  it('keep subtree paths in byte order whatever the locale', async () => {
    const { rows } = await pool.query(
      `SELECT collation_name FROM information_schema.columns WHERE table_name = 'organizations' AND column_name = 'path'`,
    );
    expect(rows).toEqual([{ collation_name: 'C' }]);
  });

  it('compute the term a membership began in as SQLite does', async () => {
    // Vietnam-time term starts (UTC+7): 1 Sep, 1 Feb, 1 Jul; January belongs to the previous September's term.
    const vn = (y: number, m: number, d: number, h = 0, min = 0) => Date.UTC(y, m - 1, d, h - 7, min);
    const cases = [
      [vn(2025, 9, 1), vn(2025, 9, 1)],
      [vn(2025, 9, 1) - 1, vn(2025, 7, 1)],
      [vn(2026, 1, 31, 23, 59), vn(2025, 9, 1)],
      [vn(2026, 2, 1), vn(2026, 2, 1)],
      [vn(2026, 6, 30, 23, 59), vn(2026, 2, 1)],
      [vn(2026, 7, 1), vn(2026, 7, 1)],
      [vn(2026, 8, 31, 12), vn(2026, 7, 1)],
    ];
    await pool.query(
      `INSERT INTO users (code, family_name, given_name, email, created_at, updated_at) VALUES ('u', 'A', 'B', 'u@x', 0, 0)`,
    );
    await pool.query(
      `INSERT INTO organizations (name, code, type, created_at, updated_at) VALUES ('O', 'o', 'chi_doan', 0, 0), ('P', 'p', 'chi_doan', 0, 0),
       ('Q', 'q', 'chi_doan', 0, 0), ('R', 'r', 'chi_doan', 0, 0), ('S', 's', 'chi_doan', 0, 0), ('T', 't', 'chi_doan', 0, 0), ('U', 'u', 'chi_doan', 0, 0)`,
    );
    const { rows: orgs } = await pool.query<{ id: number }>(`SELECT id FROM organizations ORDER BY id`);
    for (const [i, [joined]] of cases.entries()) {
      await pool.query(`INSERT INTO organization_members (organization_id, user_id, joined_at) VALUES ($1, (SELECT id FROM users), $2)`, [
        orgs[i].id,
        joined,
      ]);
    }
    const { rows } = await pool.query<{ joined_at: string; joined_term: string }>(
      `SELECT joined_at, joined_term FROM organization_members ORDER BY id`,
    );
    expect(rows.map((r) => [Number(r.joined_at), Number(r.joined_term)])).toEqual(cases);
    const sqlite = sqliteDrizzle(new Database(':memory:'));
    const sqliteTerms = await mapInOrder(
      cases,
      async ([joined]) => (await sqlGet<{ t: number }>(sqlite, sql`SELECT ${sqliteTermStartSql(sql`${joined}`)} AS t`)).t,
    );
    expect(sqliteTerms).toEqual(cases.map(([, term]) => term));
  });
});
