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

const REPORTS: Record<string, string> = {
  report_member_cells:
    'organization_id, membership_status, user_type, gender, ethnicity, joined_day, ended_day, end_reason, transfer_in, n',
  report_live_members: 'membership_id, organization_id, user_id',
};
const FIGURES: Record<string, string> = {
  organization_member_counts: 'organization_id, direct, subtree',
  member_figures: 'organization_id, term_start, members, doan, hoi',
  unit_member_figures: 'organization_id, bucket, user_type, membership_status, n',
  user_facet_counts: 'organization_id, user_type, membership_status, is_active, n',
  campaign_figures:
    'campaign_id, organization_id, assigned, paid, test_paid, expected, collected, overdue_count, overdue_amount, pending_count, pending_amount',
  campaign_week_fees: 'campaign_id, week, assignment_id, orders, collected',
  campaign_weeks: 'campaign_id, week, payments, collected',
  ...REPORTS,
};

const VALID = '(CASE WHEN m.is_active = TRUE THEN m.ended_at IS NULL ELSE m.ended_at IS NOT NULL END)';
const DAY_OF = (at: string) => `(${at} + 25200000) / 86400000`;
/** The report's rules (reports/cells.test.ts) from the base tables alone. */
const REPORT_RECOUNTS = {
  cells: `SELECT o.id, u.membership_status, u.user_type, coalesce(u.gender, ''), coalesce(u.ethnicity, ''), ${DAY_OF('m.joined_at')},
      coalesce(${DAY_OF('m.ended_at')}, 0), CASE WHEN m.ended_at IS NULL THEN '' ELSE coalesce(m.end_reason, 'other') END,
      CASE WHEN EXISTS (SELECT 1 FROM transfers t WHERE t.user_id = m.user_id AND t.to_organization_id = m.organization_id AND t.status = 'ACCEPTED') THEN 1 ELSE 0 END,
      count(*)
    FROM organization_members m JOIN organizations x ON x.id = m.organization_id JOIN users u ON u.id = m.user_id
      JOIN organizations o ON substr(x.path, 1, length(o.path)) = o.path
    WHERE ${VALID} AND NOT EXISTS (SELECT 1 FROM organizations k WHERE k.parent_id = x.id)
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9`,
  live: `SELECT m.id, m.organization_id, m.user_id FROM organization_members m JOIN organizations x ON x.id = m.organization_id
    WHERE ${VALID} AND EXISTS (SELECT 1 FROM organizations k WHERE k.parent_id = x.id)
      AND NOT EXISTS (SELECT 1 FROM organization_members d JOIN organizations od ON od.id = d.organization_id
        WHERE d.user_id = m.user_id AND d.id <> m.id AND substr(od.path, 1, length(x.path)) = x.path AND od.path <> x.path
          AND ${VALID.replaceAll('m.', 'd.')} AND ${DAY_OF('d.joined_at')} <= ${DAY_OF('m.joined_at')}
          AND (d.ended_at IS NULL OR (m.ended_at IS NOT NULL AND ${DAY_OF('d.ended_at')} >= ${DAY_OF('m.ended_at')})))
    ORDER BY 1`,
};
const REPORT_FIGURED = {
  cells: `SELECT organization_id, membership_status, user_type, gender, ethnicity, joined_day, ended_day, end_reason, transfer_in, n
    FROM report_member_cells WHERE n <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9`,
  live: 'SELECT membership_id, organization_id, user_id FROM report_live_members ORDER BY 1',
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
  ...REPORT_RECOUNTS,
};
const FIGURED = {
  subtree: `SELECT o.id, coalesce(c.direct, 0), coalesce(c.subtree, 0) FROM organizations o
    LEFT JOIN organization_member_counts c ON c.organization_id = o.id ORDER BY 1`,
  facets: `SELECT organization_id, user_type, membership_status, sum(n) FROM user_facet_counts WHERE organization_id <> 0
    GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3`,
  fees: `SELECT campaign_id, assigned, expected FROM campaign_figures WHERE organization_id = 0 AND assigned <> 0 ORDER BY 1`,
  ...REPORT_FIGURED,
};

const norm = (rows: unknown[][]) =>
  rows.map((r) => r.map((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : typeof v === 'boolean' ? Number(v) : v)));

type Both = { sqlite: (text: string) => unknown[][]; pg: (text: string) => Promise<unknown[][]> };

/** The report tables equal their recount on each engine. */
async function expectReportsRecounted(both: Both, when: string) {
  for (const kind of ['cells', 'live'] as const) {
    const [figured, recount] = [REPORT_FIGURED[kind], REPORT_RECOUNTS[kind]];
    expect({ [kind]: both.sqlite(figured) }, `SQLite ${when}`).toEqual({ [kind]: both.sqlite(recount) });
    expect({ [kind]: await both.pg(figured) }, `PostgreSQL ${when}`).toEqual({ [kind]: await both.pg(recount) });
  }
}

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
    const both: Both = {
      sqlite: (text: string) => norm(sqlite.$client.prepare(text).raw().all() as unknown[][]),
      pg: async (text: string) => norm((await client.query({ text, rowMode: 'array' })).rows as unknown[][]),
    };
    return { sqlite, client, both };
  }

  for (const seed of [1, 2, 3]) {
    it(`keep the same figures on both engines (seed ${seed})`, async () => {
      const { sqlite, client, both } = await engines(`figures_${seed}`);
      try {
        let checks = 0;
        for (const op of randomOps(seed, 400)) {
          const [a, b] = [op('sqlite'), op('pg')];
          sqlite.$client.exec(a);
          await client.query(b);
          if (op.check) {
            checks++;
            await expectReportsRecounted(both, `after ${b}`);
          }
        }
        expect(checks).toBeGreaterThan(20);
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
