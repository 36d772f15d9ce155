import { describe, expect, it } from 'vitest';
import { activationGaps, dueKey, dueLevel, progressColor } from './rules';

const NOW = Date.parse('2026-11-23T00:00:00Z');
const inDays = (d: number) => new Date(NOW + d * 86_400_000).toISOString();

describe('due-date banner (001 §4)', () => {
  it('is overdue once the end has passed', () => expect(dueLevel(inDays(-0.01), NOW).level).toBe('overdue'));
  it('is "expiring soon" at 3 days or fewer', () => {
    expect(dueLevel(inDays(3), NOW)).toEqual({ level: 'soon', daysLeft: 3, hoursLeft: 0, minutesLeft: 0 });
    expect(dueLevel(inDays(0.5), NOW).level).toBe('soon');
  });
  it('is yellow from just over 3 to 7 days', () => {
    expect(dueLevel(inDays(3.2), NOW).level).toBe('week');
    expect(dueLevel(inDays(7), NOW).level).toBe('week');
  });
  it('is green beyond 7 days', () => expect(dueLevel(inDays(7.1), NOW).level).toBe('ok'));
  it('never says "1 day" with minutes left: under a day it counts hours and minutes (issue 26 item 9)', () => {
    const d = dueLevel(new Date(NOW + 42 * 60_000).toISOString(), NOW);
    expect(d).toEqual({ level: 'soon', daysLeft: 0, hoursLeft: 0, minutesLeft: 42 });
    expect(dueKey(d)).toBe('soonHours');
    expect(dueLevel(inDays(1.5), NOW)).toMatchObject({ daysLeft: 1, hoursLeft: 12 });
  });
  it('counts nothing down for a cancelled or completed campaign', () => {
    expect(dueLevel(inDays(20), NOW, 'CANCELLED').level).toBe('cancelled');
    expect(dueLevel(inDays(20), NOW, 'COMPLETED').level).toBe('completed');
    expect(dueLevel(inDays(20), NOW, 'ACTIVE').level).toBe('ok');
  });
});

describe('progress colour (001 §4)', () => {
  it('is green from 80 %, yellow from 50 %, red below', () => {
    expect(progressColor(80)).toBe(progressColor(100));
    expect(progressColor(50)).toBe(progressColor(79.9));
    expect(progressColor(49.9)).toBe(progressColor(0));
    expect(new Set([progressColor(80), progressColor(50), progressColor(0)]).size).toBe(3);
  });
});

describe('activation gaps (issue 25 item 6)', () => {
  it('names what a draft lacks, as the API refuses it', () => {
    expect(activationGaps({ feeLevelCount: 0, assignmentCount: 0, endDate: inDays(-1) }, NOW)).toEqual([
      'feeLevels',
      'assignments',
      'endDate',
    ]);
    expect(activationGaps({ feeLevelCount: 1, assignmentCount: 3, endDate: inDays(5) }, NOW)).toEqual([]);
  });
});
