/**
 * Errors name their field (issue 26 item 7): a taken code, e-mail or name answers 409 with
 * `errors: { field: [message] }` beside the unchanged `{ message }`, and a validation failure lists
 * every failing field the same way, so the admin's forms show each message under its input.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { orgWorld, type OrgTree } from '../organizations/fixture';
import type { TestApp } from '../test/harness';
import { newUserBody } from '../users/fixture';
import { withFieldErrors } from './errors';

let t: TestApp;
let org: OrgTree;

beforeAll(async () => {
  ({ t, org } = await orgWorld());
});

const post = (path: string, body: unknown) => t.request('POST', path, { token: t.adminToken, body });
const patch = (path: string, body: unknown) => t.request('PATCH', path, { token: t.adminToken, body });

/** The 409 keeps its message and names exactly one field with that message. */
function expectConflictOn(res: { status: number; body: Record<string, unknown> }, field: string, text: RegExp) {
  expect(res.status).toBe(409);
  expect(res.body.message).toMatch(text);
  expect(res.body.errors).toEqual({ [field]: [res.body.message] });
}

describe('a conflict names its field', () => {
  it('organization code, on create and on edit', async () => {
    expect((await post('/api/organizations', { name: 'Chi đoàn A', code: 'TAKEN1', type: 'chi_doan', parentId: org.dcs })).status).toBe(
      201,
    );
    const other = await post('/api/organizations', { name: 'Chi đoàn B', code: 'FREE1', type: 'chi_doan', parentId: org.dcs });
    expectConflictOn(
      await post('/api/organizations', { name: 'Chi đoàn C', code: 'TAKEN1', type: 'chi_doan', parentId: org.dcs }),
      'code',
      /TAKEN1.*đã tồn tại/,
    );
    expectConflictOn(await patch(`/api/organizations/${other.body.id}`, { code: 'TAKEN1' }), 'code', /TAKEN1/);
  });

  it("a user's e-mail and code, on create and on edit", async () => {
    const first = newUserBody({ organizationId: org.cd });
    expect((await post('/api/users', first)).status).toBe(201);
    expectConflictOn(await post('/api/users', newUserBody({ organizationId: org.cd, email: first.email })), 'email', /Email/);
    expectConflictOn(await post('/api/users', newUserBody({ organizationId: org.cd, code: first.code })), 'code', new RegExp(first.code));
    const second = await post('/api/users', newUserBody({ organizationId: org.cd }));
    expectConflictOn(await patch(`/api/users/${second.body.id}`, { email: first.email }), 'email', /đã tồn tại/);
  });

  it('department and class codes, and a role name', async () => {
    const dept = await post('/api/departments', { name: 'Khoa Một', code: 'K1' });
    expect(dept.status).toBe(201);
    expectConflictOn(await post('/api/departments', { name: 'Khoa Hai', code: 'K1' }), 'code', /Mã khoa/);
    const dept2 = await post('/api/departments', { name: 'Khoa Ba', code: 'K3' });
    expectConflictOn(await patch(`/api/departments/${dept2.body.id}`, { name: 'Khoa Ba', code: 'K1' }), 'code', /Mã khoa/);
    expect((await post('/api/classes', { name: 'Lớp Một', code: 'L1' })).status).toBe(201);
    expectConflictOn(await post('/api/classes', { name: 'Lớp Hai', code: 'L1' }), 'code', /Mã lớp/);
    expect((await post('/api/roles', { name: 'taken_role', displayName: 'Vai trò' })).status).toBe(201);
    expectConflictOn(await post('/api/roles', { name: 'taken_role', displayName: 'Khác' }), 'name', /taken_role/);
  });

  it('a refusal about one input names it too (a unit placed under the wrong parent)', async () => {
    const res = await post('/api/organizations', { name: 'Chi đoàn lạc', code: 'LAC1', type: 'chi_doan', parentId: org.doan });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toEqual(['parentId']);
  });

  it('a conflict about no single input stays a plain message', async () => {
    const res = await t.request('DELETE', `/api/organizations/${org.doan}`, { token: t.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.errors).toBeUndefined();
    expect(typeof res.body.message).toBe('string');
  });
});

describe('a validation error lists its fields', () => {
  it('every failing input, with the messages of the issues, in the caller language', async () => {
    const res = await t.request('POST', '/api/users', {
      token: t.adminToken,
      body: { ...newUserBody({ organizationId: org.cd }), email: 'not-an-email', familyName: '' },
      headers: { 'accept-language': 'vi' },
    });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(Object.keys(res.body.errors).sort()).toEqual(['email', 'familyName']);
    for (const issue of res.body.issues as { path: string; message: string }[])
      expect(res.body.errors[issue.path]).toContain(issue.message);
  });

  it('a service-made 400 with issues gets them per field as well', () => {
    expect(
      withFieldErrors({
        issues: [
          { path: 'endDate', message: 'a' },
          { path: 'endDate', message: 'b' },
          { path: '', message: 'whole body' },
        ],
      }),
    ).toEqual({
      issues: [
        { path: 'endDate', message: 'a' },
        { path: 'endDate', message: 'b' },
        { path: '', message: 'whole body' },
      ],
      errors: { endDate: ['a', 'b'] },
    });
    expect(withFieldErrors({ other: 1 })).toEqual({ other: 1 });
  });
});
