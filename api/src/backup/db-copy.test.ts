/**
 * db:copy on a real PostgreSQL 15 server (test/pg-cluster.ts): a seeded demo database arrives with
 * the same counts, the same trigger-kept figures and sign-ins that still verify; a non-empty
 * target is refused; identities continue after the copied ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { openDb } from '../db/client';
import { runMigrations } from '../db/migrate';
import { REPO_ROOT, testEnv } from '../env';
import { verifyPassword } from '../lib/passwords';
import { seed } from '../seed/seed';
import { comparisonUnavailable, startPgCluster, type PgCluster } from '../test/pg-server';
import { norm, REPORT_FIGURED, REPORT_RECOUNTS } from '../db/pg/trigger-figures.fixture';
import { copySqliteToPg, tablesInKeyOrder, type CopySummary } from './db-copy';
import { verifyCopy } from './db-copy-verify';

const missing = comparisonUnavailable();
if (missing) console.warn(`Skipping the db:copy test: ${missing}`);

const FIGURES = [
  'organization_member_counts',
  'member_figures',
  'unit_member_figures',
  'campaign_figures',
  'campaign_weeks',
  'user_facet_counts',
  'report_member_cells',
  'report_live_members',
];

describe.skipIf(missing)('db:copy', () => {
  let cluster: PgCluster;
  let dir: string;
  let file: string;
  let url: string;
  let summary: CopySummary;
  let client: pg.Client;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doanhoi-copy-'));
    file = join(dir, 'app.db');
    const db = openDb(file);
    runMigrations(db);
    await seed(db, testEnv({ SEED_DEMO: 'true' }));
    db.$client.close();
    cluster = await startPgCluster();
    url = await cluster.createDatabase('copy_test');
    summary = await copySqliteToPg(file, url);
    client = new pg.Client({ connectionString: url });
    await client.connect();
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table with the same row counts, and skips SQLite-only tables with a note', async () => {
    const sqlite = openDb(file).$client;
    try {
      for (const t of summary.tables) {
        const n = (sqlite.prepare(`SELECT count(*) AS n FROM "${t.name}"`).get() as { n: number }).n;
        const { rows } = await client.query(`SELECT count(*)::int AS n FROM ${pg.escapeIdentifier(t.name)}`);
        expect({ [t.name]: rows[0].n }).toEqual({ [t.name]: n });
        expect(t.rows).toBe(n);
      }
    } finally {
      sqlite.close();
    }
    const byName = Object.fromEntries(summary.tables.map((t) => [t.name, t.rows]));
    expect(byName.users).toBeGreaterThan(20);
    expect(byName.payment_orders).toBeGreaterThan(0);
    expect(summary.skipped.map((s) => s.name)).toEqual(expect.arrayContaining(['cache_versions', 'users_fts', 'users_fts_pending']));
    expect(summary.checks.every((c) => c.ok)).toBe(true);
    expect(summary.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining(['users checksum', 'payment_orders checksum', 'member_figures checksum']),
    );
  });

  it('keeps the trigger-kept figures and the money identical', async () => {
    const sqlite = openDb(file).$client;
    try {
      for (const table of FIGURES) {
        const a = sqlite.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[];
        const { rows: b } = await client.query(`SELECT * FROM ${pg.escapeIdentifier(table)}`);
        const norm = (rows: Record<string, unknown>[]) =>
          rows
            .map((r) =>
              JSON.stringify(
                Object.entries(r)
                  .map(([k, v]) => [k, v === null ? null : String(v)])
                  .sort(),
              ),
            )
            .sort();
        expect({ [table]: norm(b) }).toEqual({ [table]: norm(a) });
      }
      const sum = (sqlite.prepare(`SELECT coalesce(sum(amount), 0) AS s FROM payment_orders WHERE status = 'PAID'`).get() as { s: number })
        .s;
      const { rows } = await client.query(`SELECT coalesce(sum(amount), 0) AS s FROM payment_orders WHERE status = 'PAID'`);
      expect(Number(rows[0].s)).toBe(sum);
      expect(sum).toBeGreaterThan(0);
    } finally {
      sqlite.close();
    }
  });

  it('moves the copied report figures from what they count: a membership change after the copy keeps them equal to a recount', async () => {
    await client.query('BEGIN');
    try {
      const { rows } = await client.query(
        `SELECT m.user_id FROM organization_members m JOIN organizations x ON x.id = m.organization_id
        WHERE m.is_active AND NOT EXISTS (SELECT 1 FROM organizations c WHERE c.parent_id = x.id) ORDER BY m.id LIMIT 1`,
      );
      expect(rows.length).toBe(1);
      await client.query(
        `UPDATE organization_members SET is_active = false, ended_at = 1767225600000, end_reason = 'graduated' WHERE user_id = $1`,
        [rows[0].user_id],
      );
      await client.query(`UPDATE users SET gender = 'female' WHERE id = $1`, [rows[0].user_id]);
      const read = async (text: string) => norm((await client.query({ text, rowMode: 'array' })).rows as unknown[][]);
      for (const kind of ['cells', 'live'] as const) {
        expect({ [kind]: await read(REPORT_FIGURED[kind]) }).toEqual({ [kind]: await read(REPORT_RECOUNTS[kind]) });
      }
    } finally {
      await client.query('ROLLBACK');
    }
  });

  it('keeps sign-ins: the admin password still verifies against the copied hash', async () => {
    const { rows } = await client.query(`SELECT password_hash FROM users WHERE email = 'admin@doanhoi.local'`);
    expect(await verifyPassword(rows[0].password_hash, 'admin123')).toBe(true);
    expect(await verifyPassword(rows[0].password_hash, 'admin124')).toBe(false);
  });

  it('turns SQLite 0/1 into booleans and continues identities after the copied ids', async () => {
    const { rows: flags } = await client.query(`SELECT count(*)::int AS n FROM users WHERE is_active`);
    const sqlite = openDb(file).$client;
    const active = (sqlite.prepare(`SELECT count(*) AS n FROM users WHERE is_active = 1`).get() as { n: number }).n;
    const maxId = (sqlite.prepare(`SELECT max(id) AS m FROM organizations`).get() as { m: number }).m;
    sqlite.close();
    expect(flags[0].n).toBe(active);
    await client.query('BEGIN');
    const { rows } = await client.query(
      `INSERT INTO organizations (name, code, type, created_at, updated_at) VALUES ('Mới', 'moi', 'chi_doan', 0, 0) RETURNING id`,
    );
    await client.query('ROLLBACK');
    expect(rows[0].id).toBe(maxId + 1);
  });

  it('notices a changed password hash, a changed figure and a missing row', async () => {
    const sqlite = new Database(file, { readonly: true });
    await client.query('BEGIN');
    try {
      await client.query(`UPDATE users SET password_hash = 'x' WHERE id = (SELECT min(id) FROM users WHERE password_hash IS NOT NULL)`);
      await client.query(`UPDATE member_figures SET members = members + 1 WHERE ctid = (SELECT min(ctid) FROM member_figures)`);
      await client.query(`DELETE FROM payment_transactions`);
      await client.query(`DELETE FROM refresh_tokens`);
      await client.query(`DELETE FROM payment_orders WHERE id = (SELECT max(id) FROM payment_orders)`);
      const failed = (await verifyCopy(sqlite, client, tablesInKeyOrder())).filter((c) => !c.ok).map((c) => c.name);
      expect(failed).toEqual(
        expect.arrayContaining(['users checksum', 'member_figures checksum', 'payment_orders rows', 'payment_orders checksum']),
      );
    } finally {
      await client.query('ROLLBACK');
      sqlite.close();
    }
  });

  it('refuses a SQLite file a running server holds (its deployment lock), copying nothing', async () => {
    const other = await cluster.createDatabase('copy_locked');
    // The copy in beforeAll released the lock it took: a server can start on the file again.
    expect(existsSync(`${file}.lock`)).toBe(false);
    // A lock naming a live process: this test's parent.
    writeFileSync(`${file}.lock`, String(process.ppid));
    try {
      await expect(copySqliteToPg(file, other)).rejects.toThrow(
        /Another server process \(pid \d+\) is already using .* Nothing was copied\./,
      );
    } finally {
      rmSync(`${file}.lock`, { force: true });
    }
    const target = new pg.Client({ connectionString: other });
    await target.connect();
    const { rows } = await target.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'`);
    await target.end();
    expect(rows[0].n).toBe(0);
  });

  it('refuses a target that already holds rows, through npm run db:copy, with exit 1', async () => {
    const run = promisify(execFile);
    const failure = await run('node', ['--import', 'tsx', 'scripts/db-copy.mjs', file, url], { cwd: REPO_ROOT }).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toMatch(/not empty \(.*users.*\)/);
    const { rows } = await client.query(`SELECT count(*)::int AS n FROM users`);
    expect(rows[0].n).toBe(summary.tables.find((t) => t.name === 'users')!.rows);
  }, 60_000);
});
