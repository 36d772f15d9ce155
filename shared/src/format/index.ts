/** vi-VN formatting shared by the admin, the portal and the exports. */

export { VN_OFFSET_MS, parseVnDateTime } from './vn-date-time';
export { amountInWords } from './amount-in-words';

const TZ = 'Asia/Ho_Chi_Minh';

/**
 * Each formatter is built once, on first use: building an Intl formatter costs far more than
 * formatting with it (about 8 ms per table cell on a busy machine: a tenth of the users table's
 * render, issue 12, and per row of a 100,000-row export).
 */
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}
const dateFormat = /* @__PURE__ */ once(
  () => new Intl.DateTimeFormat('vi-VN', { timeZone: TZ, day: '2-digit', month: '2-digit', year: 'numeric' }),
);
const dateTimeFormat = /* @__PURE__ */ once(
  () =>
    new Intl.DateTimeFormat('vi-VN', {
      timeZone: TZ,
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    }),
);
const vndFormat = /* @__PURE__ */ once(
  () => new Intl.NumberFormat('vi-VN', { style: 'currency', currency: 'VND', maximumFractionDigits: 0 }),
);

function toDate(v: Date | string | number | null | undefined): Date | null {
  if (v == null || v === '') return null;
  const d = v instanceof Date ? v : new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** dd/mm/yyyy in Vietnam time. */
export function formatDate(v: Date | string | number | null | undefined): string {
  const d = toDate(v);
  if (!d) return '';
  return dateFormat().format(d);
}

/** HH:mm dd/mm/yyyy (24-hour) in Vietnam time. */
export function formatDateTime(v: Date | string | number | null | undefined): string {
  const d = toDate(v);
  if (!d) return '';
  return dateTimeFormat().format(d);
}

/** 150.000 ₫ */
export function formatVnd(amount: number | null | undefined): string {
  if (amount == null || Number.isNaN(amount)) return '';
  return vndFormat().format(amount);
}

const numberFormats = new Map<string, Intl.NumberFormat>();
/** One formatter per (locale, options), built on first use like the ones above. */
function numberFormat(locale: string, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `${locale}|${key}`;
  let f = numberFormats.get(id);
  if (!f) numberFormats.set(id, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

/** 1.234 (vi-VN; the admin in English passes en-US: 1,234). */
export function formatNumber(v: number | null | undefined, locale = 'vi-VN'): string {
  if (v == null || Number.isNaN(v)) return '';
  return numberFormat(locale, 'n', { maximumFractionDigits: 1 }).format(v);
}

/** A percentage given in percent (32.6 → "32,6%" in vi-VN, "32.6%" in en-US), one decimal at most. */
export function formatPercent(percent: number | null | undefined, locale = 'vi-VN'): string {
  if (percent == null || Number.isNaN(percent)) return '';
  return numberFormat(locale, '%', { style: 'percent', maximumFractionDigits: 1 }).format(percent / 100);
}

/** Family name then given name: "Nguyễn Văn An". */
export function fullName(u: { familyName?: string | null; givenName?: string | null } | null | undefined): string {
  if (!u) return '';
  return [u.familyName, u.givenName].filter(Boolean).join(' ').trim();
}

/** Lower-case, accent-stripped text for diacritics-insensitive search ("Nguyễn Đức" -> "nguyen duc"). */
export function normalizeText(s: string | null | undefined): string {
  if (!s) return '';
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** File-name part: accent-stripped, lower-case, words joined by '-'. */
export function slugify(s: string): string {
  return normalizeText(s)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
