import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber, formatPercent, formatVnd, fullName, normalizeText, slugify } from './index';

/** Intl separates the amount and ₫ with a no-break space; compare what a reader sees. */
const plain = (s: string) => s.replace(/\u00a0/g, ' ');

describe('formatDate — vi-VN dd/mm/yyyy in Asia/Ho_Chi_Minh', () => {
  it('pads day and month', () => {
    expect(formatDate(new Date(Date.UTC(2024, 0, 5, 3)))).toBe('05/01/2024');
    expect(formatDate('2024-11-20T08:00:00Z')).toBe('20/11/2024');
  });

  it('uses Vietnam time (UTC+7), not the machine zone', () => {
    // 17:30 UTC on 31 January is 00:30 on 1 February in Hà Nội.
    expect(formatDate('2024-01-31T17:30:00Z')).toBe('01/02/2024');
    expect(formatDate('2024-01-31T16:59:59Z')).toBe('31/01/2024');
    // New Year's Eve in UTC is already New Year in Vietnam.
    expect(formatDate(Date.UTC(2023, 11, 31, 18))).toBe('01/01/2024');
  });

  it('accepts a Date, an ISO string or epoch milliseconds', () => {
    const ms = Date.UTC(2025, 5, 15, 2);
    expect(formatDate(ms)).toBe('15/06/2025');
    expect(formatDate(new Date(ms))).toBe('15/06/2025');
    expect(formatDate(new Date(ms).toISOString())).toBe('15/06/2025');
  });

  it('gives an empty string for nothing or an invalid value', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate(undefined)).toBe('');
    expect(formatDate('')).toBe('');
    expect(formatDate('not a date')).toBe('');
    expect(formatDate(Number.NaN)).toBe('');
  });
});

describe('formatDateTime', () => {
  it('shows 24-hour time and the date in Vietnam time', () => {
    const s = formatDateTime('2024-01-31T17:30:00Z');
    expect(s).toContain('00:30');
    expect(s).toContain('01/02/2024');
    expect(formatDateTime('2024-06-01T08:05:00Z')).toContain('15:05');
    expect(formatDateTime(null)).toBe('');
  });
});

describe('formatVnd', () => {
  it('groups thousands with dots and ends with ₫', () => {
    expect(plain(formatVnd(150000))).toBe('150.000 ₫');
    expect(plain(formatVnd(1234567))).toBe('1.234.567 ₫');
    expect(plain(formatVnd(0))).toBe('0 ₫');
    expect(plain(formatVnd(500))).toBe('500 ₫');
  });

  it('has no decimals (the đồng has no subunit)', () => {
    expect(plain(formatVnd(1234.6))).toBe('1.235 ₫');
  });

  it('shows negatives with a minus sign', () => {
    expect(plain(formatVnd(-5000))).toBe('-5.000 ₫');
  });

  it('gives an empty string for nothing', () => {
    expect(formatVnd(null)).toBe('');
    expect(formatVnd(undefined)).toBe('');
    expect(formatVnd(Number.NaN)).toBe('');
  });
});

describe('normalizeText — accent-stripped search text', () => {
  it('strips Vietnamese accents and đ, lower-cases', () => {
    expect(normalizeText('Nguyễn Đức')).toBe('nguyen duc');
    expect(normalizeText('ĐOÀN THANH NIÊN')).toBe('doan thanh nien');
    expect(normalizeText('Trần Thị Hồng Nhung')).toBe('tran thi hong nhung');
    expect(normalizeText('Chi đoàn 66IT1')).toBe('chi doan 66it1');
    expect(normalizeText('ắằẳẵặ ếềểễệ ốồổỗộ ớờởỡợ ứừửữự ỳýỷỹỵ')).toBe('aaaaa eeeee ooooo ooooo uuuuu yyyyy');
  });

  it('treats precomposed and decomposed input alike', () => {
    expect(normalizeText('Nguye\u0302\u0303n')).toBe('nguyen');
    expect(normalizeText('Nguyễn'.normalize('NFD'))).toBe(normalizeText('Nguyễn'.normalize('NFC')));
  });

  it('collapses and trims white space', () => {
    expect(normalizeText('  Nguyễn \t  Văn\nAn  ')).toBe('nguyen van an');
  });

  it('gives an empty string for nothing', () => {
    expect(normalizeText(null)).toBe('');
    expect(normalizeText(undefined)).toBe('');
    expect(normalizeText('')).toBe('');
  });
});

describe('slugify — file-name part', () => {
  it('joins accent-stripped lower-case words with dashes', () => {
    expect(slugify('Danh sách Đoàn viên')).toBe('danh-sach-doan-vien');
    expect(slugify('Chi đoàn 66IT1')).toBe('chi-doan-66it1');
  });

  it('drops punctuation and leading or trailing separators', () => {
    expect(slugify('  --Liên chi Hội (Khoa CNTT) – K66!  ')).toBe('lien-chi-hoi-khoa-cntt-k66');
    expect(slugify('a/b\\c:d')).toBe('a-b-c-d');
    expect(slugify('!!!')).toBe('');
  });
});

describe('fullName', () => {
  it('is family name then given name', () => {
    expect(fullName({ familyName: 'Nguyễn Văn', givenName: 'An' })).toBe('Nguyễn Văn An');
    expect(fullName({ familyName: null, givenName: 'An' })).toBe('An');
    expect(fullName(null)).toBe('');
  });
});

describe('formatPercent and formatNumber — vi-VN unless the English admin asks en-US', () => {
  it('writes a decimal comma in Vietnamese and a point in English', () => {
    expect(formatPercent(32.6)).toBe('32,6%');
    expect(formatPercent(32.6, 'en-US')).toBe('32.6%');
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent(null)).toBe('');
    expect(formatNumber(1234)).toBe('1.234');
    expect(formatNumber(1234, 'en-US')).toBe('1,234');
  });
});
