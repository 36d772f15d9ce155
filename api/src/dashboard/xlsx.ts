/**
 * A chart's data as a small workbook (issue 15.1: "each chart downloadable as xlsx"). Built on
 * the server with the exceljs the exports already use, so no spreadsheet code reaches the admin's
 * bundle. Column titles come from data/locales/<lang>/dashboard.json (xlsx.*).
 */
import ExcelJS from 'exceljs';
import { guardRow } from '../lib/formula-guard';
import { translate } from '../lib/i18n';

export interface Sheet {
  /** dashboard.json key under xlsx.sheets */
  name: string;
  /** keys under xlsx.columns, in order */
  columns: string[];
  rows: Record<string, string | number>[];
}

export async function workbook(sheets: Sheet[], lang: 'vi' | 'en'): Promise<ArrayBuffer> {
  const wb = new ExcelJS.Workbook();
  for (const s of sheets) {
    const ws = wb.addWorksheet(translate(`dashboard.xlsx.sheets.${s.name}`, lang).slice(0, 31));
    ws.columns = s.columns.map((key) => ({
      header: translate(`dashboard.xlsx.columns.${key}`, lang),
      key,
      width: key === 'name' || key === 'campaign' ? 36 : 16,
    }));
    ws.getRow(1).font = { bold: true };
    // Organization and campaign names are typed by users: see lib/formula-guard.ts.
    for (const r of s.rows) ws.addRow(guardRow(r));
  }
  const buf = await wb.xlsx.writeBuffer();
  return buf as ArrayBuffer;
}

export function xlsxResponse(body: ArrayBuffer, name: string): Response {
  const fileName = `${name}_${new Date().toISOString().slice(0, 10)}.xlsx`;
  return new Response(body, {
    headers: {
      'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'content-disposition': `attachment; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    },
  });
}
