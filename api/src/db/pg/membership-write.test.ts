/**
 * A membership written alone (the members screen, a transfer) reaches only its own user's rows: the figures'
 * functions (drizzle-pg 0025) probe users and payment_assignments by the users they were given, where 0018's joins
 * were planned as a hash of every user (the planner has no statistics for their temporary tables): 150–220 ms a
 * write at 100k users; figures.sync_scopes's users_index update likewise. Checked by the sequential scans the write
 * adds (pg_stat_xact_user_tables), on enough users that reading them all would be planned only by mistake.
 * The subtree counts and per-term figures are updated by their keys (drizzle-pg 0033), not by a scan of every unit's.
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { comparisonUnavailable } from '../../test/pg-server';
import { usePgCluster } from '../../test/pg-cluster';

const missing = comparisonUnavailable();
if (missing) console.warn(`Skipping the PostgreSQL membership write test: ${missing}`);

const migrationsFolder = fileURLToPath(new URL('../../../drizzle-pg', import.meta.url));

describe.skipIf(missing)('PostgreSQL: one membership write', () => {
  const cluster = usePgCluster();

  it('scans no table whole, adding or ending a membership, with its figures kept', async () => {
    const url = await cluster().createDatabase('membership_write');
    const migrating = new pg.Pool({ connectionString: url, max: 1 });
    await migrate(drizzle({ client: migrating, casing: 'snake_case' }), { migrationsFolder });
    await migrating.end();
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      await pool.query(
        `INSERT INTO organizations (id, name, code, type, path, created_at, updated_at) VALUES (1, 'Trường', 'root', 'doan_truong', '/1/', 0, 0),
         (2, 'Khoa', 'f', 'doan_co_so', '/1/2/', 0, 0), (3, 'Chi đoàn', 'u', 'chi_doan', '/1/2/3/', 0, 0)`,
      );
      await pool.query(`UPDATE organizations SET parent_id = 1 WHERE id = 2; UPDATE organizations SET parent_id = 2 WHERE id = 3`);
      await pool.query(
        `INSERT INTO users (code, family_name, given_name, email, user_type, membership_status, is_active, created_at, updated_at)
         SELECT 'SV' || i, 'Nguyễn', 'An', 'sv' || i || '@x.vn', 'student', 'doan_vien', true, 0, 0 FROM generate_series(1, 20000) i`,
      );
      await pool.query(
        `INSERT INTO organization_members (organization_id, user_id, joined_at) SELECT 3, id, 0 FROM users WHERE id % 2 = 0`,
      );
      // 3,000 more units with a member each: figures for every unit, too many to read for one write.
      await pool.query(
        `INSERT INTO organizations (id, name, code, type, parent_id, path, created_at, updated_at)
         SELECT i, 'Chi đoàn ' || i, 'u' || i, 'chi_doan', 2, '/1/2/' || i || '/', 0, 0 FROM generate_series(4, 3003) i`,
      );
      await pool.query(
        `INSERT INTO organization_members (organization_id, user_id, joined_at) SELECT 3 + id / 2, id, 0 FROM users WHERE id % 2 = 0 AND id <= 6000`,
      );
      await pool.query('VACUUM ANALYZE');
      const user = Number((await pool.query<{ id: number }>(`SELECT id FROM users WHERE id % 2 = 1 LIMIT 1`)).rows[0]!.id);
      const scanned = async (write: string) => {
        const c = await pool.connect();
        try {
          // The counts a backend has not flushed yet include its earlier transactions': the write's are the difference.
          const scans = async () =>
            new Map(
              (
                await c.query<{ relname: string; seq_scan: string }>(
                  `SELECT relname, seq_scan FROM pg_stat_xact_user_tables WHERE relname IN ('users', 'users_index', 'member_scopes', 'organization_members', 'organization_member_counts', 'member_figures')`,
                )
              ).rows.map((r) => [r.relname, Number(r.seq_scan)]),
            );
          await c.query('BEGIN');
          const before = await scans();
          await c.query(write);
          const after = await scans();
          await c.query('COMMIT');
          return [...after].filter(([t, n]) => n > (before.get(t) ?? 0)).map(([t]) => t);
        } finally {
          c.release();
        }
      };
      const members = async () =>
        Number(
          (await pool.query<{ members: number }>(`SELECT members FROM member_figures WHERE organization_id = 2 AND term_start = 0`))
            .rows[0]!.members,
        );
      const before = await members();
      expect(await scanned(`INSERT INTO organization_members (organization_id, user_id, joined_at) VALUES (3, ${user}, 0)`)).toEqual([]);
      expect(await members()).toBe(before + 1);
      expect(await scanned(`DELETE FROM organization_members WHERE user_id = ${user}`)).toEqual([]);
      expect(await members()).toBe(before);
    } finally {
      await pool.end();
    }
  }, 120_000);
});
