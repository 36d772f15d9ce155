/**
 * A users import skipping errors on PostgreSQL (runs.ts): one transaction with a savepoint per batch,
 * the new members' figures and index rows written once at its end. What a user sees must be what
 * SQLite's batch-by-batch commits give: a batch failing as a whole stops the import there keeping the
 * batches before it, progress moves while it runs, and every figure equals a recount once it is done.
 * Unlike SQLite's, the rows appear to others only when the whole run commits.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_ENGINE, type TestApp } from '../test/harness';
import { pgPoolOf } from '../db/postgres';
import { FIGURED, norm, RECOUNTS } from '../db/pg/trigger-figures.fixture';
import { sqlRun } from '../db/engine';
import { importUsers, indexDrift, uploadUsers, usersImportHelpers, usersImportWorld } from './fixture';
import { usersImport } from './kinds/users';

let t: TestApp;
const { userByCode, ok } = usersImportHelpers(() => t);

beforeAll(async () => {
  if (TEST_ENGINE === 'pg') ({ t } = await usersImportWorld());
});
afterEach(() => vi.restoreAllMocks());

/** Ten rows over the world's units (one with none), batches of two: rows 2–3, 4–5, 6–7, 8–9, 10–11. */
const rows = (prefix: string) =>
  Array.from({ length: 10 }, (_, i) =>
    ok(`${prefix}${i + 1}`, { organizationCodes: ['UI-CD1', 'UI-DCS2', '', 'UI-CD1, UI-DCS2'][i % 4]! }),
  );

const status = async (sessionId: string) => (await t.request('GET', `/api/users/import/${sessionId}/status`, { token: t.adminToken })).body;

/** Every trigger-kept figure the import moves, against its recount from the base tables. */
async function expectRecounted() {
  const read = async (text: string) => norm((await pgPoolOf(t.db)!.query({ text, rowMode: 'array' })).rows as unknown[][]);
  for (const [kind, figured] of Object.entries(FIGURED))
    expect({ [kind]: await read(figured) }).toEqual({ [kind]: await read(RECOUNTS[kind]!) });
  // The whole tree's facet (unit 0): every user, member or not.
  expect({
    everyone: await read(
      'SELECT user_type, membership_status, is_active, n FROM user_facet_counts WHERE organization_id = 0 AND n <> 0 ORDER BY 1, 2, 3',
    ),
  }).toEqual({
    everyone: await read('SELECT user_type, membership_status, is_active::int, count(*) FROM users GROUP BY 1, 2, 3 ORDER BY 1, 2, 3'),
  });
  expect(await indexDrift(t)).toEqual({ missing: 0, words: 0, units: 0, scopes: 0, pauses: 0 });
}

describe.skipIf(TEST_ENGINE !== 'pg')('PostgreSQL: a users import skipping errors runs in one transaction', () => {
  it('a batch failing as a whole is undone alone: the batches before it stay, the figures equal a recount', async () => {
    // The third batch's audit row is refused after its users and memberships were written.
    await sqlRun(
      t.db,
      `CREATE FUNCTION refuse_batch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF NEW.action = 'import.users.batch' AND NEW.after LIKE '%"fromRow":6,%' THEN RAISE EXCEPTION 'audit refused'; END IF;
        RETURN NEW; END $$`,
    );
    await sqlRun(t.db, 'CREATE TRIGGER refuse_batch BEFORE INSERT ON audit_logs FOR EACH ROW EXECUTE FUNCTION refuse_batch()');
    try {
      const res = await importUsers(t, rows('OTF'), { batchSize: 2 });
      expect(res.body).toMatchObject({ success: false, importedCount: 4, failedCount: 6 });
      expect(res.body.message).toContain('Import dừng ở dòng 6');
      for (const n of [1, 2, 3, 4]) expect(await userByCode(`OTF${n}`), `OTF${n}`).toBeTruthy();
      for (const n of [5, 6, 7]) expect(await userByCode(`OTF${n}`), `OTF${n}`).toBeUndefined();
      expect(await status(res.sessionId)).toMatchObject({ status: 'failed', processedRows: 4, result: { importedCount: 4 } });
    } finally {
      await sqlRun(t.db, 'DROP TRIGGER refuse_batch ON audit_logs');
      await sqlRun(t.db, 'DROP FUNCTION refuse_batch()');
    }
    await expectRecounted();
  });

  it('its progress is seen by other connections while it runs, and a user created meanwhile; its rows, only once it commits', async () => {
    // The third batch waits until the test has looked from outside.
    const original = usersImport.writeBatch!.bind(usersImport);
    let calls = 0;
    let reached!: () => void;
    const atThird = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    const go = new Promise<void>((r) => (release = r));
    vi.spyOn(usersImport as { writeBatch: NonNullable<typeof usersImport.writeBatch> }, 'writeBatch').mockImplementation(
      async (...args) => {
        if (++calls === 3) {
          reached();
          await go;
        }
        return original(...args);
      },
    );
    const up = await uploadUsers(t, rows('OTP'));
    const running = t.request('POST', `/api/users/import/${up.body.sessionId}/execute`, {
      token: t.adminToken,
      body: { options: { batchSize: 2 } },
    });
    try {
      await atThird;
      expect(await status(up.body.sessionId)).toMatchObject({ status: 'running', processedRows: 4, totalRows: 10 });
      expect(await userByCode('OTP1')).toBeUndefined();
      // A user of the imported users' kind created meanwhile does not wait for the import to commit (drizzle-pg 0014).
      const created = await Promise.race([
        t.createUser('OTPSIDE').then(() => 'created'),
        new Promise((r) => setTimeout(() => r('still waiting after 5 s'), 5_000)),
      ]);
      expect(created).toBe('created');
    } finally {
      release();
    }
    expect((await running).body).toMatchObject({ success: true, importedCount: 10 });
    expect(await status(up.body.sessionId)).toMatchObject({ status: 'completed', processedRows: 10 });
    expect(await userByCode('OTP1')).toBeTruthy();
    await expectRecounted();
  });
});
