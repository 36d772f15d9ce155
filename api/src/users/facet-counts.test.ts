/**
 * The trigger-kept user_facet_counts (migration 0023) against a fresh grouped count after random
 * writes of every kind that moves them: users added, retyped, given another Đoàn/Hội status,
 * deactivated and deleted; memberships added, ended, moved and deleted; an organization deleted.
 * The users list's filtered totals come from it, so a drift would show a wrong total for good.
 */
import { MEMBERSHIP_STATUSES as STATUSES, USER_TYPES as TYPES } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { figuresWorld } from '../organizations/fixture';
import { organizations } from '../db/tables/organizations';
import { listPage, type ListFilter } from './list';
import { userFacetCounts } from '../db/tables/users';
import { seededRandom } from '../lib/seeded-random';
import { allRows, runQuery } from '../db/engine';

describe('user_facet_counts stay equal to a fresh count', () => {
  it('after 400 random writes to users, memberships and organizations, and the list totals follow them', async () => {
    const world = await figuresWorld();
    const { t, org, c, extra } = world;
    let orgIds = world.orgIds;
    const paths = () =>
      new Map((c.prepare('SELECT id, path FROM organizations').all() as { id: number; path: string }[]).map((o) => [o.id, o.path]));
    const userIds: number[] = [];
    let made = 0;
    const newUser = async () => userIds.push((await t.createUser(`UF${made++}`)).id);
    for (let i = 0; i < 10; i++) await newUser();
    const random = seededRandom(Number(process.env.FACETS_SEED ?? 20261126));
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

    const expected = () =>
      c
        .prepare(
          `WITH uo AS (SELECT 0 AS org, id AS user_id FROM users
             UNION SELECT j.value, m.user_id FROM organization_members m JOIN organizations o ON o.id = m.organization_id,
               json_each('[' || replace(trim(o.path, '/'), '/', ',') || ']') j WHERE m.is_active = 1)
           SELECT uo.org AS organizationId, u.user_type AS userType, u.membership_status AS membershipStatus, u.is_active AS isActive, count(*) AS n
           FROM uo JOIN users u ON u.id = uo.user_id GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
        )
        .all();
    const kept = async () =>
      (
        await allRows(
          t.db
            .select()
            .from(userFacetCounts)
            .orderBy(userFacetCounts.organizationId, userFacetCounts.userType, userFacetCounts.membershipStatus, userFacetCounts.isActive),
        )
      ).filter((r) => r.n !== 0);

    let checks = 0;
    let deepChecks = 0;
    const combos = new Set<string>();
    for (let step = 0; step < 400; step++) {
      const r = random();
      const userId = pick(userIds);
      const anyMembership = pick([
        0,
        ...(c.prepare('SELECT id FROM organization_members WHERE user_id = ? ORDER BY id').pluck().all(userId) as number[]),
      ]);
      if (r < 0.2) {
        c.prepare('UPDATE users SET user_type = ?, membership_status = ?, is_active = ? WHERE id = ?').run(
          pick(TYPES),
          pick(STATUSES),
          random() < 0.8 ? 1 : 0,
          userId,
        );
      } else if (r < 0.45) {
        c.prepare('INSERT OR IGNORE INTO organization_members (organization_id, user_id, is_active, joined_at) VALUES (?, ?, ?, ?)').run(
          await pick(orgIds),
          userId,
          random() < 0.85 ? 1 : 0,
          Date.now(),
        );
      } else if (r < 0.6) {
        c.prepare('UPDATE organization_members SET is_active = 1 - is_active WHERE id = ?').run(anyMembership);
      } else if (r < 0.7) {
        c.prepare('DELETE FROM organization_members WHERE id = ?').run(anyMembership);
      } else if (r < 0.8) {
        c.prepare('UPDATE OR IGNORE organization_members SET organization_id = ? WHERE id = ?').run(await pick(orgIds), anyMembership);
      } else if (r < 0.86) {
        c.prepare('UPDATE OR IGNORE organization_members SET user_id = ? WHERE id = ?').run(pick(userIds), anyMembership);
      } else if (r < 0.93 && userIds.length > 4) {
        c.prepare('DELETE FROM users WHERE id = ?').run(userId);
        userIds.splice(userIds.indexOf(userId), 1);
      } else {
        await newUser();
      }
      if (step === 300) {
        await runQuery(t.db.delete(organizations).where(eq(organizations.id, extra)));
        orgIds = orgIds.filter((id) => id !== extra);
      }
      if (step % 20 === 19) {
        const now = expected() as { organizationId: number; userType: string; membershipStatus: string; isActive: number }[];
        for (const row of now) combos.add(`${row.userType}/${row.membershipStatus}/${row.isActive}`);
        expect(await kept(), `after step ${step}`).toEqual(now);
        checks++;
        if (now.some((row) => row.organizationId === org.cd || row.organizationId === org.cd2)) deepChecks++;
        // The list's total (from the counts) is the one a plain SQL count gives, for any filter in any one subtree.
        const f: ListFilter = {
          words: [],
          userType: pick([undefined, ...TYPES]),
          membershipStatus: pick([undefined, ...STATUSES]),
          isActive: pick([undefined, true, false]),
          paths: null,
        };
        const scope = await pick([null, ...orgIds]);
        if (scope !== null) f.paths = [paths().get(scope)!];
        expect((await listPage(t.db, f, `check${step}`, 10, 0)).total, JSON.stringify(f)).toBe(
          (await listPage(t.db, f, `check-in${step}`, 10, 0, 'in')).total,
        );
      }
    }
    expect(checks).toBe(20);
    expect(deepChecks, 'checks with users counted in a chi đoàn (three levels deep)').toBeGreaterThan(5);
    expect(combos.size, 'type/status/active combinations counted').toBeGreaterThan(10);
    // No rows, not even zeros, outlive their organization.
    expect(c.prepare('SELECT count(*) FROM user_facet_counts WHERE organization_id = ?').pluck().get(extra)).toBe(0);
  });
});
