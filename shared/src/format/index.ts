/** vi-VN formatting shared by the admin, the portal and the exports. */

export { VN_OFFSET_MS, parseVnDateTime } from './vn-date-time';
export { amountInWords } from './amount-in-words';

const TZ = 'Asia/Ho_Chi_Minh';

function toDate(v: Date | string | number | null | undefined): Date | null {
  if (v == null || v === '') return null;
  const d = v instanceof Date ? v : new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** dd/mm/yyyy in Vietnam time. */
export function formatDate(v: Date | string | number | null | undefined): string {
  const d = toDate(v);
  if (!d) return '';
  return new Intl.DateTimeFormat('vi-VN', { timeZone: TZ, day: '2-digit', month: '2-digit', year: 'numeric' }).format(d);
}

/** HH:mm dd/mm/yyyy (24-hour) in Vietnam time. */
export function formatDateTime(v: Date | string | number | null | undefined): string {
  const d = toDate(v);
  if (!d) return '';
  return new Intl.DateTimeFormat('vi-VN', {
    timeZone: TZ,
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(d);
}

/** 150.000 ₫ */
export function formatVnd(amount: number | null | undefined): string {
  if (amount == null || Number.isNaN(amount)) return '';
  return new Intl.NumberFormat('vi-VN', { style: 'currency', currency: 'VND', maximumFractionDigits: 0 }).format(amount);
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
