/** Rows an import commits carry an audit row even when the run stops half-way (security issue item 10). */
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { makeTestApp, type TestApp } from '../test/harness';
import { users } from '../db/tables/users';
import { form, USER_HEADER, userRow, xlsx } from './fixture';
import { usersImport } from './kinds/users';
import { allRows, firstRow } from '../db/engine';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterEach(() => vi.restoreAllMocks());

const rows = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) =>
    userRow({ code: `IA${from + i}`, familyName: 'Lê', givenName: `An ${from + i}`, email: `ia${from + i}@sv.vn` }),
  );

async function run(data: Awaited<ReturnType<typeof rows>>, options: Record<string, unknown>) {
  const up = await t.request('POST', '/api/users/import/upload', { token: t.adminToken, body: form(await xlsx(USER_HEADER, data)) });
  expect(up.status, JSON.stringify(up.body)).toBe(201);
  const res = await t.request('POST', `/api/users/import/${up.body.sessionId}/execute`, { token: t.adminToken, body: { options } });
  return { sessionId: up.body.sessionId as string, res };
}

const auditsOf = async (sessionId: string) => await allRows(t.db.select().from(auditLogs).where(eq(auditLogs.entityId, sessionId)));

describe('import audit', () => {
  it('a run that stops after its first batch leaves that batch written and audited', async () => {
    const original = usersImport.prepare!.bind(usersImport);
    let calls = 0;
    // The second batch fails outside any row (as a crash between batches would leave it).
    vi.spyOn(usersImport as { prepare: NonNullable<typeof usersImport.prepare> }, 'prepare').mockImplementation(async (r) => {
      if (++calls === 2) throw new Error('disk full');
      return original(r);
    });
    const { sessionId, res } = await run(rows(1, 4), { skipErrors: true, batchSize: 2 });
    expect(res.body.importedCount).toBe(2);
    expect(await firstRow(t.db.select().from(users).where(eq(users.code, 'IA1')))).toBeTruthy();
    expect(await firstRow(t.db.select().from(users).where(eq(users.code, 'IA3')))).toBeUndefined();
    const batches = (await auditsOf(sessionId)).filter((a) => a.action === 'import.users.batch');
    expect(batches).toHaveLength(1);
    expect(JSON.parse(batches[0]!.after!)).toMatchObject({ fromRow: 2, toRow: 3, importedCount: 2 });
  });

  it('a completed run has one audit row per batch and the summary', async () => {
    const { sessionId, res } = await run(rows(10, 5), { skipErrors: true, batchSize: 2 });
    expect(res.body.importedCount).toBe(5);
    const actions = (await auditsOf(sessionId)).map((a) => a.action);
    expect(actions.filter((a) => a === 'import.users.batch')).toHaveLength(3);
    expect(actions).toContain('import.users');
  });
});
