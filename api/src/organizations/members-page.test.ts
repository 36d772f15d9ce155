/**
 * A unit's members page is kept until a membership or a user is written (members-page.ts): what another
 * process writes — a member joining, a name changed — is in the next page read, on either engine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTestApp } from '../test/harness';
import { elsewhere, insertUser } from '../users/fixture';

const dir = mkdtempSync(join(tmpdir(), 'members-page-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a kept members page', () => {
  it('shows the next read what another process wrote', async () => {
    const t = await makeTestApp({}, join(dir, 'members.db'));
    const unit = await t.createOrg('chi_doan', 'MP-CD');
    const an = await insertUser(t, { familyName: 'Nguyễn Văn', givenName: 'An', code: 'MP01' }, unit);
    const binh = await insertUser(t, { familyName: 'Trần Thị', givenName: 'Bình', code: 'MP02' });
    const page = async () => {
      const res = await t.request('GET', `/api/organizations/${unit}/members?page=1&limit=10`, { token: t.adminToken });
      expect(res.status).toBe(200);
      return {
        total: res.body.total as number,
        names: (res.body.members as { user: { givenName: string } }[]).map((m) => m.user.givenName),
      };
    };
    expect(await page()).toEqual({ total: 1, names: ['An'] });
    expect(await page()).toEqual({ total: 1, names: ['An'] });
    await elsewhere(
      t.db,
      `INSERT INTO organization_members (user_id, organization_id, is_active, role, joined_at) VALUES (${binh}, ${unit}, true, 'member', 0)`,
    );
    expect(await page()).toEqual({ total: 2, names: ['An', 'Bình'] });
    await elsewhere(t.db, `UPDATE users SET given_name = 'Ân' WHERE id = ${an}`);
    expect(await page()).toEqual({ total: 2, names: ['Ân', 'Bình'] });
  });
});
