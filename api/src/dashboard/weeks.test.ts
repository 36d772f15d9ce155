import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { mondayOf, WEEK_MS, WEEK_SHIFT_MS } from './weeks';

describe('collection chart weeks', () => {
  it('give the Vietnam Monday SQLite date() gives, in JS and as the SQL integer bucket', () => {
    const db = new Database(':memory:');
    const byDate = db.prepare<[number], string>("SELECT date(? / 1000, 'unixepoch', '+7 hours', '-6 days', 'weekday 1')").pluck();
    // Bound as a column holds it (an integer), so the division is the integer one the chart's query does.
    const byIndex = db.prepare<[number], number>(`SELECT (CAST(? AS INTEGER) + ${WEEK_SHIFT_MS}) / ${WEEK_MS}`).pluck();
    // Around the Sunday→Monday midnight in Vietnam (17:00 UTC on Sunday), and spread over years.
    const sundayMidnightVn = Date.UTC(2026, 10, 22, 17, 0, 0);
    const instants = [
      sundayMidnightVn - 1,
      sundayMidnightVn,
      sundayMidnightVn + 1,
      Date.UTC(2024, 1, 29, 3),
      Date.UTC(2027, 0, 1, 16, 59, 59, 999),
    ];
    for (let i = 0; i < 500; i++)
      instants.push(Date.UTC(2020, 0, 1) + Math.floor(((i * 7919) % 2000) * 86_400_000 + ((i * 104_729) % 86_400_000)));
    for (const ms of instants) {
      expect(Number.isInteger(ms)).toBe(true);
      expect(mondayOf(ms), new Date(ms).toISOString()).toBe(byDate.get(ms));
      expect(new Date(`${mondayOf(ms)}T00:00:00Z`).getUTCDay()).toBe(1);
      expect(Math.floor((ms + WEEK_SHIFT_MS) / WEEK_MS)).toBe(byIndex.get(ms));
    }
    expect(mondayOf(sundayMidnightVn - 1)).toBe('2026-11-16');
    expect(mondayOf(sundayMidnightVn)).toBe('2026-11-23');
  });
});
