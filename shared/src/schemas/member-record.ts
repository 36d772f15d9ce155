/**
 * The member record the union's own files hold (issue 30 item 8): date of birth, gender, ethnicity,
 * religion, the days of joining the Đoàn, the Hội and the Party, hometown. Days are calendar days
 * written YYYY-MM-DD (no time zone). Gender and ethnicity are fixed lists; the 54 ethnic groups
 * carry the statistics office's codes ("01" Kinh … "54" Rơ-măm) and their vi/en names here, as data
 * the admin, the portal, imports, exports and reports all read.
 */
import { z } from 'zod';
import { cleanLine } from './common';

export const GENDERS = ['male', 'female', 'other'] as const;
export type Gender = (typeof GENDERS)[number];

export interface Ethnicity {
  code: string;
  vi: string;
  en: string;
  /** Other spellings an officer's file may hold (matched without accents, case or punctuation). */
  aliases?: readonly string[];
}

// Danh mục các dân tộc Việt Nam (Tổng cục Thống kê), in its order.
const NAMES: readonly [string, string, string[]?][] = [
  ['Kinh', 'Kinh (Viet)', ['Việt']],
  ['Tày', 'Tay'],
  ['Thái', 'Thai'],
  ['Hoa', 'Hoa (Chinese)', ['Hán']],
  ['Khơ-me', 'Khmer', ['Khmer', 'Khơ Me']],
  ['Mường', 'Muong'],
  ['Nùng', 'Nung'],
  ['Mông', 'Hmong', ['Hmông', "H'Mông", 'Mèo']],
  ['Dao', 'Dao'],
  ['Gia-rai', 'Gia Rai', ['Jrai', 'Gia Lai']],
  ['Ngái', 'Ngai'],
  ['Ê-đê', 'E De', ['Rhade']],
  ['Ba-na', 'Ba Na', ['Bahnar']],
  ['Xơ-đăng', 'Xo Dang'],
  ['Sán Chay', 'San Chay', ['Cao Lan', 'Sán Chỉ']],
  ['Cơ-ho', 'Co Ho'],
  ['Chăm', 'Cham', ['Chàm']],
  ['Sán Dìu', 'San Diu'],
  ['Hrê', 'Hre', ["H'rê"]],
  ['Mnông', 'Mnong', ["M'Nông"]],
  ['Ra-glai', 'Ra Glai'],
  ['Xtiêng', 'Xtieng', ['Stiêng']],
  ['Bru-Vân Kiều', 'Bru-Van Kieu', ['Vân Kiều', 'Bru']],
  ['Thổ', 'Tho'],
  ['Giáy', 'Giay'],
  ['Cơ-tu', 'Co Tu', ['Katu']],
  ['Gié-Triêng', 'Gie Trieng'],
  ['Mạ', 'Ma'],
  ['Khơ-mú', 'Kho Mu', ['Khmu']],
  ['Co', 'Co'],
  ['Tà-ôi', 'Ta Oi', ['Pa Kô']],
  ['Chơ-ro', 'Cho Ro'],
  ['Kháng', 'Khang'],
  ['Xinh-mun', 'Xinh Mun'],
  ['Hà Nhì', 'Ha Nhi'],
  ['Chu-ru', 'Chu Ru'],
  ['Lào', 'Lao'],
  ['La Chí', 'La Chi'],
  ['La Ha', 'La Ha'],
  ['Phù Lá', 'Phu La'],
  ['La Hủ', 'La Hu'],
  ['Lự', 'Lu'],
  ['Lô Lô', 'Lo Lo'],
  ['Chứt', 'Chut'],
  ['Mảng', 'Mang'],
  ['Pà Thẻn', 'Pa Then'],
  ['Cơ Lao', 'Co Lao'],
  ['Cống', 'Cong'],
  ['Bố Y', 'Bo Y'],
  ['Si La', 'Si La'],
  ['Pu Péo', 'Pu Peo'],
  ['Brâu', 'Brau'],
  ['Ơ Đu', 'O Du'],
  ['Rơ-măm', 'Ro Mam'],
];

export const ETHNICITIES: readonly Ethnicity[] = NAMES.map(([vi, en, aliases], i) => ({
  code: String(i + 1).padStart(2, '0'),
  vi,
  en,
  ...(aliases ? { aliases } : {}),
}));
export const ETHNICITY_CODES = ETHNICITIES.map((e) => e.code) as [string, ...string[]];

export const ethnicityName = (code: string | null | undefined, lang: 'vi' | 'en' = 'vi'): string => {
  const e = ETHNICITIES.find((x) => x.code === code);
  return e ? e[lang] : '';
};

/** A stored day as Vietnamese write it ("2004-02-01" → "01/02/2004"); '' for none. */
export const formatDay = (d: string | null | undefined): string => (d ? d.split('-').reverse().join('/') : '');

/** Limits shared by the form inputs and the schema. */
export const RELIGION_MAX = 100;
export const HOMETOWN_MAX = 200;
/** Nobody on the rolls was born before this day. */
export const BIRTH_MIN = '1900-01-01';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Is "YYYY-MM-DD" a real calendar day (no 31 February)? */
export function isCalendarDay(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

/** Today in Việt Nam (UTC+7), as YYYY-MM-DD: what "in the past" is measured against. */
export function todayVn(now = Date.now()): string {
  return new Date(now + 7 * 3600_000).toISOString().slice(0, 10);
}

/**
 * Optional: '' or null is "none" (null clears the field on update). '' becomes null before the
 * inner rule runs, so a bad value gets the inner rule's own message (a union answered zod's bare
 * "Invalid input", which the import showed untranslated).
 */
function optional<T extends z.ZodType>(inner: T) {
  return z.preprocess((v) => (v === '' ? null : v), inner.nullable().optional());
}

function dayField(key: string) {
  return optional(
    z
      .string({ error: key })
      .trim()
      .refine(isCalendarDay, { error: key, abort: true })
      .refine((v) => v >= BIRTH_MIN, { error: key, abort: true })
      .refine((v) => v <= todayVn(), { error: 'validation.dayInFuture' }),
  );
}

function textField(max: number) {
  return optional(z.string({ error: 'validation.invalidValue' }).overwrite(cleanLine).trim().max(max, 'validation.textTooLong')).transform(
    (v) => (v === '' ? null : v),
  );
}

/** The member-record fields of the users form, the import and PATCH /users/:id. */
export const memberRecordFields = {
  dateOfBirth: dayField('validation.dayInvalid'),
  gender: optional(z.enum(GENDERS, { error: 'validation.genderInvalid' })),
  ethnicity: optional(z.enum(ETHNICITY_CODES, { error: 'validation.ethnicityInvalid' })),
  religion: textField(RELIGION_MAX),
  doanJoinedAt: dayField('validation.dayInvalid'),
  hoiJoinedAt: dayField('validation.dayInvalid'),
  partyJoinedAt: dayField('validation.dayInvalid'),
  hometown: textField(HOMETOWN_MAX),
};

export const JOINING_DATE_FIELDS = ['doanJoinedAt', 'hoiJoinedAt', 'partyJoinedAt'] as const;

export interface MemberDates {
  dateOfBirth?: string | null;
  doanJoinedAt?: string | null;
  hoiJoinedAt?: string | null;
  partyJoinedAt?: string | null;
}

/**
 * The rule across fields: a day of joining comes after the day of birth. Checked on the record as it
 * will be (an edit's new values over the stored ones), so it holds whichever field changed.
 */
export function memberDateIssues(r: MemberDates): { path: (typeof JOINING_DATE_FIELDS)[number]; key: string }[] {
  if (!r.dateOfBirth) return [];
  return JOINING_DATE_FIELDS.filter((k) => r[k] && r[k]! <= r.dateOfBirth!).map((path) => ({ path, key: 'validation.joinedBeforeBirth' }));
}

/** The record as the API answers it (null: not known). */
export const memberRecordSchema = z.object({
  dateOfBirth: z.string().nullable(),
  gender: z.enum(GENDERS).nullable(),
  ethnicity: z.string().nullable(),
  religion: z.string().nullable(),
  doanJoinedAt: z.string().nullable(),
  hoiJoinedAt: z.string().nullable(),
  partyJoinedAt: z.string().nullable(),
  hometown: z.string().nullable(),
});
export type MemberRecord = z.infer<typeof memberRecordSchema>;

/** What a member may change on their own record (docs/decisions.md): the rest is the office's. */
export const MEMBER_EDITABLE_RECORD_FIELDS = ['religion', 'hometown'] as const;
