/** A detail page's child rows carry their member counts (000 §2 rows; issue 26 item 10), to the same readers as the tree. */
import { beforeEach, expect, it } from 'vitest';
import type { TestApp } from '../test/harness';
import { orgWorld, type OrgTree } from './fixture';

let t: TestApp;
let org: OrgTree<'cd2'>;

beforeEach(async () => {
  ({ t, org } = await orgWorld(['cd2']));
});

const child = (body: { children: { id: number; memberCount: number | null }[] }, id: number) => body.children.find((c) => c.id === id);

it('GET /:id gives each child its own active members, as the tree does; the same by type and code', async () => {
  const a = await t.createUser('DC1');
  const b = await t.createUser('DC2');
  for (const u of [a, b])
    expect((await t.request('POST', `/api/organizations/${org.cd}/members/${u.id}/with-parents`, { token: t.adminToken })).status).toBe(
      201,
    );
  // A membership that ended does not count.
  expect((await t.request('POST', `/api/organizations/${org.cd2}/members/${a.id}`, { token: t.adminToken, body: {} })).status).toBe(201);
  expect((await t.request('DELETE', `/api/organizations/${org.cd2}/members/${a.id}?from=${org.cd2}`, { token: t.adminToken })).status).toBe(
    200,
  );

  const detail = await t.request('GET', `/api/organizations/${org.dcs}`, { token: t.adminToken });
  expect(detail.status).toBe(200);
  expect(child(detail.body, org.cd)).toMatchObject({ code: 'CD1', memberCount: 2 });
  expect(child(detail.body, org.cd2)).toMatchObject({ code: 'CD2', memberCount: 0 });
  const root = await t.request('GET', `/api/organizations/${org.doan}`, { token: t.adminToken });
  expect(child(root.body, org.dcs)!.memberCount).toBe(2);
  const byCode = await t.request('GET', '/api/organizations/by-type-code/doan_co_so/DCS', { token: t.adminToken });
  expect(child(byCode.body, org.cd)!.memberCount).toBe(2);
});

it('a caller without organizations.view_member_count gets null counts, as in the tree', async () => {
  const reader = await t.createRole('reader_no_counts', ['organizations.access']);
  const u = await t.createUser('DCR', [{ roleId: reader, organizationId: org.dcs }]);
  const detail = await t.request('GET', `/api/organizations/${org.dcs}`, { token: u.token });
  expect(detail.status).toBe(200);
  expect(detail.body.children.map((c: { memberCount: number | null }) => c.memberCount)).toEqual([null, null]);
  const counter = await t.createRole('reader_counts', ['organizations.access', 'organizations.view_member_count']);
  const v = await t.createUser('DCV', [{ roleId: counter, organizationId: org.dcs }]);
  const counted = await t.request('GET', `/api/organizations/${org.dcs}`, { token: v.token });
  expect(counted.body.children.map((c: { memberCount: number | null }) => c.memberCount)).toEqual([0, 0]);
});
