/** Streams an xlsx to the HTTP response with exceljs's streaming writer, so memory stays flat. */
import { slugify, type ExportField } from '@doanhoi/shared';
import ExcelJS from 'exceljs';
import { PassThrough, Readable } from 'node:stream';
import { badRequest } from './errors';
import { guardCell } from './formula-guard';

export type Cell = string | number | Date | null;

const PLAIN: Partial<ExcelJS.Style> = {};

/** The longest stretch of row serialisation before other requests get the loop back. */
const SLICE_MS = 15;
/** Rows per database page of an export: one page's read and mapping stays a few milliseconds. */
export const EXPORT_PAGE = 250;

/** Keeps only known fields, in the catalogue's order (the export dialog's groups); unknown names → 400. */
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

export function xlsxResponseHeaders(fileName: string): Record<string, string> {
  return {
    'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'content-disposition': `attachment; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
  };
}

/**
 * Writes rows produced by `pages` (an async generator of row batches) into one worksheet and
 * returns a streaming Response. Dates are Excel dates shown dd/mm/yyyy; amounts use a VND format.
 * Between batches it waits while the client is behind, and stops if the client went away.
 */
export function streamXlsx(
  fileName: string,
  sheetName: string,
  fields: ExportField[],
  pages: () => AsyncGenerator<Record<string, Cell>[]>,
): Response {
  const out = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(sheetName);
  ws.columns = fields.map((f) => ({ header: f.header, key: f.key, width: Math.max(14, f.header.length + 4) }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  const formats = fields.map((f) => (/(Date|At)$/.test(f.key) ? 'dd/mm/yyyy' : /amount/i.test(f.key) ? '#,##0 "₫"' : null));
  // One style object per column, shared by its cells: exceljs remembers a style object it has seen
  // (a WeakMap), while a fresh object per cell is rendered to XML and looked up again (a third of the export).
  const styled = formats.map((numFmt) => (numFmt ? { numFmt } : PLAIN));
  void (async () => {
    try {
      for await (const batch of pages()) {
        if (out.destroyed) return;
        let slice = performance.now();
        for (const rec of batch) {
          // Formula-looking text gets its apostrophe here, for every export that streams (lib/formula-guard.ts).
          const row = ws.addRow(fields.map((f) => guardCell(rec[f.key] ?? null)));
          for (let i = 0; i < fields.length; i++) row.getCell(i + 1).style = rec[fields[i]!.key] != null ? styled[i]! : PLAIN;
          row.commit();
          // Serialising rows is the export's CPU work: hand the loop back every SLICE_MS (issue 12).
          if (performance.now() - slice > SLICE_MS) {
            await catchUp(ws, out);
            if (out.destroyed) return;
            slice = performance.now();
          }
        }
        await catchUp(ws, out);
      }
      ws.commit();
      await wb.commit();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return new Response(Readable.toWeb(out) as ReadableStream, { headers: xlsxResponseHeaders(fileName) });
}

type Sink = { destroyed?: boolean; writableNeedDrain?: boolean; _writableState?: { needDrain?: boolean } } & NodeJS.EventEmitter;

/** Node streams say writableNeedDrain; the readable-stream copy inside archiver only keeps the state. */
const behind = (s: Sink) => !s.destroyed && (s.writableNeedDrain ?? s._writableState?.needDrain ?? false);

/**
 * exceljs's worksheet stream hands its chunks to the zip without backpressure, so rows written
 * faster than deflate (or the client) can take them pile up in memory (≈ 60 MB for 100k rows).
 * Wait while the zip's input or our output is behind; always yield once so other requests run.
 */
async function catchUp(ws: unknown, out: PassThrough) {
  const zipInput = (ws as { stream?: { pipes?: Sink[] } }).stream?.pipes?.[0];
  for (const s of [zipInput, out as Sink]) {
    while (s && !out.destroyed && behind(s)) await drainOrClose(s, out);
  }
  await new Promise((r) => setImmediate(r));
}

function drainOrClose(s: Sink, out: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      s.off('drain', done);
      out.off('close', done);
      resolve();
    };
    s.on('drain', done);
    out.on('close', done);
  });
}

/** Excel has no time zones: shift instants so the cell shows the Vietnam calendar date. */
export function vnDate(d: Date | null | undefined): Date | null {
  if (!d) return null;
  return new Date(d.getTime() + 7 * 3600_000);
}
