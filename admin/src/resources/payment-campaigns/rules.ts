/** Pure display rules of the campaign screens (001 §4 "Due-date banner", "Progress bar colour"; §9 thresholds). */

const DAY_MS = 24 * 60 * 60 * 1000;

export type DueLevel = 'overdue' | 'soon' | 'week' | 'ok';

/** Overdue once the end has passed; 3 days or fewer "expiring soon" (orange); 7 or fewer yellow; otherwise green. */
export function dueLevel(endDate: string, now = Date.now()): { level: DueLevel; daysLeft: number } {
  const left = new Date(endDate).getTime() - now;
  const daysLeft = Math.max(0, Math.ceil(left / DAY_MS));
  if (left <= 0) return { level: 'overdue', daysLeft: 0 };
  if (left <= 3 * DAY_MS) return { level: 'soon', daysLeft };
  if (left <= 7 * DAY_MS) return { level: 'week', daysLeft };
  return { level: 'ok', daysLeft };
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
