/**
 * addNewUsersMemberships against the per-row triggers it pauses: from the same state, a random
 * batch of new users' memberships is written once set-wise (then rolled back) and once row by row
 * through the triggers, and every figure both ways must be identical — member counts, Đoàn/Hội
 * facets, term figures, the search queue. Between batches, random writes of every other kind keep
 * the figures moving, so the batch lands on realistic states (users in several subtrees, ended and
 * moved memberships, other users' figures already counted).
 *
 * The work is bounded so a busy machine cannot time it out (issue 25 item 18): users are inserted
 * directly (createUser's sign-in hashes a password each time, most of the old run), and past the
 * first MIN_STEPS batches a time budget stops generating more — it never fails the test.
 */
import { MEMBERSHIP_STATUSES, USER_TYPES } from '@doanhoi/shared';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../lib/seeded-random';
import { addNewUsersMemberships } from './bulk-members';
import { figuresWorld } from './fixture';
import { organizationMembers } from '../db/tables/organizations';
import { users } from '../db/tables/users';
import { firstRow, runQuery, sqlAll, sqlGet, sqlRun, withTransaction } from '../db/engine';
import { sql } from 'drizzle-orm';
import { TEST_ENGINE } from '../test/harness';

class Rollback extends Error {}

/** Batches always compared (the same ones for a given seed), and the most; more only while within the budget. */
const MIN_STEPS = 10;
const MAX_STEPS = 30;
const BUDGET_MS = 3_000;

describe('new users’ memberships written set-wise', () => {
  it('leave every figure exactly as the per-row triggers do, over 10 to 30 random batches', async () => {
    const { t, org, orgIds } = await figuresWorld();
    const random = seededRandom(Number(process.env.BULK_SEED ?? 20261127));
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    let made = 0;
    const userIds: number[] = [];

    const all = (query: string) => sqlAll(t.db, query);
    const figures = async () => ({
      counts: await all(
        'SELECT organization_id, direct, subtree FROM organization_member_counts WHERE direct <> 0 OR subtree <> 0 ORDER BY 1',
      ),
      facets: await all('SELECT * FROM user_facet_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4'),
      terms: await all('SELECT * FROM member_figures WHERE members <> 0 OR doan <> 0 OR hoi <> 0 ORDER BY 1, 2'),
      // SQLite's FTS5 queue; PostgreSQL's search vector is a generated column (db/pg/search.ts).
      search: TEST_ENGINE === 'pg' ? [] : await all('SELECT user_id FROM users_fts_pending ORDER BY 1'),
      members: await all('SELECT organization_id, user_id, role, is_active FROM organization_members ORDER BY 1, 2'),
    });

    let compared = 0;
    const started = performance.now();
    let step = 0;
    for (; step < MAX_STEPS && (step < MIN_STEPS || performance.now() - started < BUDGET_MS); step++) {
      // Other writes first: existing users join, leave, move and change status.
      for (let k = 0; k < 4 && userIds.length; k++) {
        const u = pick(userIds);
        const r = random();
        // true/false are keywords of both engines (a JS boolean does not bind on better-sqlite3).
        if (r < 0.4) {
          const [o, active] = [await pick(orgIds), sql.raw(String(random() < 0.85))];
          await sqlRun(
            t.db,
            sql`INSERT INTO organization_members (organization_id, user_id, is_active, joined_at)
              VALUES (${o}, ${u}, ${active}, ${Date.now()}) ON CONFLICT DO NOTHING`,
          );
        } else if (r < 0.6)
          await sqlRun(
            t.db,
            sql`UPDATE organization_members SET is_active = NOT is_active WHERE user_id = ${u} AND organization_id = ${await pick(orgIds)}`,
          );
        else if (r < 0.8) await sqlRun(t.db, sql`UPDATE users SET membership_status = ${pick(MEMBERSHIP_STATUSES)} WHERE id = ${u}`);
        else await sqlRun(t.db, sql`DELETE FROM organization_members WHERE user_id = ${u} AND organization_id = ${await pick(orgIds)}`);
      }
      // A batch of new users, each in 0–4 random organizations (not always with their parents).
      const batch: number[] = [];
      for (let k = 1 + Math.floor(random() * 5); k > 0; k--) {
        const code = `BM${made++}`;
        const id = (
          await firstRow(
            t.db
              .insert(users)
              .values({
                code,
                familyName: 'Nguyễn Văn',
                givenName: code,
                email: `${code.toLowerCase()}@test.vn`,
                passwordHash: 'not-a-hash',
                searchText: code.toLowerCase(),
              })
              .returning({ id: users.id }),
          )
        ).id;
        const [status, type, active] = [pick(MEMBERSHIP_STATUSES), pick(USER_TYPES), sql.raw(String(random() < 0.9))];
        await sqlRun(
          t.db,
          sql`UPDATE users SET membership_status = ${status}, user_type = ${type}, is_active = ${active} WHERE id = ${id}`,
        );
        batch.push(id);
      }
      const pairs = batch.flatMap((userId) =>
        [...new Set(Array.from({ length: Math.floor(random() * 5) }, () => pick(orgIds)))].map((organizationId) => ({
          organizationId,
          userId,
        })),
      );

      let bulk: Awaited<ReturnType<typeof figures>> | null = null;
      try {
        await withTransaction(t.db, async (tx) => {
          expect(await addNewUsersMemberships(tx, pairs)).toBe(true);
          bulk = await figures();
          expect((await sqlGet<{ n: number }>(t.db, 'SELECT count(*) AS n FROM trigger_pauses')).n).toBe(0);
          throw new Rollback();
        });
      } catch (err) {
        if (!(err instanceof Rollback)) throw err;
      }
      if (pairs.length) await runQuery(t.db.insert(organizationMembers).values(pairs.map((p) => ({ ...p, role: 'member' }))));
      expect(bulk, `batch ${step}: ${JSON.stringify(pairs)}`).toEqual(await figures());
      compared += pairs.length ? 1 : 0;
      userIds.push(...batch);
    }
    // The seed's batches are mostly non-empty: 8 of the first 10, 27 of 30.
    expect(compared).toBeGreaterThanOrEqual(Math.floor(step * 0.7));

    // A user who already has a membership goes through the triggers instead: nothing is written here.
    let member: number | undefined;
    for (const u of userIds)
      if (!member && (await sqlGet(t.db, sql`SELECT 1 AS one FROM organization_members WHERE user_id = ${u}`))) member = u;
    const before = await figures();
    await withTransaction(t.db, async (tx) =>
      expect(await addNewUsersMemberships(tx, [{ organizationId: org.cd, userId: member! }])).toBe(false),
    );
    expect(await figures()).toEqual(before);
  });
});
