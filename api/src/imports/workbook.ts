/** Reading uploaded spreadsheets with exceljs's streaming reader, and turning rows into records. */
import { cleanLine, normalizeText, type ImportColumn } from '@doanhoi/shared';
import ExcelJS from 'exceljs';
import { Readable, Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { HTTPException } from 'hono/http-exception';
import { badRequest, fail } from '../lib/errors';
import { unguardCell } from '../lib/formula-guard';
import { logger } from '../lib/logger';
import { columnLetters, textBudget } from './cell-limits';
import { applyFullName, providedKeys, synonymKey } from './synonyms';
import { assertZipWithinLimit } from './zip-guard';

const ZIP_MAGIC = [0x50, 0x4b];
/** OLE compound file: an encrypted (password-protected) .xlsx or a legacy .xls. */
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0];

function startsWith(buf: Uint8Array, magic: number[]) {
  return magic.every((b, i) => buf[i] === b);
}

/** Text decoded across chunk boundaries, so a multi-byte character split between two chunks survives. */
async function* utf8Text(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  for await (const c of chunks) {
    const s = typeof c === 'string' ? c : decoder.write(c);
    if (s) yield s;
  }
  const tail = decoder.end();
  if (tail) yield tail;
}

function utf8Stream(entry: NodeJS.ReadableStream): Transform {
  const decoder = new StringDecoder('utf8');
  return entry.pipe(
    new Transform({
      readableObjectMode: true,
      transform(chunk: Buffer, _enc, done) {
        const s = decoder.write(chunk);
        done(null, s || undefined);
      },
      flush(done) {
        done(null, decoder.end() || undefined);
      },
    }),
  );
}

interface ReaderInternals {
  _parseWorksheet(iterator: AsyncIterable<Buffer | string>, sheetNo: string): Generator<unknown>;
  _parseSharedStrings(entry: NodeJS.ReadableStream): AsyncGenerator<unknown>;
}
const base = ExcelJS.stream.xlsx.WorkbookReader.prototype as unknown as ReaderInternals;
if (typeof base._parseWorksheet !== 'function' || typeof base._parseSharedStrings !== 'function') {
  throw new Error('exceljs WorkbookReader internals changed: review Utf8WorkbookReader in imports/workbook.ts');
}

/**
 * exceljs 4.4's streaming reader decodes every chunk of a zip entry on its own, so a Vietnamese
 * character whose UTF-8 bytes straddle a chunk boundary turns into "���" ("Nguyễn" → "Nguy���n",
 * at random rows). This reader hands it the worksheet and shared strings as text decoded across
 * chunks instead (exceljs passes strings through untouched).
 */
class Utf8WorkbookReader extends ExcelJS.stream.xlsx.WorkbookReader {
  _parseWorksheet(iterator: AsyncIterable<Buffer | string>, sheetNo: string) {
    return base._parseWorksheet.call(this, utf8Text(iterator), sheetNo);
  }

  _parseSharedStrings(entry: NodeJS.ReadableStream) {
    return base._parseSharedStrings.call(this, utf8Stream(entry));
  }
}

/** Plain text of a cell value (rich text, hyperlinks, formulas and dates included). */
export function cellText(v: ExcelJS.CellValue): string {
  if (v == null) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('richText' in v)
      return v.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if ('text' in v) return cellText(v.text as ExcelJS.CellValue);
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    if ('error' in v) return '';
    return '';
  }
  return String(v).trim();
}

export interface SheetLimits {
  /** Data rows accepted from one file; reading stops at the first row past it. */
  maxRows: number;
  /** Bytes all entries of the zip may inflate to. */
  maxUnzippedBytes: number;
  /** Characters all cells kept may hold, counted as read (shared strings expanded): cell-limits.ts. */
  maxTextChars?: number;
}

export const DEFAULT_SHEET_LIMITS: SheetLimits = { maxRows: 50_000, maxUnzippedBytes: 100 * 1024 * 1024, maxTextChars: 20_000_000 };

export function tooManyRowsMessage(maxRows: number) {
  return `File có quá nhiều dòng: tối đa ${maxRows.toLocaleString('vi-VN')} dòng dữ liệu mỗi lần nhập. Vui lòng chia nhỏ file`;
}

export interface ParsedSheet {
  /** Records keyed by column key, with the spreadsheet row number. */
  rows: { rowNumber: number; values: Record<string, string> }[];
  unknownHeaders: string[];
}

/**
 * Reads the first worksheet: its first non-empty row is the header, matched to the columns by
 * key or Vietnamese header (accent- and case-insensitive, a trailing '*' ignored).
 */
export async function readSheet(
  buffer: Uint8Array,
  fileName: string,
  columns: readonly ImportColumn[],
  limits: SheetLimits = DEFAULT_SHEET_LIMITS,
  /** A column mapping's header → key (mapping.ts); by default the template's names and aliases. */
  resolve?: (header: string) => string | undefined,
): Promise<ParsedSheet> {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.xls')) {
    badRequest('Định dạng .xls (Excel 97-2003) chưa được hỗ trợ. Vui lòng mở file và lưu lại dưới dạng .xlsx');
  }
  if (startsWith(buffer, OLE_MAGIC))
    badRequest('File được bảo vệ bằng mật khẩu hoặc không phải định dạng .xlsx. Vui lòng bỏ mật khẩu và lưu lại dưới dạng .xlsx');
  if (!startsWith(buffer, ZIP_MAGIC)) badRequest('File bị hỏng hoặc không phải file Excel (.xlsx)');
  await assertZipWithinLimit(buffer, limits.maxUnzippedBytes);

  const alias = new Map<string, string>();
  // Keys and headers first, so an alias never shadows another column's own name.
  for (const c of columns) {
    alias.set(normalizeText(c.key), c.key);
    alias.set(normalizeText(c.header), c.key);
  }
  for (const c of columns) for (const a of c.aliases ?? []) if (!alias.has(normalizeText(a))) alias.set(normalizeText(a), c.key);
  const rows: ParsedSheet['rows'] = [];
  let header: (string | null)[] | null = null;
  /** [cell index, column key, the file's header] of the recognised header cells: a row is read through these only. */
  const keyed: [number, string, string][] = [];
  let count = textBudget(limits.maxTextChars ?? DEFAULT_SHEET_LIMITS.maxTextChars!);
  let sawSheet = false;
  const unknownHeaders: string[] = [];
  /** One row of the first worksheet, in order: the first non-empty one is the header. */
  const onRow = (rowNumber: number, cells: ExcelJS.CellValue[]) => {
    const values = cells.map(cellText);
    if (!header) {
      if (values.every((v) => !v)) return;
      const taken = new Set<string>();
      header = values.map((h) => {
        if (!h) return null;
        const key = resolve ? resolve(h) : (alias.get(normalizeText(h.replace(/\*+$/, ''))) ?? synonymKey(columns, h));
        // A second column for the same field (e.g. both "Lớp" and "Mã lớp") is ignored, not merged.
        if (!key || taken.has(key)) {
          unknownHeaders.push(h);
          return null;
        }
        taken.add(key);
        return key;
      });
      header.forEach((key, i) => key && keyed.push([i, key, values[i]!]));
      return;
    }
    if (values.every((v) => !v)) return;
    if (rows.length >= limits.maxRows) fail(413, tooManyRowsMessage(limits.maxRows));
    const rec: Record<string, string> = {};
    for (const [i, key, head] of keyed) {
      const text = values[i] ?? '';
      count(text, key, `${columnLetters(i)}${rowNumber}`, head);
      // Our own exports prefix formula-looking text (lib/formula-guard.ts): taken back off, so they re-import as they were.
      const plain = unguardCell(text);
      // The shared text rule, as forms and the API apply it; a password is taken as typed.
      rec[key] = key === 'password' ? plain : cleanLine(plain).trim();
    }
    applyFullName(rec);
    rows.push({ rowNumber, values: rec });
  };
  try {
    const reader = new Utf8WorkbookReader(Readable.from(Buffer.from(buffer)), {
      sharedStrings: 'cache',
      hyperlinks: 'cache',
      styles: 'ignore',
      worksheets: 'emit',
      entries: 'emit',
    });
    for await (const sheet of reader) {
      sawSheet = true;
      for await (const row of sheet) onRow(row.number, row.values as ExcelJS.CellValue[]);
      break; // only the first worksheet
    }
  } catch (err) {
    if (err instanceof HTTPException) throw err;
    // exceljs's streaming reader needs xl/workbook.xml before the sheets in the zip; a valid file may
    // store them the other way round (exceljs itself sometimes does: the rare 400 of full test runs).
    // Such a file is read whole instead; the zip guard above has already capped its size.
    logger.warn({ err, fileName, bytes: buffer.byteLength }, 'xlsx streaming read failed, reading it whole');
    rows.length = 0;
    header = null;
    keyed.length = 0;
    unknownHeaders.length = 0;
    count = textBudget(limits.maxTextChars ?? DEFAULT_SHEET_LIMITS.maxTextChars!);
    await readWhole(buffer, (sheet) => {
      sawSheet = true;
      sheet.eachRow((row, n) => onRow(n, row.values as ExcelJS.CellValue[]));
    });
  }
  if (!sawSheet) badRequest('File bị hỏng hoặc không phải file Excel (.xlsx): không có trang tính nào');
  if (!header) badRequest('File không có dữ liệu: trang tính đầu tiên trống');
  const present = providedKeys(header!);
  const missing = columns.filter((c) => c.required && !present.has(c.key)).map((c) => `${c.header} (${c.key})`);
  if (missing.length) badRequest(`Thiếu cột bắt buộc: ${missing.join(', ')}`);
  if (rows.length === 0) badRequest('File không có dòng dữ liệu nào');
  return { rows, unknownHeaders };
}

/** The whole-file reader, for zips the streaming reader cannot take (above). */
async function readWhole(buffer: Uint8Array, first: (sheet: ExcelJS.Worksheet) => void): Promise<void> {
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(Buffer.from(buffer) as unknown as ArrayBuffer);
  } catch {
    badRequest('Không đọc được file Excel: file bị hỏng hoặc không đúng định dạng .xlsx');
  }
  const sheet = book.worksheets[0];
  if (sheet) first(sheet);
}
