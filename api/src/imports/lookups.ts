/** Batched lookups used while checking an import (values bound as one JSON array: never one query per row). */
import { normalizeText } from '@doanhoi/shared';
import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { classes } from '../db/tables/classes';
import type { Db } from '../db/client';
import { inJsonValues } from '../db/sqlite';
import { departments } from '../db/tables/departments';
import { organizations } from '../db/tables/organizations';
import { superAdminIds } from '../access/grants';
import { userScope, usersInScope } from '../access/scope';
import type { Actor } from '../lib/context';
import { allRows } from '../db/engine';

const CHUNK = 500;

export function chunked<T>(xs: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/**
 * Rows whose column is one of `values`, in one query: the values go as one JSON parameter (500-value
 * IN lists were rebuilt by drizzle chunk after chunk: 60–110 ms for a 10k file's codes and e-mails, 13 ms so).
 */
export async function whereIn<R>(values: string[], column: SQLiteColumn | SQL, query: (cond: SQL) => Promise<R[]>): Promise<R[]> {
  const uniq = [...new Set(values.filter(Boolean))];
  return uniq.length === 0 ? [] : await query(inJsonValues(column, uniq));
}

/** Records by code and by name, accent- and case-insensitively. */
export interface RefIndex {
  byCode: Map<string, number>;
  byName: Map<string, number[]>;
}

function refIndex(rows: { id: number; name: string; code: string | null }[]): RefIndex {
  const ix: RefIndex = { byCode: new Map(), byName: new Map() };
  for (const r of rows) {
    if (r.code) ix.byCode.set(normalizeText(r.code), r.id);
    const k = normalizeText(r.name);
    ix.byName.set(k, [...(ix.byName.get(k) ?? []), r.id]);
  }
  return ix;
}

/**
 * What `text` names: the record it already points at if that one matches (so a re-imported export
 * keeps its references), else the record with that code, else the only record with that name.
 */
export function resolveRef(ix: RefIndex, text: string, current: number | null): { id: number } | { ambiguous: number } | null {
  const k = normalizeText(text);
  const code = ix.byCode.get(k);
  const named = ix.byName.get(k) ?? [];
  if (current != null && (code === current || named.includes(current))) return { id: current };
  if (code != null) return { id: code };
  if (named.length === 1) return { id: named[0]! };
  return named.length > 1 ? { ambiguous: named.length } : null;
}

/** Departments by code or by name (the export writes names, the template asks for codes). */
export async function departmentIndex(db: Db): Promise<RefIndex> {
  return refIndex(await allRows(db.select({ id: departments.id, name: departments.name, code: departments.code }).from(departments)));
}

/** Classes by code or by name. */
export async function classIndex(db: Db): Promise<RefIndex> {
  return refIndex(await allRows(db.select({ id: classes.id, name: classes.name, code: classes.code }).from(classes)));
}

export interface OrgRef {
  id: number;
  path: string;
  type: string;
  code: string;
}

/** Organizations by code, case-insensitively (codes are unique per type, so one code may name several). */
export async function organizationsByCode(db: Db, codes: string[]): Promise<Map<string, OrgRef[]>> {
  const m = new Map<string, OrgRef[]>();
  const lower = sql`lower(${organizations.code})`;
  const rows = await whereIn(
    codes.map((c) => c.trim().toLowerCase()),
    lower,
    async (cond) =>
      await allRows(
        db
          .select({ id: organizations.id, path: organizations.path, type: organizations.type, code: organizations.code })
          .from(organizations)
          .where(cond),
      ),
  );
  for (const r of rows) {
    const k = r.code.toLowerCase();
    m.set(k, [...(m.get(k) ?? []), r]);
  }
  return m;
}

export function ancestorsAndSelf(path: string): number[] {
  return path.split('/').filter(Boolean).map(Number);
}

/** Users among `ids` who are super admins, in chunked IN lists. */
async function superAdmins(db: Db, ids: number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (const chunk of chunked(ids)) for (const id of await superAdminIds(db, chunk)) out.add(id);
  return out;
}

/**
 * Of these existing users, the ones the caller may update through an import: within the reach of
 * their users.update grants, and never a super admin unless the caller is one.
 */
export async function updatableUsers(db: Db, actor: Actor, ids: number[]): Promise<Set<number>> {
  const uniq = [...new Set(ids)];
  if (uniq.length === 0) return new Set();
  const scope = await userScope(db, actor, 'users.update');
  const reach = new Set<number>();
  for (const chunk of chunked(uniq)) for (const id of await usersInScope(db, scope, chunk)) reach.add(id);
  if (!actor.isSuperAdmin) for (const id of await superAdmins(db, [...reach])) reach.delete(id);
  return reach;
}
