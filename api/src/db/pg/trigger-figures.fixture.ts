/**
 * What the trigger tests compare (triggers.test.ts, trigger-pause.test.ts): every figures table, row by row
 * across engines, and recounts from the base tables alone in SQL both engines read alike.
 */
import { expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { openDb } from '../client';
import { runMigrations } from '../migrate';
import { syncUsersIndex } from '../../users/search';
import type { PgCluster } from '../../test/pg-server';

const migrationsFolder = fileURLToPath(new URL('../../../drizzle-pg', import.meta.url));

const REPORTS: Record<string, string> = {
  report_member_cells:
    'organization_id, membership_status, user_type, gender, ethnicity, joined_day, ended_day, end_reason, transfer_in, n',
  report_live_members: 'membership_id, organization_id, user_id',
};
export const FIGURES: Record<string, string> = {
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
export const REPORT_RECOUNTS = {
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
export const REPORT_FIGURED = {
  cells: `SELECT organization_id, membership_status, user_type, gender, ethnicity, joined_day, ended_day, end_reason, transfer_in, n
    FROM report_member_cells WHERE n <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9`,
  live: 'SELECT membership_id, organization_id, user_id FROM report_live_members ORDER BY 1',
};

/** Counts from the base tables alone, in SQL both engines read alike. */
export const RECOUNTS: Record<string, string> = {
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
export const FIGURED = {
  subtree: `SELECT o.id, coalesce(c.direct, 0), coalesce(c.subtree, 0) FROM organizations o
    LEFT JOIN organization_member_counts c ON c.organization_id = o.id ORDER BY 1`,
  facets: `SELECT organization_id, user_type, membership_status, sum(n) FROM user_facet_counts WHERE organization_id <> 0
    GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3`,
  fees: `SELECT campaign_id, assigned, expected FROM campaign_figures WHERE organization_id = 0 AND assigned <> 0 ORDER BY 1`,
  ...REPORT_FIGURED,
};

export const norm = (rows: unknown[][]) =>
  rows.map((r) => r.map((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : typeof v === 'boolean' ? Number(v) : v)));

export type Both = { sqlite: (text: string) => unknown[][]; pg: (text: string) => Promise<unknown[][]> };

/** The report tables equal their recount on each engine. */
export async function expectReportsRecounted(both: Both, when: string) {
  for (const kind of ['cells', 'live'] as const) {
    const [figured, recount] = [REPORT_FIGURED[kind], REPORT_RECOUNTS[kind]];
    expect({ [kind]: both.sqlite(figured) }, `SQLite ${when}`).toEqual({ [kind]: both.sqlite(recount) });
    expect({ [kind]: await both.pg(figured) }, `PostgreSQL ${when}`).toEqual({ [kind]: await both.pg(recount) });
  }
}

/** A migrated SQLite database and a migrated PostgreSQL database of the cluster, with one way to read both. */
export async function engines(cluster: PgCluster, name: string) {
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

/**
 * Each user's units in the users index, PostgreSQL's users_index.orgs (drizzle-pg 0007) as sorted
 * distinct ids, equal to a recount from the memberships and to member_scopes' rows (0008); with `sqlite`, each unit's indexed users
 * equal on both engines: an `orgs && ARRAY[unit]` walk and an FTS5 `orgs : o<unit>` match.
 */
export async function expectIndexedUnits(client: pg.Client, sqlite?: ReturnType<typeof openDb>) {
  const asMap = (rows: [number, number[]][]) =>
    Object.fromEntries(rows.map(([id, orgs]) => [id, [...new Set(orgs)].sort((a, b) => a - b)]));
  const { rows: indexed } = await client.query<[number, number[]]>({ text: 'SELECT id, orgs FROM users_index', rowMode: 'array' });
  const { rows: recounted } = await client.query<[number, number[]]>({
    text: 'SELECT user_id, orgs FROM figures.scope_orgs(ARRAY(SELECT id FROM users))',
    rowMode: 'array',
  });
  expect(indexed.length).toBeGreaterThan(0);
  expect(
    indexed.some(([, orgs]) => orgs.length > 1),
    'some user indexed under a unit and its ancestors',
  ).toBe(true);
  expect(asMap(indexed), 'users_index vs its memberships').toEqual(asMap(recounted));
  const pairs = async (text: string) => (await client.query({ text, rowMode: 'array' })).rows;
  expect(await pairs('SELECT organization_id, user_id FROM member_scopes ORDER BY 1, 2'), 'member_scopes vs users_index').toEqual(
    await pairs('SELECT DISTINCT unnest(orgs), id FROM users_index ORDER BY 1, 2'),
  );
  if (!sqlite) return;
  syncUsersIndex(sqlite);
  const units = sqlite.$client.prepare('SELECT id FROM organizations ORDER BY id').pluck().all() as number[];
  const match = sqlite.$client.prepare('SELECT rowid FROM users_fts WHERE users_fts MATCH ? ORDER BY rowid').pluck();
  const lite = Object.fromEntries(units.map((u) => [u, match.all(`orgs : o${u}`) as number[]]));
  const { rows } = await client.query<{ unit: number; ids: number[] }>(
    'SELECT u AS unit, ARRAY(SELECT id FROM users_index WHERE orgs && ARRAY[u] ORDER BY id) AS ids FROM unnest($1::int[]) u',
    [units],
  );
  expect(Object.fromEntries(rows.map((r) => [r.unit, r.ids])), 'PostgreSQL vs SQLite').toEqual(lite);
}
