import type { ImportColumn } from '@doanhoi/shared';
import { useGetLocale, useTranslate } from '@refinedev/core';

/**
 * A column's name on screen: the template's Vietnamese header in vi (the words the officer's file
 * uses), an English label in en (imports:columns.<key>), the header again when no label exists.
 */
export function useColumnLabel(): (c: ImportColumn) => string {
  const t = useTranslate();
  const lang = useGetLocale()() ?? 'vi';
  return (c) => {
    if (lang !== 'en') return c.header;
    const key = `imports:columns.${c.key}`;
    const label = t(key, c.header);
    return label === key ? c.header : label;
  };
}

/** Shown after the required columns when a file carries them: unit codes first, as officers check them first. */
const PRIORITY = [
  'organizationCodes',
  'classOrUnitCode',
  'className',
  'phone',
  'managementDepartmentCode',
  'trainingDepartmentCode',
  'userType',
  'membershipStatus',
  'year',
  'departmentCode',
  'description',
];

/** A users file's family and given names read as one "Họ và tên" column. */
export const NAME_PAIR = ['familyName', 'givenName'] as const;

/**
 * The columns the file filled (a value in any row), required ones first, then by PRIORITY;
 * the password (masked anyway) last.
 */
export function filledColumns(columns: readonly ImportColumn[], rows: { data: Record<string, unknown> }[]): ImportColumn[] {
  const filled = columns.filter((c) => c.required || rows.some((r) => String(r.data[c.key] ?? '').trim() !== ''));
  const rank = (c: ImportColumn) =>
    c.required ? -1 : c.key === 'password' ? 99 : PRIORITY.indexOf(c.key) === -1 ? 50 : PRIORITY.indexOf(c.key);
  return filled
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
    .map((x) => x.c);
}
