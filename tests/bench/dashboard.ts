/**
 * Dashboard figures on the bench database (issue 15.1: < 50 ms each): one ACTIVE campaign of the
 * Đoàn Trường with a fee for every member beneath it (~48k), 40 % paid over the last weeks, added
 * once, and a faculty admin holding the default org_admin role on one faculty.
 */
import { hashPassword } from '../../api/src/lib/passwords';
import { openDb } from '../../api/src/db/client';

export const DASHBOARD_ADMIN = { email: 'dash-faculty@bench.vn', password: 'bench-dash-123' };

export async function prepareDashboard(dbPath: string): Promise<{ rootId: number; facultyId: number; campaignId: number }> {
  const db = openDb(dbPath);
  const c = db.$client;
  const org = (code: string) => c.prepare('SELECT id, path FROM organizations WHERE code = ?').get(code) as { id: number; path: string };
  const root = org('DT');
  const faculty = org('DCS3');
  let campaignId = c.prepare("SELECT id FROM payment_campaigns WHERE name = 'Bench đoàn phí'").pluck().get() as number | undefined;
  if (!campaignId) {
    const now = Date.now();
    const hash = await hashPassword(DASHBOARD_ADMIN.password);
    c.transaction(() => {
      campaignId = Number(
        c
          .prepare(
            "INSERT INTO payment_campaigns (organization_id, name, start_date, end_date, status, created_at, updated_at) VALUES (?, 'Bench đoàn phí', ?, ?, 'ACTIVE', ?, ?)",
          )
          .run(root.id, now - 60 * 86_400_000, now + 60 * 86_400_000, now, now).lastInsertRowid,
      );
      const level = Number(
        c
          .prepare("INSERT INTO fee_levels (campaign_id, level_name, amount, created_at, updated_at) VALUES (?, 'Chuẩn', 60000, ?, ?)")
          .run(campaignId, now, now).lastInsertRowid,
      );
      const members = c
        .prepare(
          'SELECT DISTINCT m.user_id FROM organization_members m JOIN organizations o ON o.id = m.organization_id WHERE o.path >= ? AND o.path < ? AND m.is_active = 1',
        )
        .pluck()
        .all(root.path, `${root.path.slice(0, -1)}0`) as number[];
      const assign = c.prepare(
        'INSERT INTO payment_assignments (campaign_id, user_id, fee_level_id, status, amount, paid_at, paid_amount, payment_method, created_at, updated_at) VALUES (?, ?, ?, ?, 60000, ?, ?, ?, ?, ?)',
      );
      const order = c.prepare(
        "INSERT INTO payment_orders (order_code, assignment_id, campaign_id, user_id, amount, description, status, payment_method, paid_at, received_amount, created_at, updated_at) VALUES (?, ?, ?, ?, 60000, 'DP', 'PAID', 'MANUAL', ?, 60000, ?, ?)",
      );
      members.forEach((userId, i) => {
        const paid = i % 5 < 2;
        const paidAt = now - (i % 56) * 86_400_000;
        const id = Number(
          assign.run(
            campaignId,
            userId,
            level,
            paid ? 'PAID' : 'PENDING',
            paid ? paidAt : null,
            paid ? 60000 : null,
            paid ? 'MANUAL' : null,
            now,
            now,
          ).lastInsertRowid,
        );
        if (paid) order.run(900_000_000 + id, id, campaignId, userId, paidAt, now, now);
      });
      const user = Number(
        c
          .prepare(
            "INSERT INTO users (code, family_name, given_name, email, phone, password_hash, search_text, created_at, updated_at) VALUES ('DASH1', 'Bench', 'Dashboard', ?, '0900000001', ?, 'bench dashboard', ?, ?)",
          )
          .run(DASHBOARD_ADMIN.email, hash, now, now).lastInsertRowid,
      );
      c.prepare(
        "INSERT INTO user_roles (user_id, role_id, organization_id, created_at) SELECT ?, id, ?, ? FROM roles WHERE name = 'org_admin'",
      ).run(user, faculty.id, now);
    })();
    c.exec('ANALYZE');
  }
  c.close();
  return { rootId: root.id, facultyId: faculty.id, campaignId: campaignId! };
}
