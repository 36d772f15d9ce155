/**
 * Headers officers' own files use (issue 26 item 6). The usual Vietnamese names of a column are the
 * columns' `aliases` (shared/src/schemas/imports.ts: MSSV, Mã SV, SĐT, E-mail, Khoa…); this file adds
 * what an alias cannot say: a "Họ và tên" column that holds both of our name columns, and columns
 * officers keep (STT, Nơi sinh, CCCD…) that the system does not store, so they are named as
 * skipped instead of sending the officer to the mapping step. The member record's columns (Ngày sinh,
 * Giới tính, Dân tộc…, issue 30 item 8) are the users import's own and match it first; they stay
 * listed here for the other kinds (a member list's date of birth is still skipped there). Matching ignores accents, case,
 * punctuation and the template's required star.
 */
import { normalizeText, type ImportColumn } from '@doanhoi/shared';

/** Accents, case, a trailing '*' (required marker of the template) and punctuation do not count. */
export function headerKey(h: string): string {
  return normalizeText(h.replace(/\*+\s*$/, ''))
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The row key a full-name header is read into before it is split (never a column of ours). */
export const FULL_NAME_KEY = 'fullName';

const FULL_NAME_HEADERS = new Set(
  ['Họ và tên', 'Họ tên', 'Họ và tên sinh viên', 'Họ tên sinh viên', 'Họ và tên đầy đủ', 'Tên đầy đủ', 'Full name', 'fullName'].map(
    headerKey,
  ),
);

/** Kept in officers' lists, not stored by the system: skipped, and said so on the preview. */
const UNSTORED_HEADERS = new Set(
  [
    'STT',
    'TT',
    'Số thứ tự',
    'Ngày sinh',
    'Ngày tháng năm sinh',
    'Năm sinh',
    'Giới tính',
    'Nơi sinh',
    'Quê quán',
    'Dân tộc',
    'Tôn giáo',
    'Địa chỉ',
    'Ghi chú',
    'CCCD',
    'CMND',
    'Số CCCD',
    'Ngày vào Đoàn',
    'Ngày vào Hội',
    'Chức vụ',
  ].map(headerKey),
);

/** A file's full name fills our two name columns only where both exist (the users import). */
export const takesFullName = (columns: readonly ImportColumn[]) =>
  columns.some((c) => c.key === 'familyName') && columns.some((c) => c.key === 'givenName');

export const isFullNameHeader = (h: string) => FULL_NAME_HEADERS.has(headerKey(h));

export const isUnstoredHeader = (h: string) => UNSTORED_HEADERS.has(headerKey(h));

/**
 * A header the exact readers miss, matched without punctuation ("E-mail" for "Email", "Mã-SV"
 * for "Mã SV"), or a full-name header where the columns take one.
 */
export function synonymKey(columns: readonly ImportColumn[], header: string): string | undefined {
  const k = headerKey(header);
  if (!k) return undefined;
  for (const c of columns) if ([c.key, c.header].some((n) => headerKey(n) === k)) return c.key;
  for (const c of columns) if ((c.aliases ?? []).some((n) => headerKey(n) === k)) return c.key;
  if (takesFullName(columns) && FULL_NAME_HEADERS.has(k)) return FULL_NAME_KEY;
  return undefined;
}

/** "Nguyễn Văn An" → family "Nguyễn Văn", given "An": the last word is the given name, as Vietnamese names are written. */
export function splitFullName(full: string): { familyName: string; givenName: string } {
  const words = full.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return { familyName: '', givenName: words[0] ?? '' };
  return { familyName: words.slice(0, -1).join(' '), givenName: words[words.length - 1]! };
}

/** A row read with a full-name column gets the name columns the file did not have on its own. */
export function applyFullName(rec: Record<string, string>): void {
  if (!(FULL_NAME_KEY in rec)) return;
  const { familyName, givenName } = splitFullName(rec[FULL_NAME_KEY] ?? '');
  if (!rec.familyName) rec.familyName = familyName;
  if (!rec.givenName) rec.givenName = givenName;
  delete rec[FULL_NAME_KEY];
}

/** The columns a header row provides: a full-name header provides both name columns. */
export function providedKeys(keys: Iterable<string | null>): Set<string> {
  const out = new Set<string>();
  for (const k of keys) if (k) out.add(k);
  if (out.has(FULL_NAME_KEY)) out.add('familyName').add('givenName');
  return out;
}
