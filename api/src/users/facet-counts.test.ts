/**
 * The trigger-kept user_facet_counts (migration 0023) against a fresh grouped count after random
 * writes of every kind that moves them: users added, retyped, given another Đoàn/Hội status,
 * deactivated and deleted; memberships added, ended, moved and deleted; an organization deleted.
 * The users list's filtered totals come from it, so a drift would show a wrong total for good.
 */
import { MEMBERSHIP_STATUSES as STATUSES, USER_TYPES as TYPES } from '@doanhoi/shared';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { figuresWorld } from '../organizations/fixture';
import { organizations } from '../db/tables/organizations';
import { listPage, type ListFilter } from './list';
import { userFacetCounts } from '../db/tables/users';
import { seededRandom } from '../lib/seeded-random';
import { allRows, runQuery, sqlAll, sqlGet, sqlRun, withTransaction } from '../db/engine';
import { isUniqueViolation } from '../db/sqlite';
import { TEST_ENGINE } from '../test/harness';

const onPg = TEST_ENGINE === 'pg';
/** A boolean as both engines read it in SQL text (SQLite's TRUE is 1). */
const bool = (b: boolean) => sql.raw(b ? 'true' : 'false');

describe('user_facet_counts stay equal to a fresh count', () => {
  it('after 400 random writes to users, memberships and organizations, and the list totals follow them', async () => {
    const world = await figuresWorld();
    const { t, org, extra } = world;
    const db = t.db;
    let orgIds = world.orgIds;
    const paths = async () =>
      new Map((await sqlAll<{ id: number; path: string }>(db, 'SELECT id, path FROM organizations')).map((o) => [o.id, o.path]));
    const userIds: number[] = [];
    let made = 0;
    const newUser = async () => userIds.push((await t.createUser(`UF${made++}`)).id);
    for (let i = 0; i < 10; i++) await newUser();
    const random = seededRandom(Number(process.env.FACETS_SEED ?? 20261126));
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

    // Each active membership counts for its organization and every ancestor on its path.
    const onPath = onPg
      ? sql.raw(`unnest(string_to_array(trim(both '/' from o.path), '/')::int8[]) AS j(value)`)
      : sql.raw(`json_each('[' || replace(trim(o.path, '/'), '/', ',') || ']') j`);
    const expected = async () =>
      await sqlAll(
        db,
        sql`WITH uo AS (SELECT 0 AS org, id AS user_id FROM users
             UNION SELECT j.value, m.user_id FROM organization_members m JOIN organizations o ON o.id = m.organization_id,
               ${onPath} WHERE m.is_active = true)
           SELECT uo.org AS "organizationId", u.user_type AS "userType", u.membership_status AS "membershipStatus",
             CASE WHEN u.is_active THEN 1 ELSE 0 END AS "isActive", count(*) AS n
           FROM uo JOIN users u ON u.id = uo.user_id GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
      );
    /** SQLite's UPDATE OR IGNORE (a row that would break a unique key stays as it was); PostgreSQL has no OR IGNORE. */
    const updateOrIgnore = async (set: string, value: number, id: number) => {
      if (!onPg) return void (await sqlRun(db, sql`UPDATE OR IGNORE organization_members SET ${sql.raw(set)} = ${value} WHERE id = ${id}`));
      try {
        await withTransaction(
          db,
          async (tx) => void (await sqlRun(tx, sql`UPDATE organization_members SET ${sql.raw(set)} = ${value} WHERE id = ${id}`)),
        );
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
      }
    };
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
        ...(await sqlAll<{ id: number }>(db, sql`SELECT id FROM organization_members WHERE user_id = ${userId} ORDER BY id`)).map(
          (m) => m.id,
        ),
      ]);
      if (r < 0.2) {
        await sqlRun(
          db,
          sql`UPDATE users SET user_type = ${pick(TYPES)}, membership_status = ${pick(STATUSES)}, is_active = ${bool(random() < 0.8)} WHERE id = ${userId}`,
        );
      } else if (r < 0.45) {
        await sqlRun(
          db,
          sql`INSERT INTO organization_members (organization_id, user_id, is_active, joined_at)
            VALUES (${await pick(orgIds)}, ${userId}, ${bool(random() < 0.85)}, ${Date.now()}) ON CONFLICT DO NOTHING`,
        );
      } else if (r < 0.6) {
        await sqlRun(db, sql`UPDATE organization_members SET is_active = NOT is_active WHERE id = ${anyMembership}`);
      } else if (r < 0.7) {
        await sqlRun(db, sql`DELETE FROM organization_members WHERE id = ${anyMembership}`);
      } else if (r < 0.8) {
        await updateOrIgnore('organization_id', await pick(orgIds), anyMembership);
      } else if (r < 0.86) {
        await updateOrIgnore('user_id', pick(userIds), anyMembership);
      } else if (r < 0.93 && userIds.length > 4) {
        await sqlRun(db, sql`DELETE FROM users WHERE id = ${userId}`);
        userIds.splice(userIds.indexOf(userId), 1);
      } else {
        await newUser();
      }
      if (step === 300) {
        await runQuery(t.db.delete(organizations).where(eq(organizations.id, extra)));
        orgIds = orgIds.filter((id) => id !== extra);
      }
      if (step % 20 === 19) {
        const now = (await expected()) as { organizationId: number; userType: string; membershipStatus: string; isActive: number }[];
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
        if (scope !== null) f.paths = [(await paths()).get(scope)!];
        expect((await listPage(t.db, f, `check${step}`, 10, 0)).total, JSON.stringify(f)).toBe(
          (await listPage(t.db, f, `check-in${step}`, 10, 0, 'in')).total,
        );
        // The same filters at every check: their totals, kept between checks, follow the writes made since.
        const same: ListFilter[] = [
          { words: [], paths: null },
          { words: [], userType: TYPES[0], paths: [(await paths()).get(org.cd)!] },
        ];
        for (const [i, g] of same.entries())
          expect((await listPage(t.db, g, `same${i}`, 10, 0)).total, `same filter ${i} after step ${step}`).toBe(
            (await listPage(t.db, g, `same-in${i}-${step}`, 10, 0, 'in')).total,
          );
      }
    }
    expect(checks).toBe(20);
    expect(deepChecks, 'checks with users counted in a chi đoàn (three levels deep)').toBeGreaterThan(5);
    expect(combos.size, 'type/status/active combinations counted').toBeGreaterThan(10);
    // No rows, not even zeros, outlive their organization.
    expect((await sqlGet<{ n: number }>(db, sql`SELECT count(*) AS n FROM user_facet_counts WHERE organization_id = ${extra}`)).n).toBe(0);
  });
});
