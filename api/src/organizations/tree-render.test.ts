/**
 * The tree's bytes after random membership writes (issue 28): each answer, plain and gzipped, for
 * callers of several scopes, equals the tree stringified afresh with every count recounted from
 * organization_members. The tree is large enough to be deflated in several pieces (tree.ts).
 */
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { OrganizationNode } from '@doanhoi/shared';
import { visibility } from '../access/organizations';
import { loadActor } from '../access/actor';
import { organizationMembers } from '../db/tables/organizations';
import { orgWorld } from './fixture';
import { buildTree } from './tree';
import { ADMIN, type TestApp } from '../test/harness';
import { runQuery, sqlAll, sqlGet, sqlRun, withTransaction } from '../db/engine';
import { sql } from 'drizzle-orm';

let t: TestApp;
let units: number[];
let callers: { token: string; userId: number }[];
let userIds: number[];

// A small deterministic generator, so a failure can be replayed.
let seed = 28;
const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);

beforeAll(async () => {
  const { t: app, org } = await orgWorld(['cd2', 'lch']);
  t = app;
  // ~125 KB of JSON: four pieces of 32 KB, and names in Vietnamese (multi-byte UTF-8).
  const description = 'Chi đoàn sinh viên khoá 2024, ngành Kỹ thuật phần mềm — “tiêu biểu” \\ năm học';
  const faculties: number[] = [];
  for (let i = 0; i < 6; i++) faculties.push(await t.createOrg('doan_co_so', `KHOA${i}`, org.doan, `Đoàn khoa ${i}`));
  await withTransaction(t.db, async () => {
    for (const [i, f] of faculties.entries())
      for (let j = 0; j < 80; j++) {
        const id = await t.createOrg('chi_doan', `CD${i}-${j}`, f, `Chi đoàn ${(j * 37) % 80} khoa ${i}`);
        await sqlRun(t.db, sql`UPDATE organizations SET description = ${description} WHERE id = ${id}`);
      }
  });
  units = (await sqlAll<{ id: number }>(t.db, sql`SELECT id FROM organizations ORDER BY id`)).map((r) => r.id);
  userIds = [];
  for (let i = 0; i < 12; i++) userIds.push((await t.createUser(`TV${i}`)).id);
  const counter = await t.createRole('counter', ['organizations.access', 'organizations.view_member_count']);
  const viewer = await t.createRole('viewer', ['organizations.access']);
  const adminId = (await sqlGet<{ id: number }>(t.db, sql`SELECT id FROM users WHERE email = ${ADMIN.email}`)).id;
  callers = [
    { token: t.adminToken, id: adminId },
    await t.createUser('KHOA_ADMIN', [{ roleId: counter, organizationId: faculties[2] }]),
    await t.createUser('CD_ADMIN', [{ roleId: counter, organizationId: units.at(-1) }]),
    await t.createUser('PLAIN', [{ roleId: viewer, organizationId: org.doan }]),
  ].map((c) => ({ token: c.token, userId: c.id }));
});

/** What the caller's tree must be: stringified now, each count recounted over organization_members. */
async function expected(userId: number) {
  const actor = (await loadActor(t.db, userId))!;
  const recount = new Map(
    (
      await sqlAll<{ id: number; n: number }>(
        t.db,
        sql`SELECT organization_id AS id, count(*) AS n FROM organization_members WHERE is_active = true GROUP BY organization_id`,
      )
    ).map((r) => [r.id, r.n]),
  );
  const tree = await buildTree(t.db, await visibility(t.db, actor), true);
  const counted = JSON.stringify(tree);
  const fill = (ns: OrganizationNode[]): void => ns.forEach((n) => ((n.memberCount = recount.get(n.id) ?? 0), fill(n.children)));
  fill(tree);
  return { recounted: JSON.stringify(tree), counted };
}

async function answers(token: string) {
  const get = (encoding: string) =>
    t.app.request('/api/organizations/tree', { headers: { authorization: `Bearer ${token}`, 'accept-encoding': encoding } });
  const [plain, zipped] = [await get('identity'), await get('gzip')];
  expect(zipped.headers.get('content-encoding')).toBe('gzip');
  return {
    plain: Buffer.from(await plain.arrayBuffer()).toString('utf8'),
    unzipped: gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString('utf8'),
  };
}

describe('the tree after membership writes', () => {
  it('answers every caller the freshly stringified tree with recounted members, plain and gzipped', async () => {
    for (let round = 0; round < 12; round++) {
      // One to three writes, as a request or an import makes them.
      for (let w = 1 + rand(3); w > 0; w--) {
        const [unit, user] = [units[rand(units.length)]!, userIds[rand(userIds.length)]!];
        const held = await sqlGet<{ id: number } | undefined>(
          t.db,
          sql`SELECT id FROM organization_members WHERE organization_id = ${unit} AND user_id = ${user}`,
        );
        if (held === undefined) await runQuery(t.db.insert(organizationMembers).values({ organizationId: unit, userId: user }));
        else if (rand(3) === 0) await sqlRun(t.db, sql`DELETE FROM organization_members WHERE id = ${held.id}`);
        else await sqlRun(t.db, sql`UPDATE organization_members SET is_active = NOT is_active WHERE id = ${held.id}`);
      }
      // Not every caller asks every round: a shape's pieces then lag several writes behind.
      for (const [i, caller] of callers.entries()) {
        if (round % 3 === 2 && i === 1) continue;
        const { plain, unzipped } = await answers(caller.token);
        expect(unzipped).toBe(plain);
        const want = await expected(caller.userId);
        if (i === 3)
          expect(plain).toBe(JSON.stringify(await buildTree(t.db, await visibility(t.db, (await loadActor(t.db, caller.userId))!), false)));
        else {
          expect(plain).toBe(want.recounted);
          expect(plain).toBe(want.counted);
        }
      }
    }
    // The writes reached the tree: some unit shows members.
    expect((await expected(callers[0]!.userId)).recounted).toMatch(/"memberCount":[1-9]/);
    expect(Buffer.byteLength((await expected(callers[0]!.userId)).recounted)).toBeGreaterThan(3 * 32 * 1024);
  });
});
