/**
 * Officers' own headers (issue 26 item 6): the usual Vietnamese names of our columns are recognised
 * accent-, case- and punctuation-insensitively; "Họ và tên" fills both name columns; "STT" is known
 * and skipped, not a reason for the mapping step. Since issue 30 item 8 a date of birth and a gender
 * are columns of ours (the member record), read like the others.
 */
import { USER_IMPORT_COLUMNS, memberImportColumns } from '@doanhoi/shared';
import { describe, expect, it } from 'vitest';
import { exactMatches, mappingResolver, needsMapping, suggestMapping } from './mapping';
import { FULL_NAME_KEY, splitFullName } from './synonyms';
import { readSheet } from './workbook';
import { xlsx } from './fixture';

const OFFICER = ['STT', 'MSSV', 'Họ và tên', 'Ngày sinh', 'Giới tính', 'E-mail', 'SĐT', 'Lớp', 'Khoa'];

describe('header synonyms', () => {
  it.each([
    ['MSSV', 'code'],
    ['mssv', 'code'],
    ['Mã SV', 'code'],
    ['MÃ SINH VIÊN', 'code'],
    ['Mã số sinh viên', 'code'],
    ['SĐT', 'phone'],
    ['sdt', 'phone'],
    ['Số điện thoại', 'phone'],
    ['so dien thoai', 'phone'],
    ['Email', 'email'],
    ['E-mail', 'email'],
    ['e mail', 'email'],
    ['Lớp', 'className'],
    ['Khoa', 'managementDepartmentCode'],
    ['Họ và tên đệm', 'familyName'],
    ['Ngày sinh', 'dateOfBirth'],
    ['Ngày tháng năm sinh', 'dateOfBirth'],
    ['Giới tính', 'gender'],
    ['Dân tộc', 'ethnicity'],
    ['Tôn giáo', 'religion'],
    ['Ngày vào Đoàn', 'doanJoinedAt'],
    ['Ngày vào Hội', 'hoiJoinedAt'],
    ['Ngày vào Đảng', 'partyJoinedAt'],
    ['Quê quán', 'hometown'],
  ])('%s is our %s column', (header, key) => {
    expect(exactMatches(USER_IMPORT_COLUMNS, [header]).get(key)).toBe(header);
  });

  it('"Họ và tên" / "Họ tên" (any case, no accents) fills both name columns', () => {
    for (const h of ['Họ và tên', 'HỌ TÊN', 'ho va ten']) {
      const m = exactMatches(USER_IMPORT_COLUMNS, [h]);
      expect([m.get('familyName'), m.get('givenName')]).toEqual([h, h]);
    }
    expect(splitFullName('  Nguyễn   Văn An ')).toEqual({ familyName: 'Nguyễn Văn', givenName: 'An' });
    expect(splitFullName('An')).toEqual({ familyName: '', givenName: 'An' });
  });

  it('an officer’s list needs no mapping step: every column is ours or known and not stored', () => {
    expect(needsMapping(USER_IMPORT_COLUMNS, OFFICER)).toBe(false);
    const { suggestion } = suggestMapping(USER_IMPORT_COLUMNS, OFFICER);
    expect(suggestion).toMatchObject({
      code: 'MSSV',
      familyName: 'Họ và tên',
      givenName: 'Họ và tên',
      email: 'E-mail',
      phone: 'SĐT',
      className: 'Lớp',
      managementDepartmentCode: 'Khoa',
    });
    // A truly unknown column with one of ours unmatched still asks.
    expect(needsMapping(USER_IMPORT_COLUMNS, [...OFFICER, 'Cột lạ'])).toBe(true);
  });

  it('the member import takes "Mã SV" for the student code', () => {
    expect(exactMatches(memberImportColumns(3), ['Mã SV']).get('studentCode')).toBe('Mã SV');
  });

  it('a mapping that gives both name columns one header reads it as a full name', () => {
    const resolve = mappingResolver(USER_IMPORT_COLUMNS, { familyName: 'Tên đầy đủ', givenName: 'Tên đầy đủ' }, 'vi');
    expect(resolve('ten day du')).toBe(FULL_NAME_KEY);
  });

  it('reads an officer’s file: names split, the member record read, unstored columns reported as ignored', async () => {
    const buf = await xlsx(OFFICER, [[1, '22001234', 'Nguyễn Văn An', '01/02/2004', 'Nam', 'an@sv.vn', '0901234567', '22CNTT1', 'CNTT']]);
    const sheet = await readSheet(buf, 'danh-sach.xlsx', USER_IMPORT_COLUMNS);
    expect(sheet.rows[0]!.values).toEqual({
      code: '22001234',
      familyName: 'Nguyễn Văn',
      givenName: 'An',
      email: 'an@sv.vn',
      phone: '0901234567',
      className: '22CNTT1',
      managementDepartmentCode: 'CNTT',
      dateOfBirth: '01/02/2004',
      gender: 'Nam',
    });
    expect(sheet.unknownHeaders).toEqual(['STT']);
  });
});
