import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit } from './writer';
import { paymentCampaigns } from '../db/tables/payments';
import { makeTestApp, type TestApp } from '../test/harness';
import { auditLogs } from '../db/tables/audit';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';

/**
 * Issue 15: audit rows carry the organization they concern; audit.access (organization context)
 * reads the rows of its subtree, a global system.view_logs holder reads everything, and no
 * reader ever sees a credential.
 */
let t: TestApp;
let org: Record<'root' | 'f1' | 'c1' | 'f2', number>;
let who: Record<'global' | 'facultyAdmin' | 'chiDoanAdmin' | 'orgViewLogs' | 'member', string>;

type Log = { action: string; entity: string; organization: { id: number } | null; before: unknown; after: unknown };
const list = async (token: string, qs = '') => t.request('GET', `/api/audit-logs?limit=100&entity=org_probe${qs}`, { token });
const orgsOf = (body: { data: Log[] }) => body.data.map((l) => l.organization?.id ?? null).sort();

beforeAll(async () => {
  t = await makeTestApp();
  const root = await t.createOrg('doan_truong', 'SC-ROOT');
  const f1 = await t.createOrg('doan_co_so', 'SC-F1', root);
  const c1 = await t.createOrg('chi_doan', 'SC-F1-C1', f1);
  const f2 = await t.createOrg('doan_co_so', 'SC-F2', root);
  org = { root, f1, c1, f2 };
  const reader = await t.createRole('audit_reader', ['audit.access']);
  const logs = await t.createRole('log_reader_sc', ['system.view_logs']);
  const member = await t.createRole('member_sc', ['my-payments.access', 'dashboard.access']);
  who = {
    global: (await t.createUser('SCG', [{ roleId: logs }])).token,
    facultyAdmin: (await t.createUser('SCF', [{ roleId: reader, organizationId: f1 }])).token,
    chiDoanAdmin: (await t.createUser('SCC', [{ roleId: reader, organizationId: c1 }])).token,
    orgViewLogs: (await t.createUser('SCV', [{ roleId: logs, organizationId: f1 }])).token,
    member: (await t.createUser('SCM', [{ roleId: member, organizationId: c1 }])).token,
  };
  // One row per organization, plus one that concerns no organization (a user's own change).
  await withTransaction(t.db, async (tx) => {
    for (const id of [root, f1, c1, f2]) await audit(tx, { actorId: null, action: 'probe.write', entity: 'org_probe', organizationId: id });
    await audit(tx, { actorId: null, action: 'probe.write', entity: 'org_probe', organizationId: null });
  });
});

describe('audit log scope (issue 15)', () => {
  it('a super admin and a global system.view_logs holder see every row, the organization-less ones included', async () => {
    for (const token of [t.adminToken, who.global]) {
      const res = await list(token);
      expect(res.status).toBe(200);
      expect(orgsOf(res.body)).toEqual([org.root, org.f1, org.c1, org.f2, null].sort());
    }
  });

  it('an audit.access holder sees its organization and what lies beneath, nothing beside, above or organization-less', async () => {
    const faculty = await list(who.facultyAdmin);
    expect(faculty.status).toBe(200);
    expect(orgsOf(faculty.body)).toEqual([org.f1, org.c1].sort());
    expect(faculty.body.total).toBe(2);
    const chiDoan = await list(who.chiDoanAdmin);
    expect(orgsOf(chiDoan.body)).toEqual([org.c1]);
  });

  it('the organization filter narrows to a subtree inside the scope and refuses one outside it (403)', async () => {
    expect(orgsOf((await list(who.facultyAdmin, `&organizationId=${org.c1}`)).body)).toEqual([org.c1]);
    expect(orgsOf((await list(t.adminToken, `&organizationId=${org.f1}`)).body)).toEqual([org.f1, org.c1].sort());
    for (const [token, id] of [
      [who.facultyAdmin, org.f2],
      [who.facultyAdmin, org.root],
      [who.chiDoanAdmin, org.f1],
      [who.facultyAdmin, 999_999],
    ] as const) {
      expect((await list(token, `&organizationId=${id}`)).status).toBe(403);
    }
  });

  it('members, and system.view_logs granted only in an organization, get 403 on the list and the export', async () => {
    for (const token of [who.member, who.orgViewLogs]) {
      expect((await list(token)).status).toBe(403);
      expect((await t.request('GET', '/api/audit-logs/export', { token })).status).toBe(403);
    }
  });

  it('records the organization of a change made through the API, and a deleted organization under its parent', async () => {
    const child = await t.createOrg('chi_doan', 'SC-F2-C9', org.f2);
    expect(
      (await t.request('PATCH', `/api/organizations/${child}`, { token: t.adminToken, body: { name: 'Chi đoàn đổi tên' } })).status,
    ).toBe(200);
    expect((await t.request('DELETE', `/api/organizations/${child}`, { token: t.adminToken })).status).toBe(200);
    const res = await t.request('GET', `/api/audit-logs?entity=organization&entityId=${child}`, { token: t.adminToken });
    const byAction = Object.fromEntries(
      res.body.data.map((l: Log & { organizationId?: number }) => [l.action, l.organization?.id ?? null]),
    );
    expect(byAction).toEqual({ 'organization.update': null, 'organization.delete': org.f2 });
    // The renamed organization is gone, so the update row keeps its id only: its parent's admin reaches it by id.
    const raw = (await allRows(t.db.select({ action: auditLogs.action, org: auditLogs.organizationId }).from(auditLogs))).filter(
      (r) => r.action === 'organization.update',
    );
    expect(raw.at(-1)!.org).toBe(child);
  });

  it("derives a campaign row's organization from the campaign", async () => {
    const campaign = await firstRow(
      t.db
        .insert(paymentCampaigns)
        .values({
          organizationId: org.c1,
          name: 'Đoàn phí',
          startDate: new Date(),
          endDate: new Date(),
        } as typeof paymentCampaigns.$inferInsert)
        .returning(),
    );
    await withTransaction(t.db, async (tx) =>
      audit(tx, { actorId: null, action: 'campaign.update', entity: 'payment_campaign', entityId: campaign.id }),
    );
    const last = (await allRows(t.db.select().from(auditLogs))).at(-1)!;
    expect(last.organizationId).toBe(org.c1);
  });
});

describe('audit log redaction', () => {
  const SECRETS = ['$argon2id$v=19$secret-hash', 'payos-api-key-123', 'checksum-abc', 'refresh-token-xyz', 'hunter2'];

  beforeAll(async () => {
    // Written straight to the table, as a row from before masking existed would be.
    await runQuery(
      t.db.insert(auditLogs).values({
        entity: 'secret_probe',
        action: 'secret.probe',
        organizationId: org.c1,
        before: JSON.stringify({ passwordHash: SECRETS[0], payos: { apiKey: SECRETS[1], checksumKey: SECRETS[2] } }),
        after: JSON.stringify({ refreshToken: SECRETS[3], password: SECRETS[4], name: 'visible' }),
      }),
    );
  });

  it('the list masks passwords, hashes, tokens and payOS keys and keeps the other fields', async () => {
    for (const token of [t.adminToken, who.chiDoanAdmin]) {
      const res = await t.request('GET', '/api/audit-logs?entity=secret_probe', { token });
      expect(res.status).toBe(200);
      const text = JSON.stringify(res.body);
      for (const s of SECRETS) expect(text).not.toContain(s);
      expect(res.body.data[0].before).toEqual({ passwordHash: '***', payos: { apiKey: '***', checksumKey: '***' } });
      expect(res.body.data[0].after).toEqual({ refreshToken: '***', password: '***', name: 'visible' });
    }
  });

  it('the xlsx export holds the scoped, masked rows with their columns', async () => {
    const res = await t.app.request('/api/audit-logs/export?entity=secret_probe', {
      headers: { authorization: `Bearer ${who.facultyAdmin}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('audit_');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ExcelJS.Buffer);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toEqual([
      undefined,
      'Thời gian',
      'Mã người thực hiện',
      'Người thực hiện',
      'Hành động',
      'Loại đối tượng',
      'Mã đối tượng',
      'Tên đối tượng',
      'Tổ chức',
      'Địa chỉ IP',
      'Trước',
      'Sau',
    ]);
    expect(ws.rowCount).toBe(2);
    const cells = JSON.stringify(ws.getRow(2).values);
    expect(cells).toContain('secret.probe');
    expect(cells).toContain('SC-F1-C1');
    for (const s of SECRETS) expect(cells).not.toContain(s);
    // Another faculty's admin exports nothing of it.
    const other = await t.app.request('/api/audit-logs/export?entity=secret_probe&organizationId=' + org.f2, {
      headers: { authorization: `Bearer ${who.facultyAdmin}` },
    });
    expect(other.status).toBe(403);
  });
});
