/** Batched lookups used while checking an import (chunked IN lists: never one query per row). */
import { normalizeText } from '@doanhoi/shared';
import { inArray } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { classes } from '../classes/schema';
import type { Db } from '../db/client';
import { departments } from '../departments/schema';
import { organizations } from '../organizations/schema';

const CHUNK = 500;

export function chunked<T>(xs: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/** Rows whose column is one of `values`, in chunks. */
export function whereIn<R>(values: string[], column: SQLiteColumn, query: (cond: ReturnType<typeof inArray>) => R[]): R[] {
  const uniq = [...new Set(values.filter(Boolean))];
  return chunked(uniq).flatMap((c) => query(inArray(column, c)));
}

export function departmentCodes(db: Db): Map<string, number> {
  const m = new Map<string, number>();
  for (const d of db.select({ id: departments.id, code: departments.code }).from(departments).all()) if (d.code) m.set(normalizeText(d.code), d.id);
  return m;
}

/** Class by code or by name (both accent- and case-insensitive). */
export function classKeys(db: Db): Map<string, number> {
  const m = new Map<string, number>();
  for (const c of db.select({ id: classes.id, name: classes.name, code: classes.code }).from(classes).all()) {
    m.set(normalizeText(c.name), c.id);
    if (c.code) m.set(normalizeText(c.code), c.id);
  }
  return m;
}

export interface OrgRef {
  id: number;
  path: string;
  type: string;
  code: string;
}

export function organizationsByCode(db: Db, codes: string[]): Map<string, OrgRef[]> {
  const m = new Map<string, OrgRef[]>();
  const rows = whereIn(codes, organizations.code, (cond) =>
    db.select({ id: organizations.id, path: organizations.path, type: organizations.type, code: organizations.code }).from(organizations).where(cond).all(),
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
