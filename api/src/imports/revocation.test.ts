/**
 * Issue 10 item 6 through the users import: a file that gives an existing account a new password
 * or e-mail (updateExisting) is an administrator's reset like PATCH /users/:id, so every session of
 * that user ends at once — also when the import ran in the worker thread, whose connection cannot
 * tell this thread's in-memory list of revoked sessions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offloadedCalls, stopWorkers } from '../lib/worker-pool';
import { makeTestApp, type TestApp } from '../test/harness';
import { importUsers, userRow } from './fixture';

const me = (t: TestApp, token: string) => t.request('GET', '/api/auth/me/permissions', { token });

async function expectRevoked(t: TestApp, s: { token: string; refreshToken: string }) {
  expect((await me(t, s.token)).status).toBe(401);
  expect((await t.request('POST', '/api/auth/refresh', { body: { refreshToken: s.refreshToken } })).status).toBe(401);
}

function cases(name: string, open: () => Promise<TestApp>) {
  describe(name, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await open();
    }, 60_000);

    const row = (code: string, v: Record<string, string>) =>
      userRow({ code, familyName: 'Nguyễn Văn', givenName: code, phone: '0901234567', ...v });

    it('a new password from the file ends the sessions; the new password signs in', async () => {
      const u = await t.createUser('IMPW');
      expect((await me(t, u.token)).status).toBe(200);
      const res = await importUsers(t, [row('IMPW', { email: u.email, password: 'from-file-9' })], { updateExisting: true });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, importedCount: 1 });
      await expectRevoked(t, u);
      expect((await t.request('POST', '/api/auth/login', { body: { email: u.email, password: 'from-file-9' } })).status).toBe(200);
    });

    it('a new e-mail from the file ends the sessions', async () => {
      const u = await t.createUser('IMMAIL');
      expect((await me(t, u.token)).status).toBe(200);
      const res = await importUsers(t, [row('IMMAIL', { email: 'immail.new@test.vn' })], { updateExisting: true });
      expect(res.body).toMatchObject({ success: true, importedCount: 1 });
      await expectRevoked(t, u);
    });

    it('a harmless update (phone) and a dry run keep the sessions', async () => {
      const u = await t.createUser('IMKEEP');
      expect((await importUsers(t, [row('IMKEEP', { email: u.email, phone: '0911222333' })], { updateExisting: true })).body).toMatchObject(
        { success: true, importedCount: 1 },
      );
      expect(
        (await importUsers(t, [row('IMKEEP', { email: u.email, password: 'dry-run-pw1' })], { updateExisting: true, dryRun: true })).status,
      ).toBe(200);
      expect((await me(t, u.token)).status).toBe(200);
      expect((await t.request('POST', '/api/auth/refresh', { body: { refreshToken: u.refreshToken } })).status).toBe(200);
    });
  });
}

cases('in-process (in-memory database)', () => makeTestApp());

let dir: string;
cases('in the worker thread (database file)', async () => {
  dir = mkdtempSync(join(tmpdir(), 'doanhoi-imrev-'));
  return makeTestApp({}, join(dir, 'app.db'));
});

describe('the worker really ran them', () => {
  it('offloaded calls were counted', () => {
    expect(offloadedCalls()).toBeGreaterThan(0);
  });
});

afterAll(async () => {
  await stopWorkers();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
