/**
 * The trigger-kept member_figures (migration 0016) against a fresh count after random writes of
 * every kind that moves them: memberships added, ended, reactivated, moved and deleted, status
 * changes, users and organizations deleted, joins in other terms. A drift here would show a
 * wrong member count or Đoàn/Hội split on the dashboard until the next rebuild, which never comes.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { currentTerm } from '../dashboard/scope';
import { users } from '../db/tables/users';
import { orgWorld } from './fixture';
import { memberFigures, organizationMembers, organizations } from '../db/tables/organizations';
import { seededRandom } from '../lib/seeded-random';
import { allRows, runQuery, sqlAll, sqlGet, sqlRun } from '../db/engine';
import { TEST_ENGINE } from '../test/harness';

/** A small deterministic generator, so a failure can be replayed. */
const STATUSES = ['none', 'doan_vien', 'hoi_vien', 'both'] as const;
const DAY = 86_400_000;

describe('member_figures stay equal to a fresh count', () => {
  it('after 400 random writes over two terms', async () => {
    const { t, org } = await orgWorld(['cd2', 'lch']);
    const chiHoi = await t.createOrg('chi_hoi', 'CH1', org.lch);
    const extra = await t.createOrg('chi_doan', 'CD3', org.dcs);
    let orgIds = [org.doan, org.hoi, org.dcs, org.cd, org.cd2, org.lch, chiHoi, extra];
    const userIds: number[] = [];
    for (let i = 0; i < 12; i++) userIds.push((await t.createUser(`MF${i}`)).id);
    const now = Date.now();
    // Joins now, last term and next year: the term rows must separate them.
    const joinTimes = [now, now - 150 * DAY, now - 400 * DAY];
    const random = seededRandom(20261124);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

    const orgRows = () => sqlAll<{ id: number; path: string }>(t.db, sql`SELECT id, path FROM organizations ORDER BY id`);
    const expected = async () => {
      const term = currentTerm(now);
      const scopes = [{ id: 0, path: '' }, ...(await orgRows())];
      const out = [];
      for (const { id, path } of scopes) {
        const where = id === 0 ? sql`1 = 1` : sql`o.path >= ${path} AND o.path < ${`${path.slice(0, -1)}0`}`;
        const row = await sqlGet<{ members: number; doan: number; hoi: number; joins: number }>(
          t.db,
          sql`SELECT count(DISTINCT m.user_id) AS members,
               count(DISTINCT CASE WHEN u.membership_status IN ('doan_vien', 'both') THEN m.user_id END) AS doan,
               count(DISTINCT CASE WHEN u.membership_status IN ('hoi_vien', 'both') THEN m.user_id END) AS hoi,
               count(DISTINCT CASE WHEN m.joined_at >= ${term.start} AND m.joined_at < ${term.end} THEN m.user_id END) AS joins
             FROM organization_members m JOIN organizations o ON o.id = m.organization_id JOIN users u ON u.id = m.user_id
             WHERE m.is_active = true AND ${where}`,
        );
        out.push({ id, ...row });
      }
      return out;
    };
    const kept = async () => {
      const term = currentTerm(now);
      const rows = await allRows(t.db.select().from(memberFigures));
      const scopes = [0, ...(await orgRows()).map((o) => o.id)];
      return scopes.map((id) => {
        const all = rows.find((r) => r.organizationId === id && r.termStart === 0);
        const joins = rows.find((r) => r.organizationId === id && r.termStart === term.start);
        return { id, members: all?.members ?? 0, doan: all?.doan ?? 0, hoi: all?.hoi ?? 0, joins: joins?.members ?? 0 };
      });
    };

    let checks = 0;
    for (let step = 0; step < 400; step++) {
      const r = random();
      const userId = pick(userIds);
      // One of the user's memberships, at random (the database's random: the generator's sequence stays as it was).
      const anyOf = sql`(SELECT id FROM organization_members WHERE user_id = ${userId} ORDER BY random() LIMIT 1)`;
      if (r < 0.35) {
        const [o, active, at] = [await pick(orgIds), random() < 0.85, pick(joinTimes)];
        // true/false are keywords of both engines (a JS boolean does not bind on better-sqlite3).
        await sqlRun(
          t.db,
          sql`INSERT INTO organization_members (organization_id, user_id, is_active, joined_at)
            VALUES (${o}, ${userId}, ${sql.raw(String(active))}, ${at}) ON CONFLICT DO NOTHING`,
        );
      } else if (r < 0.5) {
        await sqlRun(t.db, sql`UPDATE organization_members SET is_active = NOT is_active WHERE id = ${anyOf}`);
      } else if (r < 0.6) {
        await sqlRun(t.db, sql`DELETE FROM organization_members WHERE id = ${anyOf}`);
      } else if (r < 0.67) {
        // Moved to another organization or another join date, as an edit of the membership would;
        // skipped when the user is already in that organization (PostgreSQL has no UPDATE OR IGNORE).
        const [o, at] = [await pick(orgIds), pick(joinTimes)];
        await sqlRun(
          t.db,
          TEST_ENGINE === 'pg'
            ? sql`UPDATE organization_members SET organization_id = ${o}, joined_at = ${at} WHERE id = ${anyOf}
                AND NOT EXISTS (SELECT 1 FROM organization_members x WHERE x.user_id = ${userId} AND x.organization_id = ${o} AND x.id <> organization_members.id)`
            : sql`UPDATE OR IGNORE organization_members SET organization_id = ${o}, joined_at = ${at} WHERE id = ${anyOf}`,
        );
      } else if (r < 0.9) {
        await runQuery(
          t.db
            .update(users)
            .set({ membershipStatus: pick(STATUSES) })
            .where(eq(users.id, userId)),
        );
      } else if (r < 0.95 && userIds.length > 4) {
        expect((await t.request('DELETE', `/api/users/${userId}`, { token: t.adminToken })).status).toBe(200);
        userIds.splice(userIds.indexOf(userId), 1);
        userIds.push((await t.createUser(`MFN${step}`)).id);
      }
      if (step === 300) {
        // An organization deleted with its memberships (it has no children).
        await runQuery(t.db.delete(organizations).where(eq(organizations.id, extra)));
        orgIds = orgIds.filter((id) => id !== extra);
      }
      if (step % 20 === 19) {
        expect(await kept(), `after step ${step}`).toEqual(await expected());
        checks++;
      }
    }
    expect(checks).toBe(20);
    // The writes did reach every kind of figure (a test over empty counts would prove nothing).
    const totals = (await expected())[0]!;
    expect(totals.members).toBeGreaterThan(3);
    expect(totals.doan + totals.hoi).toBeGreaterThan(0);
    expect(totals.joins).toBeGreaterThan(0);
    expect(totals.joins).toBeLessThan(totals.members + 1);
    expect((await allRows(t.db.select().from(organizationMembers))).length).toBeGreaterThan(5);
  });
});
