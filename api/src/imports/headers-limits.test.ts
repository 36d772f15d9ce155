/**
 * The mapping step's header read (POST …/import/headers, issue 15 part 5) takes the same upload
 * as the import: the spreadsheet-bomb caps of security issue item 7 hold there too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { form } from './fixture';
import { bombXlsx } from './zip-fixture';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ IMPORT_MAX_ROWS: '1000' });
});

const headers = (path: string, buf: Uint8Array) => t.request('POST', path, { token: t.adminToken, body: form(buf, 'bomb.xlsx') });

describe('POST …/import/headers keeps the upload caps', () => {
  it('a sheet past the row cap is refused (413), for users and for members', async () => {
    const buf = await bombXlsx(5000);
    expect((await headers('/api/users/import/headers', buf)).status).toBe(413);
    expect((await headers('/api/organizations/members/import/headers?level=3&organizationId=1', buf)).status).toBe(413);
  });

  it('a file that lies about its inflated size is refused (400)', async () => {
    const buf = await bombXlsx(2_000_000, { identical: true, lie: true });
    const res = await headers('/api/users/import/headers', buf);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('File bị hỏng');
  }, 30_000);

  it('a small file answers its headers', async () => {
    const res = await headers('/api/users/import/headers', await bombXlsx(20));
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.headers)).toBe(true);
  });
});
