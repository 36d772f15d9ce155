/** Import templates: header row, one example row, column notes and dropdowns for enumerations. */
import type { ImportColumn } from '@doanhoi/shared';
import ExcelJS from 'exceljs';

const TEMPLATE_ROWS = 1000;
/** Excel refuses an inline list longer than 255 characters: longer ones (the 54 ethnic groups) are read from a hidden sheet. */
const INLINE_LIST_MAX = 255;

export async function buildTemplate(sheetName: string, columns: readonly ImportColumn[]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Doan Hoi Admin';
  const ws = wb.addWorksheet(sheetName);
  ws.columns = columns.map((c) => ({
    header: c.required ? `${c.header}*` : c.header,
    key: c.key,
    width: Math.max(14, c.header.length + 6),
  }));
  const head = ws.getRow(1);
  head.font = { bold: true, color: { argb: 'FFFFFFFF' } };
  head.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1677FF' } };
  columns.forEach((c, i) => {
    head.getCell(i + 1).note = `${c.key}${c.required ? ' (bắt buộc)' : ''}: ${c.note}`;
  });
  ws.addRow(Object.fromEntries(columns.map((c) => [c.key, c.example])));
  let lists: ExcelJS.Worksheet | undefined;
  columns.forEach((c, i) => {
    if (!c.values) return;
    const col = ws.getColumn(i + 1).letter;
    let formula = `"${c.values.join(',')}"`;
    if (formula.length > INLINE_LIST_MAX) {
      lists ??= wb.addWorksheet('Danh mục', { state: 'veryHidden' });
      const at = lists.getColumn(i + 1);
      c.values.forEach((v, r) => (lists!.getCell(r + 1, i + 1).value = v));
      formula = `'Danh mục'!$${at.letter}$1:$${at.letter}$${c.values.length}`;
    }
    for (let r = 2; r <= TEMPLATE_ROWS; r++) {
      ws.getCell(`${col}${r}`).dataValidation = {
        type: 'list',
        allowBlank: !c.required,
        formulae: [formula],
        showErrorMessage: true,
        errorTitle: 'Giá trị không hợp lệ',
        error: `Chọn một trong: ${c.values.join(', ')}`,
      };
    }
  });
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  const help = wb.addWorksheet('Hướng dẫn');
  help.columns = [
    { header: 'Cột', key: 'key', width: 28 },
    { header: 'Bắt buộc', key: 'required', width: 10 },
    { header: 'Ghi chú', key: 'note', width: 80 },
  ];
  help.getRow(1).font = { bold: true };
  for (const c of columns) help.addRow({ key: `${c.header} (${c.key})`, required: c.required ? 'Có' : '', note: c.note });
  return new Uint8Array(await wb.xlsx.writeBuffer());
}
