/** Test helpers for the organizations API tests (not imported by the app). */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { OrganizationType } from '@doanhoi/shared';
import { makeTestApp, type TestApp } from '../test/harness';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { allRows, runQuery } from '../db/engine';
import { insertSlices } from '../seed/batches';
import { pgPoolOf } from '../db/postgres';

/** Nodes only some tests want in the tree. */
type Extra = 'cd2' | 'lch';
/** Codes that can be chosen; the roots are always DT and HSV. */
type Codes = Partial<Record<'dcs' | 'cd' | Extra, string>>;

export type OrgTree<E extends Extra = never> = { doan: number; hoi: number; dcs: number; cd: number } & Record<E, number>;

/**
 * A fresh app and the small tree: roots DT (Đoàn trường) and HSV (Hội sinh viên trường), DT → DCS
 * (đoàn cơ sở) → CD1 (chi đoàn), and on request CD2 (a second chi đoàn under DCS) and LCH (liên
 * chi hội under HSV). Created in that order; `codes` replaces the default codes.
 */
export async function orgWorld<E extends Extra = never>(extras: readonly E[] = [], codes: Codes = {}) {
  const c = { dcs: 'DCS', cd: 'CD1', cd2: 'CD2', lch: 'LCH', ...codes };
  const t = await makeTestApp();
  const doan = await t.createOrg('doan_truong', 'DT');
  const hoi = await t.createOrg('hoi_sinh_vien_truong', 'HSV');
  const dcs = await t.createOrg('doan_co_so', c.dcs, doan);
  const cd = await t.createOrg('chi_doan', c.cd, dcs);
  const org: Record<string, number> = { doan, hoi, dcs, cd };
  const wants = (e: Extra) => (extras as readonly Extra[]).includes(e);
  if (wants('cd2')) org.cd2 = await t.createOrg('chi_doan', c.cd2, dcs);
  if (wants('lch')) org.lch = await t.createOrg('lien_chi_hoi', c.lch, hoi);
  return { t, org: org as OrgTree<E> };
}

/**
 * The world of the figure property tests: the small tree with CD2 and LCH plus a chi đoàn CD3
 * under DCS (`extra`, the one they delete), the raw client (SQLite's), and every organization's id.
 */
export async function figuresWorld() {
  const { t, org } = await orgWorld(['cd2', 'lch']);
  const extra = await t.createOrg('chi_doan', 'CD3', org.dcs);
  return { t, org, c: t.db.$client, extra, orgIds: [org.doan, org.hoi, org.dcs, org.cd, org.cd2, org.lch, extra] };
}

/**
 * Organizations of one type under `parentId`, each named by its code: the rows t.createOrg one
 * after another would write (same columns and paths, ids in the order of `codes`), in a multi-row
 * INSERT and one UPDATE of their paths per slice instead of three statements per organization.
 */
export async function createOrgs(t: TestApp, type: OrganizationType, codes: readonly string[], parentId: number): Promise<number[]> {
  const rows = codes.map((code) => ({ type, code, name: code, parentId, searchText: code.toLowerCase() }));
  const ids = new Map<string, number>();
  for (const slice of insertSlices(organizations, rows)) {
    const made = await allRows(t.db.insert(organizations).values(slice).returning({ id: organizations.id, code: organizations.code }));
    for (const r of made) ids.set(r.code, r.id);
    await runQuery(
      t.db
        .update(organizations)
        .set({ path: sql`(SELECT p.path FROM organizations p WHERE p.id = ${parentId}) || ${organizations.id} || '/'` })
        .where(
          inArray(
            organizations.id,
            made.map((r) => r.id),
          ),
        ),
    );
  }
  return codes.map((code) => ids.get(code)!);
}

/** Ids of the organizations `userId` is an active member of, ascending. */
export async function activeOrgIds(t: TestApp, userId: number) {
  return (
    await allRows(
      t.db
        .select({ id: organizationMembers.organizationId })
        .from(organizationMembers)
        .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.isActive, true))),
    )
  )
    .map((r) => r.id)
    .sort((a, b) => a - b);
}

/**
 * The SQL texts the database receives while `fn` runs. SQLite: each statement better-sqlite3
 * prepares (a statement prepared once and reused is seen once). PostgreSQL: each statement sent,
 * as node-postgres sends every execution.
 */
export async function recordStatements(t: TestApp, fn: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const pool = pgPoolOf(t.db);
  if (pool) {
    const query = pool.query;
    pool.query = ((q: string | { text: string }, ...rest: unknown[]) => {
      seen.push(typeof q === 'string' ? q : q.text);
      return (query as (...a: unknown[]) => unknown).call(pool, q, ...rest);
    }) as typeof pool.query;
    try {
      await fn();
    } finally {
      pool.query = query;
    }
    return seen;
  }
  const client = t.db.$client;
  const prepare = client.prepare.bind(client);
  client.prepare = ((source: string) => {
    seen.push(source);
    return prepare(source);
  }) as typeof client.prepare;
  try {
    await fn();
  } finally {
    client.prepare = prepare as typeof client.prepare;
  }
  return seen;
}
