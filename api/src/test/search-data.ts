/**
 * Random Vietnamese users and searches for PostgreSQL's search tests (db/pg/search.test.ts, the
 * FTS5 comparison, and db/pg/search-cost.test.ts, the measurement). Seeded, so a failing seed can
 * be replayed (SEARCH_SEED).
 */

export type Random = () => number;

/** mulberry32: small, fast and good enough to draw test data from a seed. */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FAMILY = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Huỳnh', 'Phan', 'Vũ', 'Võ', 'Đặng', 'Bùi', 'Đỗ', 'Hồ', 'Ngô', 'Dương', 'Lý'];
const MIDDLE = [
  'Văn',
  'Thị',
  'Hữu',
  'Đức',
  'Minh',
  'Ngọc',
  'Thanh',
  'Quốc',
  'Xuân',
  'Thuỳ',
  'Thùy',
  'Kim',
  'Gia',
  'Bảo',
  'Hoài',
  'Đình',
  '',
];
const GIVEN = [
  'An',
  'Anh',
  'Ánh',
  'Bình',
  'Châu',
  'Cường',
  'Dũng',
  'Dương',
  'Đạt',
  'Đông',
  'Giang',
  'Hà',
  'Hải',
  'Hạnh',
  'Hiếu',
  'Hoa',
  'Huy',
  'Hương',
  'Khánh',
  'Khoa',
  'Lan',
  'Linh',
  'Long',
  'Mai',
  'Minh',
  'My',
  'Nam',
  'Nga',
  'Nghĩa',
  'Ngọc',
  'Nhung',
  'Phúc',
  'Phương',
  'Quân',
  'Quyết',
  'Sơn',
  'Tâm',
  'Thảo',
  'Thắng',
  'Thuỷ',
  'Trang',
  'Trung',
  'Tú',
  'Tuấn',
  'Uyên',
  'Việt',
  'Vy',
  'Xuân',
  'Yến',
  'Nghiêng',
  'Đào',
  'Ý',
];
const DOMAINS = ['hcmus.edu.vn', 'student.hust.edu.vn', 'gmail.com', 'ueh.edu.vn', 'st.vnu.edu.vn'];
const PUNCT = ['.', ',', '-', '_', '@', '/', '(', ')', '+', "'", '"', '*', ':', '–', '!', '?', '#', '&', '%'];

export interface GeneratedUser {
  id: number;
  code: string;
  familyName: string;
  givenName: string;
  email: string;
  phone: string | null;
}

const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const digits = (r: Random, n: number) => Array.from({ length: n }, () => Math.floor(r() * 10)).join('');
const ascii = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D');

function code(r: Random, i: number): string {
  switch (Math.floor(r() * 4)) {
    case 0:
      return `SV${digits(r, 3)}${i}`;
    case 1:
      return `21${digits(r, 3)}${i}`;
    case 2:
      return `${pick(r, ['66IT', 'K19', 'DH21'])}${digits(r, 1)}-${i}`;
    default:
      return `K${digits(r, 2)}.CNTT.${i}`;
  }
}

function phone(r: Random): string | null {
  switch (Math.floor(r() * 4)) {
    case 0:
      return null;
    case 1:
      return `09${digits(r, 8)}`;
    case 2:
      return `+84 ${digits(r, 3)} ${digits(r, 3)} ${digits(r, 3)}`;
    default:
      return `(028) ${digits(r, 4)} ${digits(r, 4)}`;
  }
}

export function generateUsers(r: Random, n: number): GeneratedUser[] {
  return Array.from({ length: n }, (_, k) => {
    const i = k + 1;
    const family = pick(r, FAMILY);
    const given = [pick(r, MIDDLE), r() < 0.3 ? pick(r, MIDDLE) : '', pick(r, GIVEN)].filter(Boolean).join(' ');
    // Some names typed decomposed (combining marks), as some keyboards and imports hand them over.
    const familyName = r() < 0.1 ? family.normalize('NFD') : family;
    const local = `${ascii(given.split(' ').at(-1)!).toLowerCase()}${pick(r, ['.', '_', '-', ''])}${ascii(family)[0]!.toLowerCase()}${i}`;
    return { id: i, code: code(r, i), familyName, givenName: given, email: `${local}@${pick(r, DOMAINS)}`, phone: phone(r) };
  });
}

function casing(r: Random, s: string): string {
  const c = r();
  if (c < 0.2) return s.toUpperCase();
  if (c < 0.4) return s.toLowerCase();
  return s;
}

/** A piece of a user's field as a person would type it: whole, a 1–7 letter prefix, with or without marks. */
function piece(r: Random, u: GeneratedUser): string {
  const fields = [u.familyName, ...u.givenName.split(' '), u.code, u.email, u.phone ?? u.code];
  let s = pick(r, fields);
  if (r() < 0.5) s = ascii(s);
  if (r() < 0.5) s = s.slice(0, 1 + Math.floor(r() * 7));
  return casing(r, s);
}

/** Random searches: names, prefixes, codes, e-mails, phones, several words, punctuation, đ/Đ, nonsense. */
export function generateQueries(r: Random, users: GeneratedUser[], n: number): string[] {
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const u = pick(r, users);
    const c = r();
    if (c < 0.45) {
      const count = 1 + Math.floor(r() * 3);
      out.push(Array.from({ length: count }, () => piece(r, u)).join(pick(r, [' ', '  ', ' ', ', '])));
    } else if (c < 0.55) {
      out.push(`${casing(r, u.familyName)} ${casing(r, u.givenName)}`);
    } else if (c < 0.65) {
      // Punctuation inside or around a word: "nguyen,van", "(lê)", "an."
      const p = pick(r, PUNCT);
      out.push(pick(r, [`${piece(r, u)}${p}${piece(r, u)}`, `${p}${piece(r, u)}${p}`, `${piece(r, u)}${p}`]));
    } else if (c < 0.72) {
      out.push(pick(r, ['đ', 'Đ', 'Đặng', 'đỗ', 'Đỗ Đức', 'đạt', 'ĐÔNG', 'Đào đ', 'd', 'dang', 'do duc']));
    } else if (c < 0.8) {
      out.push(u.email.slice(0, 3 + Math.floor(r() * (u.email.length - 2))));
    } else if (c < 0.86) {
      out.push((u.phone ?? u.code).slice(0, 2 + Math.floor(r() * 6)));
    } else if (c < 0.9) {
      out.push(pick(r, PUNCT) + pick(r, ['', ' ', pick(r, PUNCT)]));
    } else if (c < 0.95) {
      out.push(pick(r, ['zzz', 'qwx', 'nguyen zzz', 'thixyz', 'x1y2']));
    } else {
      out.push(
        Array.from({ length: 2 + Math.floor(r() * 9) }, () => pick(r, ['ng', 'tr', 'an', 'th', 'h', 'v', '1', '0', 'nguyen'])).join(' '),
      );
    }
  }
  return out;
}
