/**
 * One rule source (issue 14 item 5): an imported row's fields are checked by the same shared zod
 * schemas as the create forms, so a value the form refuses is refused here with the same message
 * (the `validation.*` key, translated), followed by the column it came from.
 */
import { createClassSchema, createDepartmentSchema, createUserSchema, type ImportColumn } from '@doanhoi/shared';
import { z } from 'zod';
import { translate } from '../lib/i18n';

export type Lang = 'vi' | 'en';

/**
 * "Email không hợp lệ (cột Email)": the form's reason, then the template column; in English the
 * column's English label, as the preview's headings name it (issue 26 item 6), else its header.
 */
export function columnMessage(reason: string, column: ImportColumn | undefined, lang: Lang): string {
  const text = translate(reason, lang);
  if (!column) return text;
  const key = `imports.columns.${column.key}`;
  const label = lang === 'en' ? translate(key, lang) : key;
  return `${text} (${translate('imports.column', lang)} ${label === key ? column.header : label})`;
}

/** Parses `input` with `schema`; each issue becomes a message naming the column of its field. */
export function checkFields<S extends z.ZodType>(
  schema: S,
  input: Record<string, unknown>,
  columns: readonly ImportColumn[],
  lang: Lang,
): { data: z.output<S> | null; errors: string[] } {
  const r = schema.safeParse(input);
  if (r.success) return { data: r.data, errors: [] };
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const errors = r.error.issues.map((i) => columnMessage(i.message, byKey.get(String(i.path[0] ?? '')), lang));
  return { data: null, errors: [...new Set(errors)] };
}

/**
 * The users form's fields that a file carries. Phone is optional in a file (required in the
 * form), and an empty password or "-" means the default one (the form's blank).
 */
export const userRowSchema = createUserSchema
  .pick({ code: true, familyName: true, givenName: true, email: true, password: true })
  .extend({ phone: createUserSchema.shape.phone.optional() });

export const departmentRowSchema = createDepartmentSchema.pick({ name: true, code: true, description: true });

export const classRowSchema = createClassSchema.pick({ name: true, code: true, year: true });

/** A cell as the schema's input: undefined when the column is absent or the cell empty where "absent" is meant. */
export const cell = (v: Record<string, string>, key: string): string => v[key] ?? '';
