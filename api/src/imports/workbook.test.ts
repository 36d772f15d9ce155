/** readSheet: Vietnamese text survives the streaming reader intact, whatever the chunk boundaries. */
import { USER_IMPORT_COLUMNS } from '@doanhoi/shared';
import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { cellText, readSheet } from './workbook';

const FAMILY = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Huỳnh', 'Võ', 'Đặng', 'Bùi', 'Đỗ', 'Hồ', 'Ngô', 'Dương', 'Lý'];
const GIVEN = ['Ánh', 'Bình', 'Châu', 'Dũng', 'Giang', 'Hà', 'Hải', 'Hạnh', 'Hiếu', 'Hoa', 'Hùng', 'Lan', 'Quỳnh', 'Yến', 'Tuấn', 'Đức'];
const rows = Array.from({ length: 6000 }, (_, i) => [
  `C${i}`,
  `${FAMILY[i % FAMILY.length]} Văn Thị ${i}`,
  `${GIVEN[i % GIVEN.length]} ${'ễộ'.repeat(12)} ${i}`,
  `u${i}@sv.vn`,
]);
const header = ['Mã số', 'Họ', 'Tên', 'Email'];

function expectIntact(parsed: Awaited<ReturnType<typeof readSheet>>) {
  expect(parsed.rows).toHaveLength(rows.length);
  const bad = parsed.rows.filter((r, i) => r.values.familyName !== rows[i]![1] || r.values.givenName !== rows[i]![2]);
  expect(bad.slice(0, 3)).toEqual([]);
}

describe('readSheet', () => {
  it('keeps every multi-byte character with shared strings (as Excel writes)', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Người dùng');
    ws.addRow(header);
    for (const r of rows) ws.addRow(r);
    const buf = new Uint8Array(await wb.xlsx.writeBuffer());
    expectIntact(await readSheet(buf, 'a.xlsx', USER_IMPORT_COLUMNS));
  });

  it('keeps every multi-byte character with inline strings (as our exports write)', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
    const ws = wb.addWorksheet('Xuất');
    ws.addRow(header).commit();
    for (const r of rows) ws.addRow(r).commit();
    ws.commit();
    await wb.commit();
    expectIntact(await readSheet(new Uint8Array(Buffer.concat(chunks)), 'b.xlsx', USER_IMPORT_COLUMNS));
  });

  it('reads text out of rich text, hyperlinks, formulas and dates', () => {
    expect(cellText({ richText: [{ text: 'Nguyễn ' }, { text: 'An' }] })).toBe('Nguyễn An');
    expect(cellText({ text: 'a@b.vn', hyperlink: 'mailto:a@b.vn' })).toBe('a@b.vn');
    expect(cellText({ formula: 'A1', result: 42 })).toBe('42');
    expect(cellText(new Date('2024-05-06T00:00:00Z'))).toBe('2024-05-06');
    expect(cellText({ error: '#N/A' })).toBe('');
    expect(cellText(901234567)).toBe('901234567');
  });
});
