/**
 * Migration 0037 (issue 26 item 9): figures kept before it counted sandbox-settled fees as paid;
 * after it they count in test_paid, for the whole campaign and every unit above the member.
 */
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const folder = resolve(__dirname, '../../drizzle');
const dir = mkdtempSync(join(tmpdir(), 'figures-0037-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 0037 campaign_figures.test_paid', () => {
  it('moves sandbox-settled fees already counted from paid to test_paid', () => {
    // The migrations before 0037 first, with the data they kept, then 0037 itself.
    const before = join(dir, 'before');
    cpSync(folder, before, { recursive: true });
    const journalPath = join(before, 'meta/_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === '0037_campaign_figures_test_paid');
    expect(at).toBeGreaterThan(0);
    writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    const c = new Database(join(dir, 'app.db'));
    migrate(drizzle(c), { migrationsFolder: before });

    const now = Date.now();
    c.prepare(
      "INSERT INTO organizations (id, name, code, type, parent_id, path, created_at, updated_at) VALUES (1, 'Trường', 'T', 'doan_truong', NULL, '/1/', ?, ?), (2, 'Khoa', 'K', 'doan_co_so', 1, '/1/2/', ?, ?)",
    ).run(now, now, now, now);
    const user = c.prepare('INSERT INTO users (code, family_name, given_name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
    for (let i = 1; i <= 3; i++) user.run(`U${i}`, 'Nguyễn', `An ${i}`, `u${i}@x.vn`, now, now);
    c.prepare('INSERT INTO organization_members (organization_id, user_id, joined_at) VALUES (2, 1, ?), (2, 2, ?), (1, 3, ?)').run(
      now,
      now,
      now,
    );
    c.prepare(
      "INSERT INTO payment_campaigns (id, organization_id, name, start_date, end_date, created_at, updated_at) VALUES (1, 1, 'Đợt', ?, ?, ?, ?)",
    ).run(now, now + 86_400_000, now, now);
    c.prepare("INSERT INTO fee_levels (id, campaign_id, level_name, amount, created_at, updated_at) VALUES (1, 1, 'Mức', 50000, ?, ?)").run(
      now,
      now,
    );
    const fee = c.prepare(
      "INSERT INTO payment_assignments (campaign_id, user_id, fee_level_id, amount, status, paid_amount, is_test_payment, created_at, updated_at) VALUES (1, ?, 1, 50000, 'PAID', 50000, ?, ?, ?)",
    );
    fee.run(1, 1, now, now); // sandbox-settled
    fee.run(2, 0, now, now); // real money
    fee.run(3, 1, now, now); // sandbox-settled, at the school only
    const figures = () =>
      c.prepare('SELECT * FROM campaign_figures ORDER BY organization_id').all() as {
        organization_id: number;
        paid: number;
        test_paid?: number;
        collected: number;
      }[];
    expect(figures().map((r) => [r.organization_id, r.paid])).toEqual([
      [0, 3],
      [1, 3],
      [2, 2],
    ]);

    migrate(drizzle(c), { migrationsFolder: folder });
    expect(figures().map((r) => [r.organization_id, r.paid, r.test_paid, r.collected])).toEqual([
      [0, 1, 2, 50_000],
      [1, 1, 2, 50_000],
      [2, 1, 1, 50_000],
    ]);
    // And the new triggers keep them: the real payment reversed to pending, a sandbox one to real.
    c.prepare("UPDATE payment_assignments SET status = 'PENDING', paid_amount = 0 WHERE user_id = 2").run();
    c.prepare('UPDATE payment_assignments SET is_test_payment = 0 WHERE user_id = 1').run();
    expect(figures().map((r) => [r.organization_id, r.paid, r.test_paid])).toEqual([
      [0, 1, 1],
      [1, 1, 1],
      [2, 1, 0],
    ]);
    c.close();
  });
});
