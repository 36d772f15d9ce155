/**
 * Where the import benchmark's file lands (tests/bench/import-export.ts): the units, classes and departments its rows
 * name, added to a fresh database or, with BENCH_IE_INTO=bench, to a copy of the bench database.
 */
import { normalizeText } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { openDb } from '../../api/src/db/client';
import { classes, departments, organizations } from '../../api/src/db/schema';
import { childPath } from '../../api/src/organizations/paths';
import { databaseUrl } from './pg';

/** The units, classes and departments the import file's rows name (codes BDT, BDCS0–9, BCD0-0…BCD9-9, BK0–9, BL0–49). */
type UnitType = 'doan_truong' | 'doan_co_so' | 'chi_doan';
const TARGET_UNITS: { type: UnitType; code: string; parent: string | null }[] = [
  { type: 'doan_truong', code: 'BDT', parent: null },
  ...Array.from({ length: 10 }, (_, f) => [
    { type: 'doan_co_so' as UnitType, code: `BDCS${f}`, parent: 'BDT' },
    ...Array.from({ length: 10 }, (_, i) => ({ type: 'chi_doan' as UnitType, code: `BCD${f}-${i}`, parent: `BDCS${f}` })),
  ]).flat(),
];
const TARGET_DEPARTMENTS = Array.from({ length: 10 }, (_, i) => ({ name: `Khoa ${i}`, code: `BK${i}`, searchText: `khoa ${i} bk${i}` }));
const TARGET_CLASSES = Array.from({ length: 50 }, (_, i) => ({
  name: `Lớp ${i}`,
  code: `BL${i}`,
  year: 2022,
  searchText: `lop ${i} bl${i}`,
}));

/** Adds the import's units, classes and departments to a SQLite database. */
export function addTargets(path: string) {
  const db = openDb(path);
  db.transaction((tx) => {
    const added = new Map<string, { id: number; path: string }>();
    for (const u of TARGET_UNITS) {
      const parent = u.parent ? added.get(u.parent)! : null;
      const id = tx
        .insert(organizations)
        .values({ type: u.type, code: u.code, name: u.code, parentId: parent?.id ?? null, searchText: normalizeText(u.code) })
        .returning({ id: organizations.id })
        .get().id;
      const p = childPath(parent?.path, id);
      tx.update(organizations).set({ path: p }).where(eq(organizations.id, id)).run();
      added.set(u.code, { id, path: p });
    }
    for (const d of TARGET_DEPARTMENTS) tx.insert(departments).values(d).run();
    for (const c of TARGET_CLASSES) tx.insert(classes).values(c).run();
  });
  db.$client.close();
}

/** The same on PostgreSQL (a copy of the bench database made by TEMPLATE, not by the app). */
async function addTargetsPg(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('BEGIN');
    const now = Date.now();
    const added = new Map<string, { id: number; path: string }>();
    for (const u of TARGET_UNITS) {
      const parent = u.parent ? added.get(u.parent)! : null;
      const { id } = (
        await c.query<{ id: number }>(
          'INSERT INTO organizations (type, code, name, parent_id, search_text, created_at, updated_at) VALUES ($1, $2, $2, $3, $4, $5, $5) RETURNING id',
          [u.type, u.code, parent?.id ?? null, normalizeText(u.code), now],
        )
      ).rows[0]!;
      const p = childPath(parent?.path, id);
      await c.query('UPDATE organizations SET path = $1 WHERE id = $2', [p, id]);
      added.set(u.code, { id, path: p });
    }
    for (const d of TARGET_DEPARTMENTS)
      await c.query('INSERT INTO departments (name, code, search_text, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)', [
        d.name,
        d.code,
        d.searchText,
        now,
      ]);
    for (const k of TARGET_CLASSES)
      await c.query('INSERT INTO classes (name, code, year, search_text, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)', [
        k.name,
        k.code,
        k.year,
        k.searchText,
        now,
      ]);
    await c.query('COMMIT');
  } finally {
    await c.end();
  }
}

/**
 * BENCH_IE_INTO=bench: the import goes into a copy of the bench database (its users, units and figures), with the
 * file's units added, instead of a fresh one: SQLite's file copied by its backup API, PostgreSQL's database copied
 * by CREATE DATABASE … TEMPLATE (nobody may be connected to it meanwhile).
 */
export const INTO_BENCH = process.env.BENCH_IE_INTO === 'bench';

export async function benchCopy(benchDb: string, path: string) {
  const src = openDb(benchDb);
  try {
    await src.$client.backup(path);
  } finally {
    src.$client.close();
  }
  addTargets(path);
}

export async function benchCopyPg(pgUrl: string, importUrl: string) {
  const name = (u: string) => pg.escapeIdentifier(decodeURIComponent(new URL(u).pathname.slice(1)));
  const admin = new pg.Client({ connectionString: databaseUrl(pgUrl, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name(importUrl)} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name(importUrl)} TEMPLATE ${name(pgUrl)}`);
  } finally {
    await admin.end();
  }
  await addTargetsPg(importUrl);
}
