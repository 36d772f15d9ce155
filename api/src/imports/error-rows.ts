/**
 * "Download the rows with errors" (issue 15 part 5): the rows of a session that validation
 * refuses, in the template's columns (so the fixed file is recognised again without a mapping
 * step), with the file's row number and the reasons in two extra columns the import ignores.
 */
import ExcelJS from 'exceljs';
import type { Actor, Deps } from '../lib/context';
import { guardRow } from '../lib/formula-guard';
import { translate } from '../lib/i18n';
import type { AnyImportKind } from './kind';
import type { Lang } from './row-rules';
import { loadSession } from './session';

/** The two extra headers, in both languages: the mapping step does not count them as unknown columns. */
export const ERROR_ROW_HEADERS = (['vi', 'en'] as const).flatMap((l) => [
  translate('imports.errorRows.row', l),
  translate('imports.errorRows.errors', l),
]);

/** The xlsx and its file name. */
export async function errorRowsWorkbook(
  def: AnyImportKind,
  { db }: Deps,
  actor: Actor,
  sessionId: string,
  lang: Lang,
): Promise<{ body: Uint8Array; fileName: string; count: number }> {
  const s = await loadSession(db, sessionId, def.kind, actor.id);
  const checked = await def.check(db, s.rows, actor, s.params, lang);
  // Only the columns the file had: a column added empty would clear that field when the fixed rows update existing records.
  const had = new Set(s.rows.flatMap((r) => Object.keys(r.values)));
  const columns = def.columns(s.params).filter((c) => c.required || had.has(c.key));
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Doan Hoi Admin';
  const ws = wb.addWorksheet(def.sheetName);
  const rowHeader = translate('imports.errorRows.row', lang);
  const errorHeader = translate('imports.errorRows.errors', lang);
  ws.columns = [
    ...columns.map((c) => ({ header: c.required ? `${c.header}*` : c.header, key: c.key, width: Math.max(14, c.header.length + 6) })),
    { header: rowHeader, key: '__row', width: 10 },
    { header: errorHeader, key: '__errors', width: 70 },
  ];
  const head = ws.getRow(1);
  head.font = { bold: true };
  const errorCell = head.getCell(columns.length + 2);
  errorCell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFCCC7' } };
  errorCell.note = translate('imports.errorRows.note', lang);
  const values = new Map(s.rows.map((r) => [r.rowNumber, r.values]));
  let count = 0;
  for (const r of checked) {
    if (r.errors.length === 0) continue;
    count++;
    const v = { ...(values.get(r.rowNumber) ?? {}) };
    const reasons = [...r.errors];
    // A password from the file is never sent back: the cell is left empty, and the row says so.
    if (v.password && v.password.trim() !== '' && v.password.trim() !== '-') {
      v.password = '';
      reasons.push(translate('imports.errorRows.passwordRemoved', lang));
    }
    // The file's own values, so guarded like every export (lib/formula-guard.ts); the reader takes the apostrophe back off.
    ws.addRow(
      guardRow({ ...Object.fromEntries(columns.map((c) => [c.key, v[c.key] ?? ''])), __row: r.rowNumber, __errors: reasons.join('; ') }),
    );
  }
  // Codes such as 0901234567 or 22001234 stay text when the file is edited and saved again.
  for (let i = 1; i <= columns.length; i++) ws.getColumn(i).numFmt = '@';
  ws.views = [{ state: 'frozen', ySplit: 1 }];
  const base = def
    .templateName(s.params)
    .replace(/_template\.xlsx$/, '')
    .replace(/\.xlsx$/, '');
  return { body: new Uint8Array(await wb.xlsx.writeBuffer()), fileName: `${base}_errors.xlsx`, count };
}
