/**
 * Spreadsheet formula injection (OWASP "CSV Injection"): a name such as `=HYPERLINK(…)` written as
 * text stays inert in the xlsx, but turns live once the cell is edited or the sheet goes through
 * CSV. Every xlsx the app writes passes its cells through guardCell: text starting with
 * = + - @, a tab or a carriage return gets a leading apostrophe. Numbers and dates are left alone
 * (a negative amount stays a number).
 *
 * The import reader takes that apostrophe back off (unguardCell), so a file we exported re-imports
 * with its values unchanged. Excel keeps a typed leading apostrophe out of the cell's text, so an
 * apostrophe followed by one of those characters comes from our exports (docs/decisions.md).
 */
const TRIGGER = /^[=+\-@\t\r]/;
const GUARDED = /^'[=+\-@\t\r]/;

export function guardCell<T>(value: T): T | string {
  return typeof value === 'string' && TRIGGER.test(value) ? `'${value}` : value;
}

export function unguardCell(text: string): string {
  return GUARDED.test(text) ? text.slice(1) : text;
}

/** A row given as a record (exceljs's addRow by column key), every cell guarded. */
export function guardRow<V>(row: Record<string, V>): Record<string, V | string> {
  const out: Record<string, V | string> = {};
  for (const k in row) out[k] = guardCell(row[k]!);
  return out;
}
