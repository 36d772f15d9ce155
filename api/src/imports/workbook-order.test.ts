/**
 * A valid .xlsx whose sheets come before xl/workbook.xml but after the shared strings in the zip (exceljs
 * itself sometimes writes them so): exceljs's streaming reader crashed on it ("reading 'sheets'") and
 * the upload was refused as a broken file, the rare 400 of full test runs.
 */
import { USER_IMPORT_COLUMNS } from '@doanhoi/shared';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { expect, it } from 'vitest';
import { readSheet } from './workbook';

async function sheetsFirst(): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Danh sách');
  ws.addRow(['Mã số', 'Họ', 'Tên', 'Email']);
  ws.addRow(['SV001', 'Nguyễn Văn', 'An', 'an@sv.vn']);
  ws.addRow(['SV002', 'Trần Thị', 'Bình', 'binh@sv.vn']);
  const zip = await JSZip.loadAsync(await wb.xlsx.writeBuffer());
  const names = Object.keys(zip.files).filter((n) => !zip.files[n]!.dir);
  // The order that broke the reader: the workbook's relations and shared strings, then the sheets, and
  // xl/workbook.xml last (the sheets are then parsed at once, before the workbook that names them).
  const sheet = (n: string) => n.startsWith('xl/worksheets/');
  const order = [...names.filter((n) => !sheet(n) && n !== 'xl/workbook.xml'), ...names.filter(sheet), 'xl/workbook.xml'];
  const out = new JSZip();
  for (const n of order) out.file(n, await zip.files[n]!.async('uint8array'));
  const bytes = await out.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
  expect(Object.keys((await JSZip.loadAsync(bytes)).files).indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(
    Object.keys((await JSZip.loadAsync(bytes)).files).indexOf('xl/workbook.xml'),
  );
  return bytes;
}

it('reads a workbook whose sheets come before xl/workbook.xml in the zip, row for row (was a 400)', async () => {
  const parsed = await readSheet(await sheetsFirst(), 'thu-tu.xlsx', USER_IMPORT_COLUMNS);
  expect(parsed.rows.map((r) => [r.rowNumber, r.values.code, r.values.familyName, r.values.givenName, r.values.email])).toEqual([
    [2, 'SV001', 'Nguyễn Văn', 'An', 'an@sv.vn'],
    [3, 'SV002', 'Trần Thị', 'Bình', 'binh@sv.vn'],
  ]);
});
