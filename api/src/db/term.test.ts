/** The term expression's values at every boundary of the three terms, in Vietnam time (UTC+7). */
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { openDb } from './client';
import { runMigrations } from './migrate';
import { sqliteTermStartSql } from './term';

const H7 = 7 * 3_600_000;
/** Midnight of a day in Vietnam, in epoch ms (month 1–12). */
const vn = (y: number, m: number, d = 1) => Date.UTC(y, m - 1, d) - H7;
const sqlite = new Database(':memory:');
const { sql: text } = new SQLiteSyncDialect().sqlToQuery(sqliteTermStartSql(sql.raw('CAST(? AS INTEGER)')));
const statement = sqlite.prepare(`SELECT ${text} AS term`).pluck();
const termOf = (ms: number) => statement.get(...Array(text.split('?').length - 1).fill(ms)) as number;

describe('sqliteTermStartSql', () => {
  const cases: [string, number, number][] = [
    ['HK1 begins on 1 September', vn(2025, 9), vn(2025, 9)],
    ['the last instant of August is still summer', vn(2025, 9) - 1, vn(2025, 7)],
    ['HK1 runs over the new year', vn(2026, 1, 15), vn(2025, 9)],
    ['the last instant of January is still HK1', vn(2026, 2) - 1, vn(2025, 9)],
    ['HK2 begins on 1 February', vn(2026, 2), vn(2026, 2)],
    ['the last instant of June is still HK2', vn(2026, 7) - 1, vn(2026, 2)],
    ['summer begins on 1 July', vn(2026, 7), vn(2026, 7)],
    ['December is HK1 of that year', vn(2026, 12, 31), vn(2026, 9)],
    // 1 September 00:30 in Vietnam is still 31 August in UTC: the day is Vietnam's.
    ['Vietnam time, not UTC', vn(2025, 9) + 30 * 60_000, vn(2025, 9)],
    ['a leap-year February', vn(2028, 2, 29), vn(2028, 2)],
  ];
  for (const [name, at, start] of cases) {
    it(name, () => expect(new Date(termOf(at)).toISOString()).toBe(new Date(start).toISOString()));
  }
});

describe('organization_members.joined_term', () => {
  it('is the term of joined_at, as the triggers and the bulk insert read it', () => {
    const db = openDb(':memory:');
    runMigrations(db);
    // Inactive and unattached rows: only the generated column is read, no trigger has work to do.
    db.$client.pragma('foreign_keys = OFF');
    const insert = db.$client.prepare(
      'INSERT INTO organization_members (organization_id, user_id, is_active, joined_at) VALUES (1, ?, 0, ?)',
    );
    const read = db.$client.prepare('SELECT joined_term FROM organization_members WHERE user_id = ?').pluck();
    [vn(2025, 9) - 1, vn(2025, 9), vn(2026, 2) - 1, vn(2026, 2), vn(2026, 7) - 1, vn(2026, 7)].forEach((at, i) => {
      insert.run(i + 1, at);
      expect(read.get(i + 1)).toBe(termOf(at));
    });
    db.$client.close();
  });
});
