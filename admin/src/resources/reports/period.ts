/**
 * Report periods (issue 30 item 8): a school year runs 1 September – 31 August, its first semester
 * 1 September – 31 January and its second 1 February – 31 August (docs/decisions.md); a calendar
 * year, or any range. Days are "YYYY-MM-DD" as the API takes them.
 */
export type PeriodKind = 'semester1' | 'semester2' | 'schoolYear' | 'calendarYear' | 'custom';
export const PERIOD_KINDS: PeriodKind[] = ['semester1', 'semester2', 'schoolYear', 'calendarYear', 'custom'];

/** `year`: the school year's first calendar year (2025 → 2025–2026), or the calendar year. */
export function periodRange(kind: Exclude<PeriodKind, 'custom'>, year: number): { from: string; to: string } {
  switch (kind) {
    case 'semester1':
      return { from: `${year}-09-01`, to: `${year + 1}-01-31` };
    case 'semester2':
      return { from: `${year + 1}-02-01`, to: `${year + 1}-08-31` };
    case 'schoolYear':
      return { from: `${year}-09-01`, to: `${year + 1}-08-31` };
    case 'calendarYear':
      return { from: `${year}-01-01`, to: `${year}-12-31` };
  }
}

/** The school year a day falls in (September onwards belongs to the year that starts then). */
export function schoolYearOf(d: Date): number {
  return d.getMonth() >= 8 ? d.getFullYear() : d.getFullYear() - 1;
}
