/** Reading Vietnam-local date-times (Asia/Ho_Chi_Minh) into instants; formatting is in ./index.ts. */

/** Vietnam has one offset all year (UTC+7, no DST), so a fixed offset converts exactly. */
export const VN_OFFSET_MS = 7 * 3600_000;

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * The campaign form sends local date-times without a zone ('2026-12-01T00:00:00'): read them as
 * Asia/Ho_Chi_Minh. A value with an explicit zone is taken as that instant. A bare date is the
 * start of that day, or its last millisecond with `endOfDay`. Null when malformed or not a real date.
 */
export function parseVnDateTime(value: string, opts: { endOfDay?: boolean } = {}): Date | null {
  const s = value.trim();
  if (ZONED.test(s)) {
    const d = new Date(s);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const m = LOCAL.exec(s);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dateOnly = m[4] === undefined;
  const [h, mi, sec, ms] =
    dateOnly && opts.endOfDay
      ? [23, 59, 59, 999]
      : [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), Number((m[7] ?? '0').padEnd(3, '0'))];
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || sec > 59) return null;
  const utc = Date.UTC(y, mo - 1, d, h, mi, sec, ms);
  // Date.UTC rolls 31 February over into March: refuse dates that do not exist.
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return null;
  return new Date(utc - VN_OFFSET_MS);
}
