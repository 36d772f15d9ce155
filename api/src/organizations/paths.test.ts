/**
 * Permission scoping selects a subtree as a range of materialised paths (access/scope.ts). That is
 * exact only under byte-order comparison: SQLite's BINARY collation here, COLLATE "C" on PostgreSQL.
 * Under a locale collation that skips punctuation (glibc's en_US/vi_VN), whole subtrees drop out.
 */
import { and, gte, lt } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDb } from '../db/client';
import { runMigrations } from '../db/migrate';
import { subtreeRange } from '../access/scope';
import { childPath } from './paths';
import { organizations } from '../db/tables/organizations';
import { allRows, runQuery } from '../db/engine';
import { forEachInOrder } from '../lib/in-order';

/** Paths of a small tree whose ids share prefixes (5, 50, 51, 512, 6): the cases a range can get wrong. */
const PATHS = ['/1/', '/1/5/', '/1/5/12/', '/1/5/12/7/', '/1/5/512/', '/1/50/', '/1/51/5/', '/1/6/', '/2/', '/2/5/'];
const UNDER = '/1/5/';
const expected = PATHS.filter((p) => p.startsWith(UNDER));

function inRange(compare: (a: string, b: string) => number) {
  const [from, to] = subtreeRange(UNDER);
  return PATHS.filter((p) => compare(p, from) >= 0 && compare(p, to) < 0);
}

describe('organization paths', () => {
  it('childPath extends the parent path with the id', () => {
    expect(childPath(null, 1)).toBe('/1/');
    expect(childPath('/1/5/', 12)).toBe('/1/5/12/');
  });

  it('a subtree is exactly its path range under byte order', () => {
    const bytes = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    expect(inRange(bytes)).toEqual(expected);
  });

  it('SQLite compares the path column byte by byte, so the range query returns the subtree', async () => {
    const db = openDb(':memory:');
    runMigrations(db);
    await forEachInOrder(
      PATHS,
      async (path, i) =>
        await runQuery(db.insert(organizations).values({ type: 'chi_doan', code: `P${i}`, name: `P${i}`, path, searchText: `p${i}` })),
    );
    const [from, to] = subtreeRange(UNDER);
    const rows = await allRows(
      db
        .select({ path: organizations.path })
        .from(organizations)
        .where(and(gte(organizations.path, from), lt(organizations.path, to))),
    );
    expect(rows.map((r) => r.path).sort()).toEqual([...expected].sort());
    db.$client.close();
  });

  it('a locale collation that skips punctuation loses nodes: PostgreSQL needs COLLATE "C" on organizations.path', () => {
    const locale = new Intl.Collator('en', { ignorePunctuation: true, numeric: false }).compare;
    const found = inRange(locale);
    expect(found).not.toEqual(expected);
    expect(expected.filter((p) => !found.includes(p)).length).toBeGreaterThan(0);
  });
});
