/**
 * API test harness: a fresh in-memory database (migrated, permissions and default roles seeded,
 * one super admin), the real app, and helpers to create users with roles and sign them in.
 */
import { eq, inArray } from 'drizzle-orm';
import { appendFileSync } from 'node:fs';
import { createApp } from '../app';
import { contractViolation } from '../lib/openapi/check';
import { hashPassword } from '../lib/passwords';
import { inject } from 'vitest';
import pg from 'pg';
import { openDb, type Db } from '../db/client';
import { runMigrations, runPgMigrations } from '../db/migrate';
import { openPgDb, pgPoolOf } from '../db/postgres';
import { useEngine } from '../db/dialect';
import { seedAdmin, seedDefaultRoles, seedPermissions } from '../seed/seed';
import { testEnv } from '../env';
import { childPath } from '../organizations/paths';
import { organizations } from '../db/tables/organizations';
import { permissions, rolePermissions, roles, userRoles } from '../db/tables/roles';
import { userSearchText } from '../users/search';
import { users } from '../db/tables/users';
import type { OrganizationType } from '@doanhoi/shared';
import { allRows, firstRow, runQuery } from '../db/engine';
import { closePgDb as closePg } from '../db/postgres';

/** CONTRACT_REPORT=<file> collects the breaks in a file instead of failing the test (to survey them). */
function reportContract(message: string) {
  if (!process.env.CONTRACT_REPORT) throw new Error(`API contract: ${message}`);
  appendFileSync(process.env.CONTRACT_REPORT, `${message}\n`);
}

export const ADMIN = { email: 'admin@doanhoi.local', password: 'admin123' };
const PASSWORD = 'secret123';
// One hash for every test user: argon2 is deliberately slow.
let cachedHash: Promise<string> | null = null;

/**
 * A migrated and seeded database per environment, serialized once per worker: copying it costs a
 * millisecond where migrating and seeding cost 150 (makeTestApp runs about 150 times a suite).
 */
const templates = new Map<string, Promise<Buffer>>();

/** Which engine the API tests run on: SQLite unless TEST_ENGINE=pg (test/pg-global-setup.ts starts the cluster). */
export const TEST_ENGINE: 'sqlite' | 'pg' = process.env.TEST_ENGINE === 'pg' ? 'pg' : 'sqlite';
useEngine(TEST_ENGINE);

async function seed(db: Db, env: ReturnType<typeof testEnv>) {
  await seedPermissions(db);
  await seedDefaultRoles(db);
  await seedAdmin(db, env);
  return db;
}

const pgTemplates = new Map<string, Promise<string>>();
const pgNamed = new Map<string, Promise<string>>();
let pgSeq = 0;
/** Per worker thread and process: database names no other worker makes. */
const pgPrefix = `t${process.pid}_${process.env.VITEST_POOL_ID ?? '0'}`;

async function pgAdmin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: `${inject('pgServer')}postgres` });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/**
 * PostgreSQL: a template database per environment (migrated and seeded once per worker), copied
 * for each test app; the same `dbPath` names the same database, for tests where two apps share one.
 */
async function seededPg(env: ReturnType<typeof testEnv>, dbPath: string) {
  const key = JSON.stringify(env);
  let template = pgTemplates.get(key);
  if (!template) {
    template = (async () => {
      const name = `${pgPrefix}_tpl${pgTemplates.size}`;
      await pgAdmin((c) => c.query(`CREATE DATABASE ${name}`));
      const url = `${inject('pgServer')}${name}`;
      await runPgMigrations(url);
      const db = openPgDb(url, { max: 2 });
      await seed(db, env);
      await closePg(db);
      return name;
    })();
    pgTemplates.set(key, template);
  }
  const from = await template;
  let name: Promise<string> | undefined = dbPath === ':memory:' ? undefined : pgNamed.get(dbPath);
  if (!name) {
    name = (async () => {
      const n = `${pgPrefix}_${++pgSeq}`;
      await pgAdmin((c) => c.query(`CREATE DATABASE ${n} TEMPLATE ${from}`));
      return n;
    })();
    if (dbPath !== ':memory:') pgNamed.set(dbPath, name);
  }
  return openPgDb(`${inject('pgServer')}${await name}`, { max: 4, idleMs: 500 });
}

async function seededDb(env: ReturnType<typeof testEnv>, dbPath: string) {
  if (TEST_ENGINE === 'pg') return seededPg(env, dbPath);
  const build = async (db: ReturnType<typeof openDb>) => {
    runMigrations(db);
    return seed(db, env);
  };
  if (dbPath !== ':memory:') return build(openDb(dbPath));
  const key = JSON.stringify(env);
  let template = templates.get(key);
  if (!template) {
    template = build(openDb(':memory:')).then((db) => {
      const bytes = db.$client.serialize();
      db.$client.close();
      return bytes;
    });
    templates.set(key, template);
  }
  return openDb(await template);
}

/** `dbPath`: a file instead of memory, for tests where a second connection writes to the same database. */
export async function makeTestApp(envOverrides: Record<string, string> = {}, dbPath = ':memory:') {
  const env = testEnv(envOverrides);
  const db = await seededDb(env, dbPath);
  // A named PostgreSQL database stands for a deployment's: with its URL the import and export worker opens it too (lib/worker-pool.ts).
  if (TEST_ENGINE === 'pg' && dbPath !== ':memory:') env.DATABASE_URL = pgPoolOf(db)!.options.connectionString;
  const app = createApp({ db, env }, { adminDist: '/nonexistent', portalDist: '/nonexistent' });

  async function request(method: string, path: string, opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: RequestInit['body'];
    if (opts.body !== undefined) {
      if (typeof opts.body === 'string' || opts.body instanceof FormData) body = opts.body as RequestInit['body'];
      else {
        body = JSON.stringify(opts.body);
        headers['content-type'] = 'application/json';
      }
    }
    const res = await app.request(path, { method, headers, body });
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    // Every success the API tests see must keep the contract /api/docs publishes.
    const broken = contractViolation(app.routes, method, path, res.status, json, res.headers.get('content-type'));
    if (broken) reportContract(broken);
    return { status: res.status, body: json, headers: res.headers };
  }

  async function login(email: string, password: string) {
    const res = await request('POST', '/api/auth/login', { body: { email, password } });
    if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { accessToken: string; refreshToken: string; user: { id: number } };
  }

  async function createOrg(type: OrganizationType, code: string, parentId: number | null = null, name = code) {
    const parent = parentId ? await firstRow(db.select().from(organizations).where(eq(organizations.id, parentId))) : null;
    const id = (await firstRow(db.insert(organizations).values({ type, code, name, parentId, searchText: name.toLowerCase() }).returning()))
      .id;
    await runQuery(
      db
        .update(organizations)
        .set({ path: childPath(parent?.path, id) })
        .where(eq(organizations.id, id)),
    );
    return id;
  }

  /** A role with exactly these permission codes. */
  async function createRole(name: string, codes: string[]) {
    const id = (await firstRow(db.insert(roles).values({ name, displayName: name }).returning())).id;
    const ids = codes.length
      ? await allRows(db.select({ id: permissions.id }).from(permissions).where(inArray(permissions.code, codes)))
      : [];
    // One multi-row INSERT, the rows in the same order as one at a time.
    if (ids.length) await runQuery(db.insert(rolePermissions).values(ids.map((p) => ({ roleId: id, permissionId: p.id }))));
    return id;
  }

  /** A user holding each role globally (organizationId null) or in an organization; returns id and token. */
  async function createUser(code: string, grants: { roleId: number; organizationId?: number | null }[] = []) {
    cachedHash ??= hashPassword(PASSWORD);
    const base = { code, familyName: 'Nguyễn Văn', givenName: code, email: `${code.toLowerCase()}@test.vn`, phone: '0901234567' };
    const id = (
      await firstRow(
        db
          .insert(users)
          .values({ ...base, passwordHash: await cachedHash, searchText: userSearchText(base) })
          .returning(),
      )
    ).id;
    if (grants.length)
      await runQuery(
        db.insert(userRoles).values(grants.map((g) => ({ userId: id, roleId: g.roleId, organizationId: g.organizationId ?? null }))),
      );
    const { accessToken, refreshToken } = await login(base.email, PASSWORD);
    return { id, email: base.email, token: accessToken, refreshToken };
  }

  const admin = await login(ADMIN.email, ADMIN.password);
  return { app, db, env, request, login, createOrg, createRole, createUser, adminToken: admin.accessToken, admin };
}

export type TestApp = Awaited<ReturnType<typeof makeTestApp>>;
