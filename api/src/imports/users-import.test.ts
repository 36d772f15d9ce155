/** Users import: validation rules (000 §5), duplicates, conflicts, execute options and sessions. */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_ENGINE, type TestApp } from '../test/harness';
import { users } from '../db/tables/users';
import { importSessionRows, importSessions } from '../db/tables/imports';
import { importUsers, uploadUsers, userRow, usersImportHelpers, usersImportWorld, validateUsers } from './fixture';
import { firstRow, runQuery, sqlGet, sqlRun } from '../db/engine';

let t: TestApp;
let orgs: Awaited<ReturnType<typeof usersImportWorld>>['orgs'];
const { userCount, userByCode, membershipsOf, ok } = usersImportHelpers(() => t);

beforeAll(async () => {
  ({ t, orgs } = await usersImportWorld());
});

describe('validate', () => {
  it('returns the summary, errors, warnings and per-row data', async () => {
    await t.createUser('UIEXIST');
    await t.createUser('UIEXIST2');
    const rows = [
      ok('UV1', {
        password: 'secret1',
        phone: '090 123 4567',
        className: '22cntt1',
        managementDepartmentCode: 'cntt',
        userType: 'Sinh viên',
        membershipStatus: 'both',
      }),
      ok('UV2', { password: '-' }),
      ok('UV1', { email: 'other@sv.vn' }), // duplicate code of row 2
      ok('UV4', { email: 'uv1@sv.vn' }), // duplicate e-mail of row 2
      ok('UIEXIST', { email: 'new-for-existing@sv.vn' }), // conflict by code
      ok('UV6', { email: 'uiexist2@test.vn' }), // conflict by e-mail (another user)
      ok('UV7', { email: 'not-an-email' }),
      ok('UV8', { phone: '12345' }),
      ok('UV9', { password: '123' }),
      ok('UV10', { className: 'NOPE', managementDepartmentCode: 'XX', trainingDepartmentCode: 'YY', organizationCodes: 'NO-ORG' }),
      ok('UV11', { userType: 'alien', membershipStatus: 'maybe' }),
      userRow({ code: 'UV12' }),
    ];
    const { status, body } = await validateUsers(t, rows);
    expect(status).toBe(200);
    expect(body.summary).toEqual({ total: 12, valid: 4, invalid: 8, duplicates: 2, conflicts: 2 });
    expect(body.isValid).toBe(false);
    const errorsOf = (row: number) =>
      body.errors
        .filter((e: { row: number }) => e.row === row)
        .map((e: { message: string }) => e.message)
        .join(' | ');
    expect(errorsOf(4)).toContain('trùng với dòng 2');
    expect(errorsOf(5)).toMatch(/Email uv1@sv.vn trùng với dòng 2/);
    expect(errorsOf(8)).toContain('Email không hợp lệ');
    expect(errorsOf(9)).toContain('10 hoặc 11 chữ số');
    expect(errorsOf(10)).toContain('ít nhất 6 ký tự');
    expect(errorsOf(11)).toContain('lớp: NOPE');
    expect(errorsOf(11)).toContain('khoa quản lý: XX');
    expect(errorsOf(11)).toContain('khoa đào tạo: YY');
    expect(errorsOf(11)).toContain('NO-ORG');
    expect(errorsOf(12)).toMatch(/Loại người dùng không hợp lệ/);
    expect(errorsOf(12)).toMatch(/đoàn viên\/hội viên không hợp lệ/);
    // The create form's messages (shared schema), each with its column.
    expect(errorsOf(13)).toBe('Vui lòng nhập họ (cột Họ) | Vui lòng nhập tên (cột Tên) | Vui lòng nhập email (cột Email)');
    const warningsOf = (row: number) =>
      body.warnings
        .filter((e: { row: number }) => e.row === row)
        .map((e: { message: string }) => e.message)
        .join(' | ');
    expect(warningsOf(3)).toContain('Mật khẩu mặc định');
    expect(warningsOf(6)).toContain('mã số UIEXIST');
    expect(warningsOf(7)).toContain('email uiexist2@test.vn');
    expect(body.data).toHaveLength(12);
    expect(body.data[0]).toMatchObject({ rowIndex: 2, validation: { isValid: true, warnings: [] } });
    expect(body.data[1]).toMatchObject({
      rowIndex: 3,
      validation: {
        isValid: true,
        warnings: expect.arrayContaining([expect.stringContaining('Mật khẩu mặc định là phần trước @ của email: "uv2"')]),
      },
    });
    expect(body.data[2].validation.isValid).toBe(false);
    // Passwords from the file never come back; a default one shows what it will be.
    expect(JSON.stringify(body)).not.toContain('secret1');
    expect(body.data[1].data.password).toBe('uv2');
  });

  it('restores a phone number’s leading zero lost by Excel, and enforces the form’s length limits', async () => {
    const { body } = await validateUsers(t, [
      ok('LZ1', { phone: '901234567' }),
      ok('X'.repeat(51)),
      ok('LZ3', { familyName: 'Đ'.repeat(101) }),
    ]);
    expect(body.data[0].validation).toMatchObject({
      isValid: true,
      warnings: expect.arrayContaining([expect.stringContaining('0901234567')]),
    });
    expect(body.data[1].validation.errors.join(' ')).toContain('Nội dung quá dài (cột Mã số)');
    expect(body.data[2].validation.errors.join(' ')).toContain('Nội dung quá dài (cột Họ)');
    const res = await importUsers(t, [ok('LZ1', { phone: '901234567' })]);
    expect(res.body.importedCount).toBe(1);
    expect((await userByCode('LZ1'))!.phone).toBe('0901234567');
  });

  it('a missing password column or an empty cell also means the default password', async () => {
    const { body } = await validateUsers(t, [['NP1', 'Lê', 'An', 'np1@sv.vn']], t.adminToken, ['code', 'familyName', 'givenName', 'email']);
    expect(body.isValid).toBe(true);
    expect(body.data[0].data.password).toBe('np1');
  });

  it('validating twice gives the same answer and nothing is written', async () => {
    const before = await userCount();
    const { sessionId, body } = await validateUsers(t, [ok('VT1')]);
    const again = await t.request('GET', `/api/users/import/${sessionId}/validate`, { token: t.adminToken });
    expect(again.body.summary).toEqual(body.summary);
    expect(await userCount()).toBe(before);
  });
});

describe('execute', () => {
  it('defaults: skipErrors true, updateExisting false, dryRun false → valid rows written, bad rows reported, conflicts skipped', async () => {
    await t.createUser('EXD0');
    const before = await userCount();
    const res = await importUsers(t, [ok('EXD1'), ok('EXD2', { phone: 'x' }), ok('EXD0', { givenName: 'Đổi' }), ok('EXD3')], undefined);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, importedCount: 2, skippedCount: 1, failedCount: 1 });
    expect(res.body.errors).toEqual([{ row: 3, message: expect.stringContaining('10 hoặc 11') }]);
    expect(await userCount()).toBe(before + 2);
    expect((await userByCode('EXD0'))!.givenName).toBe('EXD0');
    // No body at all means the defaults too.
    const up = await uploadUsers(t, [ok('EXD4')]);
    const bare = await t.app.request(`/api/users/import/${up.body.sessionId}/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    expect(bare.status).toBe(200);
    expect(await bare.json()).toMatchObject({ success: true, importedCount: 1 });
  });

  it('dryRun writes nothing but reports exactly what a real run would do', async () => {
    await t.createUser('DRY0');
    await t.createUser('DRYU');
    const before = await userCount();
    const rows = [
      ok('DRY1'),
      ok('DRY2', { email: 'bad' }),
      ok('DRY0', { givenName: 'Mới' }),
      ok('DRY0X', { email: 'dry0@test.vn' }), // the same existing user as the row above
      userRow({ code: 'DRYU', familyName: 'Nguyễn Văn', givenName: 'DRYU', email: 'dryu@test.vn', phone: '0901234567' }), // identical: unchanged
    ];
    const res = await importUsers(t, rows, { dryRun: true, updateExisting: true });
    expect(res.body).toMatchObject({ success: false, dryRun: true, importedCount: 2, skippedCount: 1, failedCount: 2 });
    expect(res.body.errors.map((e: { row: number }) => e.row)).toEqual([3, 5]);
    expect(res.body.message).toContain('Chạy thử');
    expect(await userCount()).toBe(before);
    expect((await userByCode('DRY0'))!.givenName).toBe('DRY0');
    const status = await t.request('GET', `/api/users/import/${res.sessionId}/status`, { token: t.adminToken });
    expect(status.body.status).not.toBe('completed');
  });

  it('skipErrors false with one bad row → nothing written', async () => {
    const before = await userCount();
    const res = await importUsers(t, [ok('SE1'), ok('SE2'), ok('SE3', { email: 'x@' })], { skipErrors: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, importedCount: 0, failedCount: 1 });
    expect(res.body.message).toContain('không có dòng nào được nhập');
    expect(await userCount()).toBe(before);
  });

  it('skipErrors false with only good rows writes them all', async () => {
    const res = await importUsers(t, [ok('SF1'), ok('SF2')], { skipErrors: false });
    expect(res.body).toMatchObject({ success: true, importedCount: 2, failedCount: 0 });
    expect(await userByCode('SF2')).toBeTruthy();
  });

  it('skipErrors false over several batches: every new member counted once, in the unit figures and the reports', async () => {
    // On PostgreSQL the figures of such an import are brought up to date once, at its end (withDeferredFigures).
    const counts = async () =>
      (await sqlGet<{ direct: number; subtree: number; cells: number }>(
        t.db,
        sql`SELECT (SELECT direct FROM organization_member_counts WHERE organization_id = ${orgs.chiDoan}) AS direct,
          (SELECT subtree FROM organization_member_counts WHERE organization_id = ${orgs.root}) AS subtree,
          (SELECT coalesce(sum(n), 0) FROM report_member_cells WHERE organization_id = ${orgs.chiDoan}) AS cells`,
      ))!;
    const before = await counts();
    const res = await importUsers(
      t,
      Array.from({ length: 5 }, (_, i) => ok(`DF${i}`, { organizationCodes: 'UI-CD1' })),
      { skipErrors: false, batchSize: 2 },
    );
    expect(res.body).toMatchObject({ success: true, importedCount: 5 });
    const after = await counts();
    expect([
      Number(after.direct) - Number(before.direct),
      Number(after.subtree) - Number(before.subtree),
      Number(after.cells) - Number(before.cells),
    ]).toEqual([5, 5, 5]);
  });

  it('small batches give the same result as one', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => ok(`BS${i}`));
    rows[3] = ok('BS3', { phone: '1' });
    const res = await importUsers(t, rows, { batchSize: 2 });
    expect(res.body).toMatchObject({ importedCount: 6, failedCount: 1 });
    const status = await t.request('GET', `/api/users/import/${res.sessionId}/status`, { token: t.adminToken });
    expect(status.body).toMatchObject({ status: 'completed', totalRows: 7, processedRows: 7, result: { importedCount: 6 } });
  });

  it('a row failing only at write time is reported alone (skipErrors) or stops everything (without)', async () => {
    // A trigger that refuses one code: the row passes every check and fails only when written.
    const boom =
      TEST_ENGINE === 'pg'
        ? [
            `CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.code = 'BOOM' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$`,
            'CREATE TRIGGER boom BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION boom()',
          ]
        : [`CREATE TRIGGER boom BEFORE INSERT ON users WHEN NEW.code = 'BOOM' BEGIN SELECT RAISE(ABORT, 'boom'); END`];
    for (const statement of boom) await sqlRun(t.db, statement);
    try {
      const before = await userCount();
      const rows = [ok('WT1', { organizationCodes: 'UI-CD1' }), ok('BOOM'), ok('WT2')];
      const res = await importUsers(t, rows);
      expect(res.body).toMatchObject({ success: false, importedCount: 2, failedCount: 1 });
      expect(res.body.errors).toEqual([{ row: 3, message: 'Không ghi được dòng này' }]);
      expect(await userCount()).toBe(before + 2);
      expect(await membershipsOf((await userByCode('WT1'))!.id)).toEqual([orgs.root, orgs.faculty, orgs.chiDoan]);

      const none = await importUsers(t, [ok('WT3'), ok('BOOM'), ok('WT4')], { skipErrors: false });
      expect(none.body).toMatchObject({ success: false, importedCount: 0 });
      expect(none.body.errors).toEqual([{ row: 3, message: 'Không ghi được dòng này' }]);
      expect(await userCount()).toBe(before + 2);
      const status = await t.request('GET', `/api/users/import/${none.sessionId}/status`, { token: t.adminToken });
      expect(status.body).toMatchObject({ status: 'failed', processedRows: 0 });
    } finally {
      if (TEST_ENGINE === 'pg') {
        await sqlRun(t.db, 'DROP TRIGGER boom ON users');
        await sqlRun(t.db, 'DROP FUNCTION boom()');
      } else await sqlRun(t.db, 'DROP TRIGGER boom');
    }
  });

  it('rejects bad options with 400', async () => {
    const up = await uploadUsers(t, [ok('OPT1')]);
    for (const options of [{ batchSize: 0 }, { batchSize: 5000 }, { dryRun: 'yes' }]) {
      const res = await t.request('POST', `/api/users/import/${up.body.sessionId}/execute`, { token: t.adminToken, body: { options } });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(`Tùy chọn nhập không hợp lệ: ${Object.keys(options)[0]}`);
    }
    // Options may also sit at the top level of the body.
    const top = await t.request('POST', `/api/users/import/${up.body.sessionId}/execute`, { token: t.adminToken, body: { dryRun: true } });
    expect(top.body.dryRun).toBe(true);
  });

  it('updateExisting updates the conflicting rows (by code or by e-mail), touching only the columns in the file', async () => {
    const a = await t.createUser('UPD1');
    const b = await t.createUser('UPD2');
    await runQuery(t.db.update(users).set({ membershipStatus: 'both' }).where(eq(users.id, b.id)));
    const res = await importUsers(
      t,
      [
        ['UPD1', 'Phạm', 'Mới', a.email, '0912345678'],
        ['UPD2-NEW', 'Phạm', 'Hai', b.email, ''],
      ],
      { updateExisting: true },
      t.adminToken,
      ['code', 'familyName', 'givenName', 'email', 'phone'],
    );
    expect(res.body).toMatchObject({ success: true, importedCount: 2, skippedCount: 0 });
    const ua = (await firstRow(t.db.select().from(users).where(eq(users.id, a.id))))!;
    expect(ua).toMatchObject({ familyName: 'Phạm', givenName: 'Mới', phone: '0912345678' });
    expect(ua.searchText).toContain('pham moi');
    const ub = (await firstRow(t.db.select().from(users).where(eq(users.id, b.id))))!;
    expect(ub).toMatchObject({ code: 'UPD2-NEW', phone: null, membershipStatus: 'both' });
  });

  it('a row whose code and e-mail belong to two different users is an error', async () => {
    const a = await t.createUser('TWO1');
    await t.createUser('TWO2');
    const { body } = await validateUsers(t, [ok('TWO2', { email: a.email })]);
    expect(body.errors[0].message).toContain('hai người dùng khác nhau');
  });

  it('status reports progress and result; unknown or expired sessions → 404; another user’s session → 403', async () => {
    const res = await importUsers(t, [ok('ST1'), ok('ST2')]);
    const status = await t.request('GET', `/api/users/import/${res.sessionId}/status`, { token: t.adminToken });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      sessionId: res.sessionId,
      status: 'completed',
      totalRows: 2,
      processedRows: 2,
      result: { success: true, importedCount: 2 },
    });

    const creator = await t.createUser('STOTHER', [{ roleId: await t.createRole('st_creator', ['users.access', 'users.create']) }]);
    for (const path of ['validate', 'status']) {
      expect((await t.request('GET', `/api/users/import/${res.sessionId}/${path}`, { token: creator.token })).status).toBe(403);
    }
    expect((await t.request('POST', `/api/users/import/${res.sessionId}/execute`, { token: creator.token, body: {} })).status).toBe(403);

    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await t.request('GET', `/api/users/import/${unknown}/status`, { token: t.adminToken })).status).toBe(404);
    expect((await t.request('GET', `/api/users/import/not-a-uuid/status`, { token: t.adminToken })).status).toBe(400);
    const up = await uploadUsers(t, [ok('ST3')]);
    await runQuery(
      t.db
        .update(importSessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(importSessions.id, up.body.sessionId)),
    );
    const expired = await t.request('GET', `/api/users/import/${up.body.sessionId}/validate`, { token: t.adminToken });
    expect(expired.status).toBe(404);
    expect(expired.body.message).toContain('hết hạn');
    // A users session is not a departments session.
    const other = await uploadUsers(t, [ok('ST4')]);
    expect((await t.request('GET', `/api/departments/import/${other.body.sessionId}/validate`, { token: t.adminToken })).status).toBe(404);
  });

  it('a session keeps its file rows apart: progress and status writes never rewrite megabytes, and completion drops them', async () => {
    const many = Array.from({ length: 500 }, (_, i) => ok(`SZ${i}`));
    const up = await uploadUsers(t, many);
    const id = up.body.sessionId as string;
    const size = async () =>
      (
        await sqlGet<{ n: number }>(
          t.db,
          sql`SELECT length(params) + length(coalesce(validation, '')) + length(coalesce(result, '')) + length(file_name) AS n FROM import_sessions WHERE id = ${id}`,
        )
      ).n;
    const rowsOf = async () => await firstRow(t.db.select().from(importSessionRows).where(eq(importSessionRows.sessionId, id)));
    expect(JSON.parse((await rowsOf())!.rows)).toHaveLength(500);
    expect((await t.request('GET', `/api/users/import/${id}/validate`, { token: t.adminToken })).status).toBe(200);
    // The session record itself stays small (the update SQLite rewrites on each progress step).
    expect(await size()).toBeLessThan(1000);
    const ran = await t.request('POST', `/api/users/import/${id}/execute`, { token: t.adminToken, body: { options: { batchSize: 50 } } });
    expect(ran.body.importedCount).toBe(500);
    expect(await firstRow(t.db.select().from(importSessions).where(eq(importSessions.id, id)))).toMatchObject({
      status: 'completed',
      processedRows: 500,
    });
    // The file's rows (and any passwords in them) are gone once the import completed.
    expect(await rowsOf()).toBeUndefined();
  });

  it('the session lives in the database: a new app on the same database continues it', async () => {
    const up = await uploadUsers(t, [ok('DB1')]);
    const row = (await firstRow(t.db.select().from(importSessions).where(eq(importSessions.id, up.body.sessionId))))!;
    expect(row).toMatchObject({ kind: 'users', totalRows: 1, status: 'uploaded' });
    const { createApp } = await import('../app');
    const restarted = createApp({ db: t.db, env: t.env }, { adminDist: '/nonexistent', portalDist: '/nonexistent' });
    const res = await restarted.request(`/api/users/import/${up.body.sessionId}/execute`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(await userByCode('DB1')).toBeTruthy();
  });

  it('a session cut off by a restart half-way reports failed, with what it kept, and can be executed again', async () => {
    const up = await uploadUsers(t, [ok('CR1'), ok('CR2')]);
    // What a crash after the first batch leaves behind. SQLite: that batch committed, with its
    // progress. PostgreSQL: the run's one transaction rolled back; only the progress, written
    // outside it for status polling, stays.
    if (TEST_ENGINE !== 'pg') await importUsers(t, [ok('CR1')]);
    await runQuery(
      t.db.update(importSessions).set({ status: 'running', processedRows: 1 }).where(eq(importSessions.id, up.body.sessionId)),
    );
    const status = await t.request('GET', `/api/users/import/${up.body.sessionId}/status`, { token: t.adminToken });
    if (TEST_ENGINE === 'pg')
      expect(status.body).toMatchObject({
        status: 'failed',
        processedRows: 0,
        result: { success: false, importedCount: 0, message: expect.stringContaining('không có dòng nào được ghi') },
      });
    else expect(status.body).toMatchObject({ status: 'failed', processedRows: 1 });
    const again = await t.request('POST', `/api/users/import/${up.body.sessionId}/execute`, { token: t.adminToken, body: {} });
    expect(again.body).toMatchObject(
      TEST_ENGINE === 'pg' ? { success: true, importedCount: 2, skippedCount: 0 } : { success: true, importedCount: 1, skippedCount: 1 },
    );
  });

  it('a completed session is not executed twice', async () => {
    const res = await importUsers(t, [ok('TW1')]);
    const again = await t.request('POST', `/api/users/import/${res.sessionId}/execute`, { token: t.adminToken, body: {} });
    expect(again.status).toBe(409);
  });
});
