/** The shared JSON body rules (security issue item 10): 415 for a body that is not JSON, 400 for deep nesting. */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { departments } from '../db/tables/departments';
import { makeTestApp, type TestApp } from '../test/harness';
import { deeperThan, MAX_JSON_DEPTH } from './json-body';
import { allRows, firstRow } from '../db/engine';

let t: TestApp;
let deptId: number;
beforeAll(async () => {
  t = await makeTestApp();
  const res = await t.request('POST', '/api/departments', { token: t.adminToken, body: { name: 'Khoa CNTT', code: 'CNTT' } });
  deptId = res.body.id;
});

const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
const snapshot = async () => ({
  row: await firstRow(t.db.select().from(departments).where(eq(departments.id, deptId))),
  audits: (await allRows(t.db.select().from(auditLogs))).length,
});

describe('JSON body rules', () => {
  it('a PATCH whose body is not declared JSON answers 415 and writes nothing (no updated_at, no audit row)', async () => {
    const before = await snapshot();
    for (const headers of [{ 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }, {}] as Record<
      string,
      string
    >[]) {
      const res = await t.request('PATCH', `/api/departments/${deptId}`, {
        token: t.adminToken,
        body: JSON.stringify({ name: 'Đổi tên' }),
        headers,
      });
      expect(res.status).toBe(415);
      expect(res.body.message).toContain('JSON');
    }
    expect(await snapshot()).toEqual(before);
  });

  it('JSON with a charset parameter or a +json type is still JSON', async () => {
    const res = await t.request('PATCH', `/api/departments/${deptId}`, {
      token: t.adminToken,
      body: JSON.stringify({ description: 'Mô tả' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(200);
    expect(res.body.description).toBe('Mô tả');
  });

  it('a payOS webhook nested 10,000 levels deep answers 400, not 500', async () => {
    const body = `{"code":"00","desc":"success","data":${nested(10_000)},"signature":"x"}`;
    const res = await t.request('POST', '/api/payment/webhook/payos', { body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`Dữ liệu JSON lồng nhau quá sâu (tối đa ${MAX_JSON_DEPTH} cấp)`);
  });

  it('deep nesting is refused on ordinary routes too; nesting up to the limit is accepted', async () => {
    const deep = await t.request('POST', '/api/departments', {
      token: t.adminToken,
      body: `{"name":"X","extra":${nested(MAX_JSON_DEPTH)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(deep.status).toBe(400);
    expect(deeperThan(JSON.parse(nested(MAX_JSON_DEPTH)), MAX_JSON_DEPTH)).toBe(false);
    expect(deeperThan(JSON.parse(nested(MAX_JSON_DEPTH + 1)), MAX_JSON_DEPTH)).toBe(true);
  });

  it('the OpenAPI document still describes validated JSON bodies', async () => {
    const res = await t.request('GET', '/api/docs');
    expect(res.body.paths['/departments/{id}'].patch.requestBody).toBeTruthy();
  });
});
