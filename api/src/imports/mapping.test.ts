/** Column mapping suggestions (issue 15 part 5): accent-, case- and punctuation-insensitive, one header per column. */
import { CLASS_IMPORT_COLUMNS, DEPARTMENT_IMPORT_COLUMNS, USER_IMPORT_COLUMNS } from '@doanhoi/shared';
import { describe, expect, it } from 'vitest';
import { mappingResolver, needsMapping, similarity, suggestMapping } from './mapping';

describe('similarity', () => {
  it('ignores accents, case, punctuation and the template’s required star', () => {
    expect(similarity('Số điện thoại', 'SO DIEN THOAI')).toBe(1);
    expect(similarity('Email', 'e-mail')).toBeGreaterThan(0.6);
    expect(similarity('Mã số*', 'ma so')).toBe(1);
    expect(similarity('Tên lớp', 'Năm')).toBeLessThan(0.6);
  });
});

describe('suggestMapping', () => {
  it('maps a differently titled users file to our columns, each header once', () => {
    const headers = ['STT', 'Mã số SV', 'Họ và tên đệm', 'Tên', 'E-mail', 'Điện thoại', 'Lớp học'];
    const { suggestion } = suggestMapping(USER_IMPORT_COLUMNS, headers);
    expect(suggestion).toMatchObject({
      code: 'Mã số SV',
      familyName: 'Họ và tên đệm',
      givenName: 'Tên',
      email: 'E-mail',
      phone: 'Điện thoại',
      className: 'Lớp học',
    });
    expect(suggestion.password).toBeNull();
    const used = Object.values(suggestion).filter(Boolean);
    expect(new Set(used).size).toBe(used.length);
  });

  it('prefers the user’s remembered choice when that header is in the file', () => {
    const { suggestion, remembered } = suggestMapping(DEPARTMENT_IMPORT_COLUMNS, ['Đơn vị', 'Ký hiệu', 'Ghi chú'], {
      name: 'Đơn vị',
      code: 'Ký hiệu',
      description: 'ghi chu',
    });
    expect(suggestion).toEqual({ name: 'Đơn vị', code: 'Ký hiệu', description: 'Ghi chú' });
    expect(remembered).toEqual(['name', 'code', 'description']);
  });

  it('leaves a column empty when nothing in the file is close', () => {
    expect(suggestMapping(CLASS_IMPORT_COLUMNS, ['Sĩ số']).suggestion).toEqual({
      name: null,
      code: null,
      year: null,
      departmentCode: null,
    });
  });
});

describe('needsMapping', () => {
  it('is false for the template’s own headers and true when a required column is missing', () => {
    expect(needsMapping(DEPARTMENT_IMPORT_COLUMNS, ['Tên khoa/phòng ban*', 'Mã', 'Mô tả'])).toBe(false);
    expect(needsMapping(DEPARTMENT_IMPORT_COLUMNS, ['Đơn vị', 'Mã'])).toBe(true);
    // An unknown column while one of ours is absent: perhaps it is that one.
    expect(needsMapping(DEPARTMENT_IMPORT_COLUMNS, ['Tên khoa/phòng ban', 'Ký hiệu'])).toBe(true);
  });
});

describe('mappingResolver', () => {
  it('reads mapped headers as our columns and keeps the template’s names for the others', () => {
    const resolve = mappingResolver(DEPARTMENT_IMPORT_COLUMNS, { name: 'Đơn vị' }, 'vi');
    expect(resolve('don vi')).toBe('name');
    expect(resolve('Mã')).toBe('code');
    expect(resolve('Tên khoa/phòng ban')).toBeUndefined();
  });

  it('refuses an unknown column and a header used twice, in the caller’s language', () => {
    expect(() => mappingResolver(DEPARTMENT_IMPORT_COLUMNS, { nope: 'A' }, 'en')).toThrow('Column not in the template: nope');
    expect(() => mappingResolver(DEPARTMENT_IMPORT_COLUMNS, { name: 'A', code: 'a' }, 'vi')).toThrow(
      'Một cột của file được ghép cho hai cột',
    );
  });
});
