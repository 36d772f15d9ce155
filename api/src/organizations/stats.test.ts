/**
 * Issue 26 item 4: the organization screens' statistics (units per type, distinct members per
 * organization type, group, user type and Đoàn/Hội status) equal a direct count after random writes
 * of every kind, are read without counting memberships, and stay inside the caller's scope.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../lib/seeded-random';
import { roles } from '../db/tables/roles';
import { users } from '../db/tables/users';
import { addNewUsersMemberships } from './bulk-members';
import { orgWorld, recordStatements } from './fixture';
import { organizationMembers } from '../db/tables/organizations';
import { firstRow, runQuery, sqlAll, sqlGet, sqlRun, withTransaction } from '../db/engine';
import { TEST_ENGINE, type TestApp } from '../test/harness';
import { flatMapInOrder } from '../lib/in-order';

const STATUSES = ['none', 'doan_vien', 'hoi_vien', 'both'] as const;
const TYPES = ['student', 'staff'] as const;
const KEY: Record<string, string> = {
  doan_truong: 'doanTruong',
  doan_co_so: 'doanCoSo',
  chi_doan: 'chiDoan',
  hoi_sinh_vien_truong: 'hoiSinhVienTruong',
  lien_chi_hoi: 'lienChiHoi',
  chi_hoi: 'chiHoi',
  clb_truong: 'clbTruong',
  clb_khoa: 'clbKhoa',
};
const GROUPS: Record<string, string[]> = {
  doanStats: ['doan_truong', 'doan_co_so', 'chi_doan'],
  hoiStats: ['hoi_sinh_vien_truong', 'lien_chi_hoi', 'chi_hoi'],
  clbStats: ['clb_truong', 'clb_khoa'],
};

type Row = { type: string; userId: number; userType: string; status: string };
const splitOf = (rows: Row[]) => {
  const users = new Map(rows.map((r) => [r.userId, r.status]));
  const n = (s: string) => [...users.values()].filter((x) => x === s).length;
  return { both: n('both'), onlyDoanVien: n('doan_vien'), onlyHoiVien: n('hoi_vien'), neither: n('none') };
};
const distinct = (rows: Row[]) => new Set(rows.map((r) => r.userId)).size;

/** The statistics of a subtree counted straight from the memberships (the definition, not the triggers). */
async function directStats(t: TestApp, path: string | null) {
  const where = path ? sql`o.path >= ${path} AND o.path < ${`${path.slice(0, -1)}0`}` : sql`1 = 1`;
  const rows = await sqlAll<Row>(
    t.db,
    sql`SELECT o.type AS "type", m.user_id AS "userId", u.user_type AS "userType", u.membership_status AS "status"
       FROM organization_members m JOIN organizations o ON o.id = m.organization_id JOIN users u ON u.id = m.user_id WHERE m.is_active = true AND ${where}`,
  );
  const orgTypes = (await sqlAll<{ type: string }>(t.db, sql`SELECT o.type AS "type" FROM organizations o WHERE ${where}`)).map(
    (r) => r.type,
  );
  const block = (group: string) => {
    const types = GROUPS[group]!;
    const mine = rows.filter((r) => types.includes(r.type));
    const out: Record<string, unknown> = { total: orgTypes.filter((t) => types.includes(t)).length };
    const members: Record<string, number> = { total: distinct(mine), ...splitOf(mine) };
    for (const t of types) {
      out[KEY[t]!] = orgTypes.filter((x) => x === t).length;
      members[KEY[t]!] = distinct(mine.filter((r) => r.type === t));
    }
    return { ...out, members };
  };
  const byUserType = Object.fromEntries(
    TYPES.map((u) => [u, { total: distinct(rows.filter((r) => r.userType === u)), ...splitOf(rows.filter((r) => r.userType === u)) }]),
  );
  return {
    doanStats: block('doanStats'),
    hoiStats: block('hoiStats'),
    clbStats: block('clbStats'),
    totalMembers: distinct(rows),
    membershipBreakdown: splitOf(rows),
    byUserType,
  };
}

describe('organization statistics equal a direct count', () => {
  it('after 300 random writes of every kind, for every unit and overall', async () => {
    const { t, org } = await orgWorld(['cd2', 'lch']);
    const chiHoi = await t.createOrg('chi_hoi', 'CH1', org.lch);
    const clb = await t.createOrg('clb_khoa', 'CLBK', org.dcs);
    const clbT = await t.createOrg('clb_truong', 'CLBT', org.doan);
    const extra = await t.createOrg('chi_doan', 'CD3', org.dcs);
    let orgIds = [org.doan, org.hoi, org.dcs, org.cd, org.cd2, org.lch, chiHoi, clb, clbT, extra];
    let userIds: number[] = [];
    for (let i = 0; i < 14; i++) userIds.push((await t.createUser(`ST${i}`)).id);
    const random = seededRandom(26_04_2026);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

    const check = async (step: number) => {
      const all = await t.request('GET', '/api/organizations/stats', { token: t.adminToken });
      expect(all.body, `overall after step ${step}`).toEqual(await directStats(t, null));
      for (const id of orgIds) {
        const { path } = await sqlGet<{ path: string }>(t.db, sql`SELECT path FROM organizations WHERE id = ${id}`);
        const res = await t.request('GET', `/api/organizations/${id}/stats`, { token: t.adminToken });
        expect(res.body, `organization ${id} after step ${step}`).toEqual(await directStats(t, path));
      }
    };

    for (let step = 0; step < 300; step++) {
      const r = random();
      const u = pick(userIds);
      const o = await pick(orgIds);
      // Engine-neutral SQL: true/false are keywords of both (a JS boolean does not bind on better-sqlite3), NOT flips either.
      if (r < 0.35)
        await sqlRun(
          t.db,
          sql`INSERT INTO organization_members (organization_id, user_id, role, is_active, joined_at)
            VALUES (${o}, ${u}, 'member', ${sql.raw(random() < 0.85 ? 'true' : 'false')}, ${Date.now()}) ON CONFLICT DO NOTHING`,
        );
      else if (r < 0.45)
        await sqlRun(t.db, sql`UPDATE organization_members SET is_active = NOT is_active WHERE user_id = ${u} AND organization_id = ${o}`);
      else if (r < 0.52) {
        const first = sql`(SELECT id FROM organization_members WHERE user_id = ${u} ORDER BY id LIMIT 1)`;
        // PostgreSQL has no UPDATE OR IGNORE: the move is skipped when the user is already there.
        await sqlRun(
          t.db,
          TEST_ENGINE === 'pg'
            ? sql`UPDATE organization_members SET organization_id = ${o} WHERE id = ${first}
                AND NOT EXISTS (SELECT 1 FROM organization_members WHERE user_id = ${u} AND organization_id = ${o})`
            : sql`UPDATE OR IGNORE organization_members SET organization_id = ${o} WHERE id = ${first}`,
        );
      } else if (r < 0.62)
        await sqlRun(
          t.db,
          sql`DELETE FROM organization_members WHERE id = (SELECT id FROM organization_members WHERE user_id = ${u} ORDER BY id LIMIT 1)`,
        );
      else if (r < 0.74)
        await runQuery(
          t.db
            .update(users)
            .set({ membershipStatus: pick(STATUSES) })
            .where(eq(users.id, u)),
        );
      else if (r < 0.8)
        await runQuery(
          t.db
            .update(users)
            .set({ userType: pick(TYPES) })
            .where(eq(users.id, u)),
        );
      else if (r < 0.84) {
        // A type change moves the unit's members between columns (clb_khoa ↔ chi_doan, chi_hoi ↔ lien_chi_hoi).
        const swap: Record<string, string> = {
          clb_khoa: 'chi_doan',
          chi_doan: 'clb_khoa',
          chi_hoi: 'lien_chi_hoi',
          lien_chi_hoi: 'chi_hoi',
        };
        const target = await pick([clb, extra, chiHoi]);
        if (orgIds.includes(target)) {
          const { type } = await sqlGet<{ type: string }>(t.db, sql`SELECT type FROM organizations WHERE id = ${target}`);
          await sqlRun(t.db, sql`UPDATE organizations SET type = ${swap[type]} WHERE id = ${target}`);
        }
      } else if (r < 0.88) {
        const res = await t.request('POST', `/api/organizations/${await pick([org.cd, org.cd2, chiHoi])}/members/${u}/with-parents`, {
          token: t.adminToken,
        });
        expect([201, 400, 409]).toContain(res.status);
      } else if (r < 0.9 && userIds.length > 6) {
        await sqlRun(t.db, sql`DELETE FROM users WHERE id = ${u}`);
        userIds = userIds.filter((x) => x !== u);
      } else if (r < 0.93) {
        // New users' memberships in one batch: the path whose other figures are applied set-wise (bulk-members.ts).
        const fresh = [(await t.createUser(`SB${step}a`)).id, (await t.createUser(`SB${step}b`)).id];
        await withTransaction(t.db, async (tx) =>
          addNewUsersMemberships(
            tx,
            await flatMapInOrder(fresh, async (id) => [
              { organizationId: await pick(orgIds.filter((x) => x !== org.cd)), userId: id },
              { organizationId: org.cd, userId: id },
            ]),
          ),
        );
        userIds.push(...fresh);
      } else if (r < 0.94 && orgIds.includes(extra)) {
        await sqlRun(t.db, sql`DELETE FROM organization_members WHERE organization_id = ${extra}`);
        await sqlRun(t.db, sql`DELETE FROM organizations WHERE id = ${extra}`);
        orgIds = orgIds.filter((x) => x !== extra);
      }
      if (step % 25 === 24) await check(step);
    }
    await check(300);
    // Something was counted in every column kind the screens show.
    const s = (await t.request('GET', '/api/organizations/stats', { token: t.adminToken })).body;
    expect(s.totalMembers).toBeGreaterThan(0);
    expect(s.byUserType.staff.total + s.byUserType.student.total).toBe(s.totalMembers);
  }, 60_000);
});

describe('reading the statistics', () => {
  it('never counts memberships for a unit or for everything (trigger-kept rows only)', async () => {
    const { t, org } = await orgWorld();
    const u = await t.createUser('SR1');
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: org.cd, userId: u.id }));
    const seen = await recordStatements(t, async () => {
      expect((await t.request('GET', `/api/organizations/${org.dcs}/stats`, { token: t.adminToken })).body.doanStats.members.chiDoan).toBe(
        1,
      );
      expect((await t.request('GET', '/api/organizations/stats', { token: t.adminToken })).body.totalMembers).toBe(1);
    });
    expect(seen.join('\n')).not.toMatch(/from "organization_members"/i);
    expect(seen.join('\n')).toMatch(/unit_member_figures/);
  });

  it('a faculty admin reads its own faculty, not another faculty', async () => {
    const { t, org } = await orgWorld(['cd2']);
    const other = await t.createOrg('doan_co_so', 'DCS2', org.doan);
    const otherCd = await t.createOrg('chi_doan', 'CDX', other);
    const orgAdmin = (await firstRow(t.db.select().from(roles).where(eq(roles.name, 'org_admin'))))!;
    const admin = await t.createUser('FAC', [{ roleId: orgAdmin.id, organizationId: org.dcs }]);
    const m = await t.createUser('SR2');
    await runQuery(
      t.db.insert(organizationMembers).values([
        { organizationId: org.cd, userId: m.id },
        { organizationId: otherCd, userId: admin.id },
      ]),
    );
    const own = await t.request('GET', `/api/organizations/${org.dcs}/stats`, { token: admin.token });
    expect(own.status).toBe(200);
    expect(own.body.doanStats).toMatchObject({ doanCoSo: 1, chiDoan: 2, members: { total: 1, chiDoan: 1 } });
    for (const id of [other, org.doan])
      expect([403, 404]).toContain((await t.request('GET', `/api/organizations/${id}/stats`, { token: admin.token })).status);
  });
});
