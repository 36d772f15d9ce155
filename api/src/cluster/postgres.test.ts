/**
 * `npm start` with DATABASE_URL=postgres://… (issue 29): the built server migrates and seeds an empty
 * PostgreSQL database, names it in the banner (no password), serves from both workers, and a second
 * start on the same database (another server of the deployment) joins it without seeding again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparisonUnavailable, startPgCluster, type PgCluster } from '../test/pg-server';
import { startBuiltCluster, type BuiltCluster } from './built-fixture';

// Its own cluster: the TEST_ENGINE=pg pass runs every built-server test on PostgreSQL already.
const missing = comparisonUnavailable();

describe.skipIf(missing)('the server on PostgreSQL', () => {
  let cluster: PgCluster;
  let url: string;
  const servers: BuiltCluster[] = [];

  beforeAll(async () => {
    cluster = await startPgCluster();
    url = (await cluster.createDatabase('app')).replace('postgres@', 'postgres:s3cret@');
  }, 60_000);
  afterAll(async () => {
    for (const s of servers) s.stop();
    await cluster?.stop();
  });

  it('starts on an empty database, signs in and serves writes and reads across its workers; another server joins it', async () => {
    // Servers of one deployment share its secrets (JWT_SECRET, APP_SECRET) as they share the database.
    const shared = { DATABASE_URL: url, JWT_SECRET: 'pg-deployment-jwt-secret-0', APP_SECRET: 'pg-deployment-app-secret-0' };
    const one = await startBuiltCluster(shared);
    servers.push(one);
    expect(one.output()).toMatch(/Database: PostgreSQL postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/app/);
    expect(one.output()).not.toContain('s3cret');
    const { accessToken } = await one.must('POST', '/api/auth/login', undefined, { email: 'admin@doanhoi.local', password: 'admin123' });
    const created = await one.must('POST', '/api/departments', accessToken, { name: 'Khoa Cơ sở dữ liệu', code: 'PGDB' });
    // Twenty reads spread over both workers all see the write.
    const reads = await Promise.all(Array.from({ length: 20 }, () => one.api('GET', `/api/departments/${created.id}`, accessToken)));
    expect(reads.map((r) => r.status)).toEqual(Array(20).fill(200));

    const two = await startBuiltCluster({ ...shared, WEB_CONCURRENCY: '1' });
    servers.push(two);
    const list = await two.must('GET', '/api/departments?search=co so du lieu', accessToken);
    expect(list.departments.map((d: { code: string }) => d.code)).toEqual(['PGDB']);
    expect((await two.must('GET', '/api/users?limit=1', accessToken)).total).toBe(1);
  }, 240_000);
});
