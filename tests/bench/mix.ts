/**
 * The realistic mix (issue 12): 20 connections, each signed in as one of 20 admins (super admin,
 * university, faculty and class level), each request drawn at random — a users page 1–1,000, a
 * Vietnamese name search with or without accents, filters, an organization's members, the tree,
 * the caller's permissions — plus a share of writes (a phone change, adding or removing a member).
 * Every mix is measured against the bare Hono route with the same client in the same run.
 */
import { normalizeText } from '@doanhoi/shared';
import { Agent, request } from 'node:http';
import { openDb } from '../../api/src/db/client';
import { hashPassword } from '../../api/src/lib/passwords';
import { FAMILY, GIVEN, MIDDLE } from './generate';

const PASSWORD = 'bench-mix-123';
/** Users sampled per admin (the writes and details pick from them). */
export const SAMPLE = 300;
export const MIX_CODES = [
  'users.access',
  'users.view_details',
  'users.update',
  'organizations.access',
  'organizations.view_member_count',
  'organizations.add_member',
  'organizations.remove_member',
];

export interface Admin {
  email: string;
  /** The organization the role is held in (null: super admin). */
  orgId: number | null;
  /** Organizations of the scope to read and write members of, and a sample of users in it. */
  orgs: number[];
  users: number[];
  token?: string;
}

/** Adds the mix's admins to the bench database (once) and returns who they are. */
export async function prepareMix(dbPath: string): Promise<Admin[]> {
  const db = openDb(dbPath);
  const c = db.$client;
  const hash = await hashPassword(PASSWORD);
  const now = Date.now();
  let role = c.prepare("SELECT id FROM roles WHERE name = 'bench_mix_admin'").pluck().get() as number | undefined;
  if (!role) {
    role = Number(
      c
        .prepare(
          "INSERT INTO roles (name, display_name, search_text, created_at, updated_at) VALUES ('bench_mix_admin', 'Bench mix admin', 'bench', ?, ?)",
        )
        .run(now, now).lastInsertRowid,
    );
  }
  // Every run: a database built before a code joined the list gets it too.
  for (const code of MIX_CODES)
    c.prepare(
      'INSERT INTO role_permissions (role_id, permission_id) SELECT ?, p.id FROM permissions p WHERE p.code = ? AND NOT EXISTS (SELECT 1 FROM role_permissions x WHERE x.role_id = ? AND x.permission_id = p.id)',
    ).run(role, code, role);
  const org = (code: string) => c.prepare('SELECT id, path FROM organizations WHERE code = ?').get(code) as { id: number; path: string };
  const levels: (string | null)[] = [
    null,
    null,
    'DT',
    'DT',
    'DT',
    'DT',
    ...Array.from({ length: 7 }, (_, i) => `DCS${i * 5}`),
    ...Array.from({ length: 7 }, (_, i) => `CD${i * 5}-${i}`),
  ];
  const admins: Admin[] = [];
  levels.forEach((code, i) => {
    const email = `mix${i}@bench.vn`;
    let id = c.prepare('SELECT id FROM users WHERE email = ?').pluck().get(email) as number | undefined;
    if (!id) {
      const base = { code: `MIX${i}`, familyName: 'Quản trị', givenName: `Mix ${i}`, email, phone: '0900000000' };
      id = Number(
        c
          .prepare(
            'INSERT INTO users (code, family_name, given_name, email, phone, password_hash, search_text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
          )
          .run(
            base.code,
            base.familyName,
            base.givenName,
            email,
            base.phone,
            hash,
            normalizeText(`${base.familyName} ${base.givenName} ${base.code} ${email}`),
            now,
            now,
          ).lastInsertRowid,
      );
      const target = code ? org(code).id : null;
      if (target)
        c.prepare('INSERT INTO user_roles (user_id, role_id, organization_id, created_at) VALUES (?, ?, ?, ?)').run(id, role, target, now);
      else
        c.prepare(
          "INSERT INTO user_roles (user_id, role_id, organization_id, created_at) SELECT ?, id, NULL, ? FROM roles WHERE name = 'super_admin'",
        ).run(id, now);
    }
    const scope = code ? org(code) : org('DT');
    const orgs = c
      .prepare("SELECT id FROM organizations WHERE path >= ? AND path < ? AND type = 'chi_doan' LIMIT 50")
      .pluck()
      .all(scope.path, `${scope.path.slice(0, -1)}0`) as number[];
    const users = c
      .prepare(
        `SELECT m.user_id FROM organization_members m WHERE m.organization_id IN (${orgs.map(() => '?').join(',') || 'NULL'}) ORDER BY m.organization_id, m.id LIMIT ${SAMPLE}`,
      )
      .pluck()
      .all(...orgs) as number[];
    admins.push({ email, orgId: code ? scope.id : null, orgs, users });
  });
  c.close();
  return admins;
}

export type Kind = 'page' | 'search' | 'filters' | 'members' | 'details' | 'tree' | 'permissions' | 'write';
export interface Req {
  kind: Kind;
  method: string;
  path: string;
  body?: string;
}

const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const rand = (n: number) => 1 + Math.floor(Math.random() * n);

function searchTerm(): string {
  const words = [pick(FAMILY), pick(MIDDLE), pick(GIVEN)].slice(Math.floor(Math.random() * 3)).slice(0, 1 + Math.floor(Math.random() * 2));
  const term = words.join(' ');
  return Math.random() < 0.5 ? term : normalizeText(term);
}

export function nextRequest(a: Admin, writeShare: number): Req {
  if (Math.random() < writeShare && a.users.length && a.orgs.length) {
    const user = pick(a.users);
    const r = Math.random();
    if (r < 0.34)
      return {
        kind: 'write',
        method: 'PATCH',
        path: `/api/users/${user}`,
        body: JSON.stringify({ phone: `09${String(rand(99_999_999)).padStart(8, '0')}` }),
      };
    const org = pick(a.orgs);
    if (r < 0.67)
      return { kind: 'write', method: 'POST', path: `/api/organizations/${org}/members/${user}`, body: JSON.stringify({ role: 'member' }) };
    return { kind: 'write', method: 'DELETE', path: `/api/organizations/${org}/members/${user}` };
  }
  const scope = a.orgId ? `&organizationId=${a.orgId}` : '';
  const r = Math.random();
  if (r < 0.27) return { kind: 'page', method: 'GET', path: `/api/users?page=${rand(1000)}&limit=10` };
  if (r < 0.5) return { kind: 'search', method: 'GET', path: `/api/users?search=${encodeURIComponent(searchTerm())}&page=1&limit=10` };
  if (r < 0.64) {
    const f = [
      `userType=${pick(['student', 'staff'])}`,
      `membershipStatus=${pick(['none', 'doan_vien', 'hoi_vien', 'both'])}`,
      `isActive=${pick(['true', 'false'])}`,
    ];
    return {
      kind: 'filters',
      method: 'GET',
      path: `/api/users?${f.slice(0, rand(3)).join('&')}&page=${rand(20)}&limit=10${Math.random() < 0.3 ? scope : ''}`,
    };
  }
  if (r < 0.75 && a.orgs.length)
    return { kind: 'members', method: 'GET', path: `/api/organizations/${pick(a.orgs)}/members?page=1&limit=10` };
  // A user of the admin's scope opened from the list (the "details").
  if (r < 0.85 && a.users.length) return { kind: 'details', method: 'GET', path: `/api/users/${pick(a.users)}` };
  if (r < 0.92) return { kind: 'tree', method: 'GET', path: '/api/organizations/tree' };
  return { kind: 'permissions', method: 'GET', path: '/api/auth/me/permissions' };
}

export interface MixResult {
  rps: number;
  responses: number;
  byKind: Record<string, { n: number; p50: number; p95: number; p99: number; non2xx: number }>;
}

/** Runs `connections` request loops for `seconds`; `next` gives each loop's next request. */
export async function drive(
  port: number,
  seconds: number,
  connections: number,
  next: (conn: number) => Req & { token?: string },
): Promise<MixResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const lat: Record<string, number[]> = {};
  const bad: Record<string, number> = {};
  let done = 0;
  const end = Date.now() + seconds * 1000;
  const one = (r: Req & { token?: string }) =>
    new Promise<number>((resolve) => {
      const headers: Record<string, string> = { 'accept-encoding': 'gzip, br' };
      if (r.token) headers.authorization = `Bearer ${r.token}`;
      if (r.body) headers['content-type'] = 'application/json';
      const req = request({ host: '127.0.0.1', port, method: r.method, path: r.path, agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
      req.end(r.body);
    });
  await Promise.all(
    Array.from({ length: connections }, async (_, conn) => {
      while (Date.now() < end) {
        const r = next(conn);
        const t = performance.now();
        const status = await one(r);
        (lat[r.kind] ??= []).push(performance.now() - t);
        if (status < 200 || status >= 300) bad[r.kind] = (bad[r.kind] ?? 0) + 1;
        done++;
      }
    }),
  );
  agent.destroy();
  const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
  const byKind: MixResult['byKind'] = {};
  for (const [k, xs] of Object.entries(lat)) {
    xs.sort((x, y) => x - y);
    byKind[k] = { n: xs.length, p50: q(xs, 50), p95: q(xs, 95), p99: q(xs, 99), non2xx: bad[k] ?? 0 };
  }
  return { rps: done / seconds, responses: done, byKind };
}

export async function signIn(port: number, admins: Admin[]): Promise<void> {
  for (const a of admins) {
    const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: a.email, password: PASSWORD }),
    });
    if (!res.ok) throw new Error(`mix sign-in ${a.email}: ${res.status} ${await res.text()}`);
    a.token = ((await res.json()) as { accessToken: string }).accessToken;
  }
}
