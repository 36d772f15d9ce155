/**
 * Weeks of the collection chart: Monday to Sunday in Vietnam time. A week's index is
 * floor((ms + VN offset + 3 days) / 7 days) — 1 January 1970 was a Thursday, so index 0 began on
 * Monday 29 December 1969 — which SQL computes with one integer division per row.
 */
import { VN_OFFSET_MS } from '@doanhoi/shared';

const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;
export const WEEK_SHIFT_MS = VN_OFFSET_MS + 3 * DAY_MS;

/** The Monday (YYYY-MM-DD, Vietnam date) that begins week `index`. */
export function mondayOfWeek(index: number): string {
  return new Date(index * WEEK_MS - 3 * DAY_MS).toISOString().slice(0, 10);
}

/** The Monday (YYYY-MM-DD, Vietnam date) of the week the instant falls in. */
export function mondayOf(ms: number): string {
  return mondayOfWeek(Math.floor((ms + WEEK_SHIFT_MS) / WEEK_MS));
}
