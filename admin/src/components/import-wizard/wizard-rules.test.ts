/** The import wizard's browser-side rules (issue 26 items 1 and 6). */
import { IMPORT_MAX_BYTES, USER_IMPORT_COLUMNS } from '@doanhoi/shared';
import { describe, expect, it } from 'vitest';
import { filledColumns } from './columns';
import { refusalOf } from './refusal';

describe('refusalOf', () => {
  it('refuses .xls, other types and files over the API limit before upload; takes an .xlsx up to the limit', () => {
    expect(refusalOf({ name: 'Danh sách.XLS', size: 10 })).toEqual({ kind: 'xls' });
    expect(refusalOf({ name: 'danh-sach.csv', size: 10 })).toEqual({ kind: 'type' });
    expect(refusalOf({ name: 'lon.xlsx', size: IMPORT_MAX_BYTES + 1 })).toEqual({ kind: 'size', size: IMPORT_MAX_BYTES + 1 });
    expect(refusalOf({ name: 'vua.xlsx', size: IMPORT_MAX_BYTES })).toBeNull();
  });
});

describe('filledColumns', () => {
  it('shows the required columns, then the unit codes and the other filled ones; the password last, empty ones not at all', () => {
    const rows = [
      { data: { code: '1', familyName: 'Lê', givenName: 'An', email: 'a@b.vn', phone: '09', organizationCodes: 'CD-1', password: 'x' } },
    ];
    expect(filledColumns(USER_IMPORT_COLUMNS, rows).map((c) => c.key)).toEqual([
      'code',
      'familyName',
      'givenName',
      'email',
      'organizationCodes',
      'phone',
      'password',
    ]);
  });
});
