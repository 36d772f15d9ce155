/** Streams an xlsx to the HTTP response with exceljs's streaming writer, so memory stays flat. */
import { slugify, type ExportField } from '@doanhoi/shared';
import ExcelJS from 'exceljs';
import { PassThrough, Readable } from 'node:stream';
import { badRequest } from '../lib/errors';
import { xlsxResponseHeaders } from '../imports/template';

export type Cell = string | number | Date | null;

/** Keeps only known fields, in the catalogue's order; unknown names → 400. */
export function pickFields(catalogue: readonly ExportField[], requested: string[]): ExportField[] {
  const unknown = requested.filter((f) => !catalogue.some((c) => c.key === f));
  if (unknown.length) badRequest(`Trường không hợp lệ: ${unknown.join(', ')}`);
  return catalogue.filter((c) => requested.includes(c.key));
}

/** prefix_accent-stripped-name_YYYY-MM-DD.xlsx (Vietnam date). */
export function exportFileName(prefix: string, name: string, now = new Date()): string {
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Ho_Chi_Minh' }).format(now);
  return `${prefix}_${slugify(name) || 'du-lieu'}_${date}.xlsx`;
}

/**
 * Writes rows produced by `pages` (an async generator of row batches) into one worksheet and
 * returns a streaming Response. Dates are written as Excel dates in dd/mm/yyyy.
 */
export function streamXlsx(fileName: string, sheetName: string, fields: ExportField[], pages: () => AsyncGenerator<Record<string, Cell>[]>): Response {
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(sheetName);
  ws.columns = fields.map((f) => ({ header: f.header, key: f.key, width: Math.max(14, f.header.length + 4) }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  (async () => {
    try {
      for await (const batch of pages()) {
        for (const rec of batch) {
          const row = ws.addRow(fields.map((f) => rec[f.key] ?? null));
          fields.forEach((f, i) => {
            const v = rec[f.key];
            if (v instanceof Date) row.getCell(i + 1).numFmt = 'dd/mm/yyyy';
            else if (typeof v === 'number' && /amount/i.test(f.key)) row.getCell(i + 1).numFmt = '#,##0 "₫"';
          });
          row.commit();
        }
        await new Promise((r) => setImmediate(r));
      }
      ws.commit();
      await wb.commit();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return new Response(Readable.toWeb(out) as ReadableStream, { headers: xlsxResponseHeaders(fileName) });
}

/** Excel has no time zones: shift instants so the cell shows the Vietnam calendar date. */
export function vnDate(d: Date | null | undefined): Date | null {
  if (!d) return null;
  return new Date(d.getTime() + 7 * 3600_000);
}
