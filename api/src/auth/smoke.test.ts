import { describe, expect, it } from 'vitest';
import { makeTestApp } from '../test/harness';

describe('auth smoke', () => {
  it('signs in the admin and reads the profile', async () => {
    const t = await makeTestApp();
    const res = await t.request('GET', '/api/auth/profile', { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe('admin@doanhoi.local');
    expect(res.body.passwordHash).toBeUndefined();
  });
});
