import { mapInOrder } from '../lib/in-order';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/fixture';
import { listPage } from '../users/list';
import { organizationMemberCounts, organizationMembers, organizations } from '../db/tables/organizations';
import { allRows, runQuery, sqlRun } from '../db/engine';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});

/** The counts recomputed from the memberships, the slow way. */
async function recount() {
  const orgs = await allRows(t.db.select({ id: organizations.id }).from(organizations));
  const rows = (
    await allRows(
      t.db
        .select({
          userId: organizationMembers.userId,
          orgId: organizationMembers.organizationId,
          path: organizations.path,
          active: organizationMembers.isActive,
        })
        .from(organizationMembers)
        .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId)),
    )
  ).filter((r) => r.active);
  return Object.fromEntries(
    orgs.map((o) => [
      o.id,
      {
        direct: rows.filter((r) => r.orgId === o.id).length,
        subtree: new Set(rows.filter((r) => r.path.includes(`/${o.id}/`)).map((r) => r.userId)).size,
      },
    ]),
  );
}

async function kept() {
  const rows = await allRows(t.db.select().from(organizationMemberCounts));
  const orgs = await allRows(t.db.select({ id: organizations.id }).from(organizations));
  return Object.fromEntries(
    orgs.map((o) => {
      const r = rows.find((x) => x.organizationId === o.id);
      return [o.id, { direct: r?.direct ?? 0, subtree: r?.subtree ?? 0 }];
    }),
  );
}

/** The users index's organization tokens give the same subtree members as the memberships. */
async function expectIndexAgrees() {
  for (const { path } of await allRows(t.db.select({ path: organizations.path }).from(organizations))) {
    const f = { words: [], paths: [path] };
    const ids = async (m: 'index' | 'in') => (await listPage(t.db, f, `mc:${m}:${Math.random()}`, 1000, 0, m)).rows.map((r) => r.id);
    expect(await ids('index'), path).toEqual(await ids('in'));
  }
}

describe('organization member counts kept by triggers', () => {
  it('match a recount after memberships are added, moved, deactivated and deleted, users deleted and organizations deleted', async () => {
    const root = await t.createOrg('doan_truong', 'MC-ROOT');
    const f1 = await t.createOrg('doan_co_so', 'MC-F1', root);
    const f2 = await t.createOrg('doan_co_so', 'MC-F2', root);
    const c1 = await t.createOrg('chi_doan', 'MC-C1', f1);
    const c2 = await t.createOrg('chi_doan', 'MC-C2', f1);
    const c3 = await t.createOrg('chi_doan', 'MC-C3', f2);
    const leaves = [root, f1, f2, c1, c2, c3];
    const people = await mapInOrder(Array.from({ length: 12 }), () => insertUser(t));
    let s = 7;
    const rand = (n: number) => (s = (s * 1103515245 + 12345) % 2 ** 31) % n;
    for (let step = 0; step < 300; step++) {
      const user = people[rand(people.length)]!;
      const org = leaves[rand(leaves.length)]!;
      const existing = await allRows(t.db.select().from(organizationMembers).where(eq(organizationMembers.userId, user)));
      const pick = existing[rand(Math.max(existing.length, 1))];
      switch (rand(4)) {
        case 0:
          await runQuery(
            t.db
              .insert(organizationMembers)
              .values({ userId: user, organizationId: org, isActive: rand(4) > 0 })
              .onConflictDoNothing(),
          );
          break;
        case 1:
          if (pick)
            await runQuery(t.db.update(organizationMembers).set({ isActive: !pick.isActive }).where(eq(organizationMembers.id, pick.id)));
          break;
        case 2:
          if (pick && !existing.some((m) => m.organizationId === org))
            await runQuery(t.db.update(organizationMembers).set({ organizationId: org }).where(eq(organizationMembers.id, pick.id)));
          break;
        default:
          if (pick) await runQuery(t.db.delete(organizationMembers).where(eq(organizationMembers.id, pick.id)));
      }
      expect(await kept(), `step ${step}`).toEqual(await recount());
      if (step % 25 === 0) await expectIndexAgrees();
    }
    await sqlRun(t.db, sql`DELETE FROM users WHERE id = ${people[0]!}`);
    expect(await kept()).toEqual(await recount());
    await sqlRun(t.db, sql`DELETE FROM organizations WHERE id = ${c3}`);
    expect(await kept()).toEqual(await recount());
    await expectIndexAgrees();
  });
});
