import { IMPORT_MAX_BYTES } from '@doanhoi/shared';

export type Refusal = { kind: 'xls' } | { kind: 'size'; size: number } | { kind: 'type' };

/**
 * What the browser refuses before sending anything (issue 26 item 6): an .xls (exceljs reads only
 * .xlsx; docs/decisions.md), a file over the API's own limit (IMPORT_MAX_BYTES), or another type.
 */
export function refusalOf(file: Pick<File, 'name' | 'size'>): Refusal | null {
  const name = file.name.toLowerCase();
  if (name.endsWith('.xls')) return { kind: 'xls' };
  if (!name.endsWith('.xlsx')) return { kind: 'type' };
  if (file.size > IMPORT_MAX_BYTES) return { kind: 'size', size: file.size };
  return null;
}
