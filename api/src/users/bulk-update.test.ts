/**
 * POST /users/bulk-update (issue 30 item 6): a selection or "all that match" the users list's
 * filter, the preview, refusals for rows outside the caller's rights (the whole change refused,
 * codes listed), bad input, the cap, audit rows, and the trigger-kept figures afterwards.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLabels } from '../audit/labels';
import { userAuditOrganizations } from '../audit/organization';
import { auditLogOrganizations, auditLogs } from '../db/tables/audit';
import { classes } from '../db/tables/classes';
import { organizationMembers } from '../db/tables/organizations';
import { makeTestApp, TEST_ENGINE, type TestApp } from '../test/harness';
import { addMember, insertUser, scopedWorld, USER_CODES } from './fixture';
import { users } from '../db/tables/users';
import { allRows, firstRow, runQuery, sqlAll } from '../db/engine';
import { mapInOrder } from '../lib/in-order';

let t: TestApp;
let w: Awaited<ReturnType<typeof scopedWorld>>;
/** An officer of F1 who may also add members and end memberships there. */
let officer: { id: number; token: string };
let classId: number;
const bulk = (body: unknown, token = t.adminToken) => t.request('POST', '/api/users/bulk-update', { token, body });
const row = async (id: number) => (await firstRow(t.db.select().from(users).where(eq(users.id, id))))!;
const audits = async (ids: number[]) =>
  await allRows(
    t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'user.bulk_update'), inArray(auditLogs.entityId, ids.map(String)))),
  );

beforeAll(async () => {
  t = await makeTestApp();
  w = await scopedWorld(t, 'BK');
  const role = await t.createRole('bk_officer', [
    ...USER_CODES,
    'organizations.access',
    'organizations.add_member',
    'organizations.end_membership',
  ]);
  officer = await t.createUser('BKOFF', [{ roleId: role, organizationId: w.f1 }]);
  classId = (await firstRow(t.db.insert(classes).values({ code: 'BK-K66', name: 'K66 CNTT', year: 2021 }).returning())).id;
});

describe('POST /users/bulk-update on a selection', () => {
  it('sets the Đoàn/Hội status and the class of the chosen users in one change, one audit row per changed user', async () => {
    const ids = [
      await insertUser(t, { membershipStatus: 'none' }, w.f1),
      await insertUser(t, { membershipStatus: 'none' }, w.f1),
      await insertUser(t, { membershipStatus: 'both', classId }, w.f1),
    ];
    const res = await bulk({ ids, set: { membershipStatus: 'both', classId } }, officer.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dryRun: false, matched: 3, changed: 2, refusedCount: 0 });
    expect(await mapInOrder(ids, async (id) => [(await row(id)).membershipStatus, (await row(id)).classId])).toEqual(
      ids.map(() => ['both', classId]),
    );
    const logs = await audits(ids);
    // The third already held both values: nothing changed, nothing audited.
    expect(logs.map((l) => Number(l.entityId)).sort()).toEqual(ids.slice(0, 2).sort());
    expect(JSON.parse(logs[0]!.before!)).toEqual({ membershipStatus: 'none', classId: null });
    expect(JSON.parse(logs[0]!.after!)).toEqual({ membershipStatus: 'both', classId });
    expect(logs[0]!.actorId).toBe(officer.id);
    expect(JSON.parse(logs[0]!.labels!).names[`class:${classId}`]).toBe('K66 CNTT');
    // The rows are the ones audit/writer.ts would write: same labels, same readers' organizations.
    for (const log of logs) {
      const entry = {
        actorId: officer.id,
        action: log.action,
        entity: 'user',
        entityId: log.entityId,
        before: JSON.parse(log.before!),
        after: JSON.parse(log.after!),
      };
      expect(JSON.parse(log.labels!)).toEqual(await auditLabels(t.db, entry, null));
      const readers = await allRows(
        t.db
          .select({ id: auditLogOrganizations.organizationId })
          .from(auditLogOrganizations)
          .where(eq(auditLogOrganizations.auditLogId, log.id)),
      );
      expect(readers.map((r) => r.id)).toEqual(await userAuditOrganizations(t.db, { ...entry, action: 'user.update' }));
      expect(log.organizationId).toBeNull();
    }
  });

  it('the preview (dryRun) counts, samples and writes nothing', async () => {
    const ids = [await insertUser(t, { userType: 'student' }, w.f1), await insertUser(t, { userType: 'student' }, w.f1)];
    const res = await bulk({ ids, set: { userType: 'staff' }, dryRun: true }, officer.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ dryRun: true, matched: 2, changed: 2, refusals: [], refusedCount: 0, cap: 10_000 });
    expect(res.body.sample.map((s: { id: number }) => s.id).sort()).toEqual([...ids].sort());
    expect(await mapInOrder(ids, async (id) => (await row(id)).userType)).toEqual(['student', 'student']);
    expect(await audits(ids)).toEqual([]);
  });

  it("a row outside the caller's scope refuses the whole change, naming its code; the preview lists it too", async () => {
    const mine = await insertUser(t, { membershipStatus: 'none' }, w.f1);
    const outside = await insertUser(t, { code: 'BK-F2-OUT', membershipStatus: 'none' }, w.f2);
    // The officer does not even see F2's user: as on the single edit, it is "not found", counted, not named.
    const unseen = await bulk({ ids: [mine, outside], set: { membershipStatus: 'doan_vien' } }, officer.token);
    expect(unseen.status).toBe(404);
    expect(unseen.body.message).toContain('1 người dùng');
    // A user in F1 and F2: seen and editable through F1, but deactivating them needs F2 too (manage.ts).
    const both = await insertUser(t, { code: 'BK-BOTH' }, w.f1);
    await addMember(t, both, w.f2);
    const preview = await bulk({ ids: [mine, both], set: { isActive: false }, dryRun: true }, officer.token);
    expect(preview.status).toBe(200);
    expect(preview.body.refusedCount).toBe(1);
    expect(preview.body.refusals).toEqual([expect.objectContaining({ id: both, code: 'BK-BOTH', reason: 'not_manageable' })]);
    const res = await bulk({ ids: [mine, both], set: { isActive: false, membershipStatus: 'doan_vien' } }, officer.token);
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('BK-BOTH');
    expect(res.body.message).toContain('Chưa có thay đổi nào được lưu');
    expect(res.body.refusals).toEqual([expect.objectContaining({ code: 'BK-BOTH', reason: 'not_manageable' })]);
    expect([(await row(mine)).isActive, (await row(mine)).membershipStatus, (await row(both)).isActive]).toEqual([true, 'none', true]);
    expect(await audits([mine, both])).toEqual([]);
    // The status alone follows the users.update reach, which F1 gives: allowed.
    expect((await bulk({ ids: [mine, both], set: { membershipStatus: 'doan_vien' } }, officer.token)).status).toBe(200);
  });

  it('lists at most 50 refused codes with how many more there are', async () => {
    const ids = await mapInOrder(
      Array.from({ length: 55 }, (_, i) => i),
      async (i) => {
        const id = await insertUser(t, { code: `BK-MANY-${String(i).padStart(2, '0')}` }, w.f1);
        await addMember(t, id, w.f2);
        return id;
      },
    );
    const res = await bulk({ ids, set: { userType: 'staff' } }, officer.token);
    expect(res.status).toBe(403);
    expect(res.body.refusedCount).toBe(55);
    expect(res.body.refusals).toHaveLength(50);
    expect(res.body.message).toContain('55 người');
    expect(res.body.message).toContain('và 5 người khác');
  });

  it('the caller cannot deactivate their own account (409), nor edit a system administrator (403)', async () => {
    const self = await bulk({ ids: [t.admin.user.id], set: { isActive: false } });
    expect(self.status).toBe(409);
    expect(self.body.refusals[0].reason).toBe('self');
    const superAdmin = (await firstRow(t.db.select({ id: users.id }).from(users).where(eq(users.email, 'admin@doanhoi.local'))))!.id;
    await addMember(t, superAdmin, w.f1);
    const res = await bulk({ ids: [superAdmin], set: { membershipStatus: 'both' } }, officer.token);
    expect(res.status).toBe(403);
    expect(res.body.refusals[0].reason).toBe('super_admin');
    await runQuery(t.db.delete(organizationMembers).where(eq(organizationMembers.userId, superAdmin)));
  });

  it('without users.update anywhere, setting a user field is 403; without users.access, 403', async () => {
    const viewer = await t.createUser('BKVIEW', [{ roleId: await t.createRole('bk_view', ['users.access']), organizationId: w.f1 }]);
    const id = await insertUser(t, {}, w.f1);
    expect((await bulk({ ids: [id], set: { membershipStatus: 'both' } }, viewer.token)).status).toBe(403);
    expect((await bulk({ ids: [id], set: { membershipStatus: 'both' } }, (await t.createUser('BKNONE')).token)).status).toBe(403);
  });
});

describe('POST /users/bulk-update on "all that match"', () => {
  it('touches exactly the users the list shows for the same filter, search included', async () => {
    const hits = await mapInOrder([0, 1, 2], (i) =>
      insertUser(t, { familyName: 'Bùi Lọcbulk', givenName: `An${i}`, userType: 'student' }, w.c1),
    );
    await insertUser(t, { familyName: 'Bùi Lọcbulk', givenName: 'Staff', userType: 'staff' }, w.c1);
    await insertUser(t, { familyName: 'Bùi Lọcbulk', givenName: 'Khác' }, w.f2);
    const list = await t.request('GET', '/api/users?search=locbulk&userType=student&limit=100', { token: officer.token });
    expect(list.body.total).toBe(3);
    const filter = { search: 'locbulk', userType: 'student' };
    const preview = await bulk({ filter, set: { membershipStatus: 'hoi_vien' }, dryRun: true }, officer.token);
    expect(preview.body).toMatchObject({ matched: list.body.total, changed: 3, refusedCount: 0 });
    const res = await bulk({ filter, set: { membershipStatus: 'hoi_vien' } }, officer.token);
    expect(res.status).toBe(200);
    expect(res.body.changed).toBe(3);
    expect(await mapInOrder(hits, async (id) => (await row(id)).membershipStatus)).toEqual(['hoi_vien', 'hoi_vien', 'hoi_vien']);
    // The global admin's same filter also matches F2's user.
    expect((await bulk({ filter, set: { membershipStatus: 'hoi_vien' }, dryRun: true })).body.matched).toBe(4);
    // And a filter by a unit outside the caller's users.access is refused as on the list.
    expect((await bulk({ filter: { organizationId: w.f2 }, set: { membershipStatus: 'both' } }, officer.token)).status).toBe(403);
  });

  it('over the cap: 413 on the change, a preview that says so', async () => {
    const small = await makeTestApp({ BULK_UPDATE_MAX_USERS: '3' });
    const org = await small.createOrg('doan_truong', 'CAP');
    const ids = await mapInOrder([0, 1, 2, 3], () => insertUser(small, { familyName: 'Giới Hạn' }, org));
    const send = (body: unknown) => small.request('POST', '/api/users/bulk-update', { token: small.adminToken, body });
    const byIds = await send({ ids, set: { userType: 'staff' } });
    expect(byIds.status).toBe(413);
    expect(byIds.body.message).toContain('tối đa 3 người dùng');
    const byFilter = await send({ filter: { organizationId: org }, set: { userType: 'staff' } });
    expect(byFilter.status).toBe(413);
    const preview = await send({ filter: { organizationId: org }, set: { userType: 'staff' }, dryRun: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ matched: 4, changed: 0, cap: 3 });
    expect(await mapInOrder(ids, async (id) => (await firstRow(small.db.select().from(users).where(eq(users.id, id))))!.userType)).toEqual([
      'student',
      'student',
      'student',
      'student',
    ]);
    expect((await send({ ids: ids.slice(0, 3), set: { userType: 'staff' } })).status).toBe(200);
  });
});

describe('POST /users/bulk-update bad input', () => {
  it.each([
    ['neither ids nor filter', { set: { membershipStatus: 'both' } }],
    ['both ids and filter', { ids: [1], filter: {}, set: { membershipStatus: 'both' } }],
    ['nothing to set', { ids: [1], set: {} }],
    ['a field a bulk edit may not set', { ids: [1], set: { email: 'x@y.vn' } }],
    ['an unknown status', { ids: [1], set: { membershipStatus: 'party' } }],
    ['ids that are not ids', { ids: ['a'], set: { isActive: true } }],
    ['an unknown filter', { filter: { classId: 1 }, set: { isActive: true } }],
    ['add and end at once', { ids: [1], set: { addToOrganizationId: 1, endMembership: { organizationId: 1, reason: 'graduated' } } }],
    ['an end without a reason', { ids: [1], set: { endMembership: { organizationId: 1 } } }],
  ])('400 for %s', async (_name, body) => {
    const res = await bulk(body);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
  });

  it('400 naming the field for a class that does not exist', async () => {
    const res = await bulk({ ids: [await insertUser(t, {}, w.f1)], set: { classId: 999_999 } });
    expect(res.status).toBe(400);
    expect(res.body.errors['set.classId']).toBeDefined();
  });
});

describe('POST /users/bulk-update on memberships', () => {
  const active = async (userId: number, orgId: number) =>
    await firstRow(
      t.db
        .select()
        .from(organizationMembers)
        .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.organizationId, orgId))),
    );

  it('adds users within reach to a unit; one from outside refuses it all', async () => {
    const ids = [await insertUser(t, {}, w.f1), await insertUser(t, {}, w.f1)];
    const res = await bulk({ ids, set: { addToOrganizationId: w.c1 } }, officer.token);
    expect(res.status).toBe(200);
    expect(res.body.changed).toBe(2);
    expect(await mapInOrder(ids, async (id) => (await active(id, w.c1))?.isActive)).toEqual([true, true]);
    const log = (await audits(ids))[0]!;
    expect(JSON.parse(log.after!)).toEqual({ added: [w.c1] });
    expect(JSON.parse(log.labels!)).toEqual(
      await auditLabels(
        t.db,
        { actorId: officer.id, action: log.action, entity: 'user', entityId: log.entityId, after: { added: [w.c1] } },
        null,
      ),
    );
    // A member of F2 (an ended F1 membership does not count): outside the officer's add reach.
    const stranger = await insertUser(t, { code: 'BK-STRANGER' }, w.f2);
    const both = await insertUser(t, {}, w.f1);
    await addMember(t, stranger, w.f1, false);
    const refused = await bulk({ ids: [both, stranger], set: { addToOrganizationId: w.c1 } }, officer.token);
    expect(refused.status).toBe(404); // not seen at all by the officer
    // Someone who sees F2's users but may add members only in F1: the stranger is named and nobody is added.
    const adder = await t.createUser('BKADD', [
      { roleId: await t.createRole('bk_add', ['users.access', 'organizations.access', 'organizations.add_member']), organizationId: w.f1 },
      { roleId: await t.createRole('bk_see', ['users.access']), organizationId: w.f2 },
    ]);
    const seenOutside = await bulk({ ids: [both, stranger], set: { addToOrganizationId: w.c1 } }, adder.token);
    expect(seenOutside.status).toBe(403);
    expect(seenOutside.body.message).toContain('BK-STRANGER');
    expect(await active(both, w.c1)).toBeUndefined();
  });

  it('ends the membership of a selection with a reason and date; a non-member refuses it (409)', async () => {
    const ids = [await insertUser(t, {}, w.f1), await insertUser(t, {}, w.f1)];
    for (const id of ids) await addMember(t, id, w.c1);
    const outsider = await insertUser(t, { code: 'BK-NOTIN' }, w.f1);
    const refused = await bulk(
      { ids: [...ids, outsider], set: { endMembership: { organizationId: w.c1, reason: 'graduated', endedAt: '2025-06-30' } } },
      officer.token,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('BK-NOTIN');
    expect((await active(ids[0]!, w.c1))?.isActive).toBe(true);
    const res = await bulk(
      { ids, set: { endMembership: { organizationId: w.c1, reason: 'graduated', endedAt: '2025-06-30', note: 'Khóa 2021' } } },
      officer.token,
    );
    expect(res.status).toBe(200);
    const m = (await active(ids[0]!, w.c1))!;
    expect([m.isActive, m.endReason, m.endNote, m.endedAt?.toISOString()]).toEqual([
      false,
      'graduated',
      'Khóa 2021',
      '2025-06-29T17:00:00.000Z',
    ]);
    // F1 itself still holds them (the officer's chi đoàn was left, F1 keeps its other members' units).
    expect(JSON.parse((await audits(ids))[0]!.after!).endedMembership).toMatchObject({
      organizationId: w.c1,
      reason: 'graduated',
      endedAt: '2025-06-30',
    });
    expect(
      (
        await bulk(
          { ids, set: { endMembership: { organizationId: w.c1, reason: 'graduated' } } },
          (await t.createUser('BKNOEND', [{ roleId: await t.createRole('bk_noend', USER_CODES), organizationId: w.f1 }])).token,
        )
      ).status,
    ).toBe(403);
  });
});

describe('trigger-kept figures after bulk changes', () => {
  it('facet counts and member counts equal a fresh count', async () => {
    const ids = await mapInOrder(
      Array.from({ length: 30 }, (_, i) => i),
      (i) => insertUser(t, { userType: i % 2 ? 'staff' : 'student' }, w.f1),
    );
    expect((await bulk({ ids, set: { membershipStatus: 'both', isActive: false } })).status).toBe(200);
    expect((await bulk({ ids: ids.slice(0, 20), set: { addToOrganizationId: w.c1 } })).status).toBe(200);
    expect((await bulk({ ids: ids.slice(0, 10), set: { endMembership: { organizationId: w.c1, reason: 'moved_away' } } })).status).toBe(
      200,
    );
    const facets = async (sql: string) => await sqlAll(t.db, sql);
    // Each active membership counts for its organization and every ancestor on its path.
    const onPath =
      TEST_ENGINE === 'pg'
        ? `unnest(string_to_array(trim(both '/' from o.path), '/')::int8[]) AS j(value)`
        : `json_each('[' || replace(trim(o.path, '/'), '/', ',') || ']') j`;
    expect(
      await facets(
        'SELECT organization_id AS o, user_type AS t, membership_status AS s, is_active AS a, n FROM user_facet_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4',
      ),
    ).toEqual(
      await facets(`WITH uo AS (SELECT 0 AS org, id AS user_id FROM users
          UNION SELECT j.value, m.user_id FROM organization_members m JOIN organizations o ON o.id = m.organization_id,
            ${onPath} WHERE m.is_active = true)
        SELECT uo.org AS o, u.user_type AS t, u.membership_status AS s, CASE WHEN u.is_active THEN 1 ELSE 0 END AS a, count(*) AS n
        FROM uo JOIN users u ON u.id = uo.user_id GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`),
    );
    expect(await facets('SELECT organization_id AS o, direct AS d FROM organization_member_counts WHERE direct <> 0 ORDER BY 1')).toEqual(
      await facets('SELECT organization_id AS o, count(*) AS d FROM organization_members WHERE is_active = true GROUP BY 1 ORDER BY 1'),
    );
    const list = await t.request('GET', `/api/users?organizationId=${w.c1}&isActive=false&limit=100`, { token: t.adminToken });
    expect(list.body.total).toBe(10);
  });
});
