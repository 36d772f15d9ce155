/**
 * The English preview is English (issue 26 item 6): every column an import offers has an English
 * label for the preview's headings and row details, and a row's reason names its column with it.
 */
import { CLASS_IMPORT_COLUMNS, DEPARTMENT_IMPORT_COLUMNS, memberImportColumns, USER_IMPORT_COLUMNS } from '@doanhoi/shared';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { columnMessage } from './row-rules';

const en = JSON.parse(readFileSync(resolve(__dirname, '../../../data/locales/en/imports.json'), 'utf8')) as {
  columns: Record<string, string>;
};
const ALL = [...USER_IMPORT_COLUMNS, ...DEPARTMENT_IMPORT_COLUMNS, ...CLASS_IMPORT_COLUMNS, ...memberImportColumns(2)];

describe('import column labels', () => {
  it('every column of every import has an English label', () => {
    expect(ALL.filter((c) => !en.columns[c.key]).map((c) => `${c.key} (${c.header})`)).toEqual([]);
  });

  it('names the column in the reader’s language', () => {
    const birth = USER_IMPORT_COLUMNS.find((c) => c.key === 'dateOfBirth')!;
    expect(columnMessage('validation.invalidDate', birth, 'en')).toMatch(/\(column Date of birth\)$/);
    expect(columnMessage('validation.invalidDate', birth, 'vi')).toMatch(/\(cột Ngày sinh\)$/);
  });
});
