/**
 * The trigger-kept figures on PostgreSQL (drizzle-pg's figures migrations) agree with SQLite's row by
 * row: the same seeded random writes (trigger-ops.ts) run on a fresh database of each engine, then every
 * figures table is compared, and both are compared with a recount from the base tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { openDb } from '../client';
import { runMigrations } from '../migrate';
import { pgUnavailable, startPgCluster, type PgCluster } from '../../test/pg-cluster';
import { randomOps } from './trigger-ops';

const missing = pgUnavailable();
if (missing) console.warn(`Skipping the PostgreSQL trigger test: ${missing}`);

const migrationsFolder = fileURLToPath(new URL('../../../drizzle-pg', import.meta.url));

const FIGURES: Record<string, string> = {
  organization_member_counts: 'organization_id, direct, subtree',
  member_figures: 'organization_id, term_start, members, doan, hoi',
  unit_member_figures: 'organization_id, bucket, user_type, membership_status, n',
  user_facet_counts: 'organization_id, user_type, membership_status, is_active, n',
  campaign_figures:
    'campaign_id, organization_id, assigned, paid, test_paid, expected, collected, overdue_count, overdue_amount, pending_count, pending_amount',
  campaign_week_fees: 'campaign_id, week, assignment_id, orders, collected',
  campaign_weeks: 'campaign_id, week, payments, collected',
};

/** Counts from the base tables alone, in SQL both engines read alike. */
const RECOUNTS: Record<string, string> = {
  subtree: `SELECT o.id, (SELECT count(*) FROM organization_members m WHERE m.organization_id = o.id AND m.is_active = TRUE),
    (SELECT count(DISTINCT m.user_id) FROM organization_members m JOIN organizations x ON x.id = m.organization_id
      WHERE m.is_active = TRUE AND substr(x.path, 1, length(o.path)) = o.path) FROM organizations o ORDER BY 1`,
  facets: `SELECT o.id, u.user_type, u.membership_status, count(DISTINCT u.id) FROM organizations o, users u
    WHERE EXISTS (SELECT 1 FROM organization_members m JOIN organizations x ON x.id = m.organization_id
      WHERE m.user_id = u.id AND m.is_active = TRUE AND substr(x.path, 1, length(o.path)) = o.path)
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  fees: `SELECT a.campaign_id, count(*), sum(a.amount) FROM payment_assignments a GROUP BY 1 ORDER BY 1`,
};
const FIGURED = {
  subtree: `SELECT o.id, coalesce(c.direct, 0), coalesce(c.subtree, 0) FROM organizations o
    LEFT JOIN organization_member_counts c ON c.organization_id = o.id ORDER BY 1`,
  facets: `SELECT organization_id, user_type, membership_status, sum(n) FROM user_facet_counts WHERE organization_id <> 0
    GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3`,
  fees: `SELECT campaign_id, assigned, expected FROM campaign_figures WHERE organization_id = 0 AND assigned <> 0 ORDER BY 1`,
};

const norm = (rows: unknown[][]) =>
  rows.map((r) => r.map((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : typeof v === 'boolean' ? Number(v) : v)));

describe.skipIf(missing)('PostgreSQL figures triggers', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 30_000);
  afterAll(async () => {
    await cluster?.stop();
  });

  async function engines(name: string) {
    const sqlite = openDb(':memory:');
    runMigrations(sqlite);
    const client = new pg.Client({ connectionString: await cluster.createDatabase(name) });
    await client.connect();
    await migrate(drizzle({ client, casing: 'snake_case' }), { migrationsFolder });
    const both = {
      sqlite: (text: string) => norm(sqlite.$client.prepare(text).raw().all() as unknown[][]),
      pg: async (text: string) => norm((await client.query({ text, rowMode: 'array' })).rows as unknown[][]),
    };
    return { sqlite, client, both };
  }

  for (const seed of [1, 2, 3]) {
    it(`keep the same figures on both engines (seed ${seed})`, async () => {
      const { sqlite, client, both } = await engines(`figures_${seed}`);
      try {
        for (const op of randomOps(seed, 400)) {
          const [a, b] = [op('sqlite'), op('pg')];
          sqlite.$client.exec(a);
          await client.query(b);
        }
        for (const [table, columns] of Object.entries(FIGURES)) {
          const text = `SELECT ${columns} FROM ${table} ORDER BY ${columns}`;
          const [lite, post] = [both.sqlite(text), await both.pg(text)];
          expect(lite.length, table).toBeGreaterThan(0);
          expect({ [table]: post }).toEqual({ [table]: lite });
        }
        for (const [kind, text] of Object.entries(RECOUNTS)) {
          const figured = FIGURED[kind as keyof typeof FIGURED];
          expect({ [kind]: both.sqlite(figured) }).toEqual({ [kind]: both.sqlite(text) });
          expect({ [kind]: await both.pg(figured) }).toEqual({ [kind]: await both.pg(text) });
        }
      } finally {
        await client.end();
        sqlite.$client.close();
      }
    }, 60_000);
  }
});
