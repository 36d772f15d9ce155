/** Pure display rules of the campaign screens (001 §4 "Due-date banner", "Progress bar colour"; §9 thresholds). */

const DAY_MS = 24 * 60 * 60 * 1000;

export type DueLevel = 'overdue' | 'soon' | 'week' | 'ok' | 'cancelled' | 'completed';

interface Due {
  level: DueLevel;
  /** Whole days left (never rounded up: "còn 1 ngày" must not be said with minutes left). */
  daysLeft: number;
  /** Under a day: the hours and minutes left, shown instead of days. */
  hoursLeft: number;
  minutesLeft: number;
}

/**
 * Overdue once the end has passed; 3 days or fewer "expiring soon" (orange); 7 or fewer yellow;
 * otherwise green. A cancelled or completed campaign counts nothing down: it takes no more
 * payments, whatever its end date says (issue 26 item 9).
 */
export function dueLevel(endDate: string, now = Date.now(), status?: string): Due {
  const left = new Date(endDate).getTime() - now;
  const minutes = Math.max(0, Math.floor(left / 60_000));
  const remaining = { daysLeft: Math.floor(minutes / 1440), hoursLeft: Math.floor((minutes % 1440) / 60), minutesLeft: minutes % 60 };
  if (status === 'CANCELLED') return { level: 'cancelled', ...remaining };
  if (status === 'COMPLETED') return { level: 'completed', ...remaining };
  if (left <= 0) return { level: 'overdue', daysLeft: 0, hoursLeft: 0, minutesLeft: 0 };
  if (left <= 3 * DAY_MS) return { level: 'soon', ...remaining };
  if (left <= 7 * DAY_MS) return { level: 'week', ...remaining };
  return { level: 'ok', ...remaining };
}

/** The banner's translation key: under a day, the hours and minutes left instead of "0 ngày". */
export function dueKey(d: Due): string {
  return d.level === 'soon' && d.daysLeft === 0 ? 'soonHours' : d.level;
}

/** 80 % and above green, 50 % and above yellow, otherwise red. */
export function progressColor(percent: number): string {
  if (percent >= 80) return '#52c41a';
  if (percent >= 50) return '#fadb14';
  return '#f5222d';
}

export type ActivationGap = 'feeLevels' | 'assignments' | 'endDate';

/**
 * What a draft still lacks before "Kích hoạt" is accepted (the API's activation check, issue 25
 * item 6): the button is shown disabled with these reasons instead of being refused after the click.
 */
export function activationGaps(c: { feeLevelCount: number; assignmentCount: number; endDate: string }, now = Date.now()): ActivationGap[] {
  const gaps: ActivationGap[] = [];
  if (c.feeLevelCount === 0) gaps.push('feeLevels');
  if (c.assignmentCount === 0) gaps.push('assignments');
  if (new Date(c.endDate).getTime() <= now) gaps.push('endDate');
  return gaps;
}
