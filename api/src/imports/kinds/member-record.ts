/**
 * The member record's cells of a users import (issue 30 item 8): days as officers type them
 * (dd/mm/yyyy, yyyy-mm-dd, an Excel date), gender and ethnicity by name, code or the export's
 * label, then the form's own rules (shared memberRecordFields, memberDateIssues) with its messages.
 */
import {
  ETHNICITIES,
  GENDER_LABELS_VI,
  memberDateIssues,
  memberRecordFields,
  normalizeText,
  USER_IMPORT_COLUMNS,
  type Gender,
  type MemberRecord,
} from '@doanhoi/shared';
import { columnMessage, type Lang } from '../row-rules';

export const RECORD_KEYS = [
  'dateOfBirth',
  'gender',
  'ethnicity',
  'religion',
  'doanJoinedAt',
  'hoiJoinedAt',
  'partyJoinedAt',
  'hometown',
] as const satisfies readonly (keyof MemberRecord)[];
const DAY_KEYS = new Set<string>(['dateOfBirth', 'doanJoinedAt', 'hoiJoinedAt', 'partyJoinedAt']);

const squash = (s: string) => normalizeText(s).replace(/[^a-z0-9]/g, '');

const GENDERS: Record<string, Gender> = Object.fromEntries(
  (
    [
      ['male', ['male', 'm', 'nam', GENDER_LABELS_VI.male]],
      ['female', ['female', 'f', 'nu', GENDER_LABELS_VI.female]],
      ['other', ['other', 'khac', GENDER_LABELS_VI.other]],
    ] as const
  ).flatMap(([g, names]) => names.map((n) => [squash(n), g as Gender])),
);

const ETHNICITY_BY_NAME = new Map<string, string>();
for (const e of ETHNICITIES)
  for (const n of [e.code, String(Number(e.code)), e.vi, e.en, ...(e.aliases ?? [])])
    if (!ETHNICITY_BY_NAME.has(squash(n))) ETHNICITY_BY_NAME.set(squash(n), e.code);

/** The day a cell holds, as YYYY-MM-DD when it reads as one; otherwise the text unchanged (the rules then refuse it). */
export function readDay(raw: string): string {
  const s = raw.trim();
  let m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
  if (m) return `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:T.*)?$/.exec(s);
  if (m) return `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  // A date cell the reader saw as a number: Excel's serial day (1 = 1900-01-01, with its 1900 leap-day quirk).
  if (/^\d{4,5}$/.test(s) && Number(s) > 60) return new Date(Date.UTC(1899, 11, 30) + Number(s) * 86_400_000).toISOString().slice(0, 10);
  return s;
}

const COLUMNS = new Map(USER_IMPORT_COLUMNS.map((c) => [c.key, c]));

/**
 * The record fields the row's file had (absent columns are left out, so an update keeps them), and
 * the errors in the form's words. An empty cell clears the field.
 */
export function readMemberRecord(values: Record<string, string>, lang: Lang): { record: Partial<MemberRecord>; errors: string[] } {
  const record: Partial<MemberRecord> = {};
  const errors: string[] = [];
  const fail = (key: string, reason: string) => errors.push(columnMessage(reason, COLUMNS.get(key), lang));
  for (const key of RECORD_KEYS) {
    if (!(key in values)) continue;
    const raw = (values[key] ?? '').trim();
    let input: string = raw;
    if (raw && DAY_KEYS.has(key)) input = readDay(raw);
    if (raw && key === 'gender') input = GENDERS[squash(raw)] ?? raw;
    if (raw && key === 'ethnicity') input = ETHNICITY_BY_NAME.get(squash(raw)) ?? raw;
    const parsed = memberRecordFields[key].safeParse(input);
    if (!parsed.success) fail(key, parsed.error.issues[0]!.message);
    else (record as Record<string, unknown>)[key] = parsed.data ?? null;
  }
  for (const issue of memberDateIssues(record)) fail(issue.path, issue.key);
  return { record, errors };
}

/** Every record column of a new user (null when the file had none): a multi-row insert names them all. */
export function newRecord(r: Partial<MemberRecord>): MemberRecord {
  return Object.fromEntries(RECORD_KEYS.map((k) => [k, r[k] ?? null])) as unknown as MemberRecord;
}
