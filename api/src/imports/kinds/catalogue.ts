/** Departments and classes imports (000 §3 columns, §5 rules); matched to existing rows by code, else by name. */
import { CLASS_IMPORT_COLUMNS, DEPARTMENT_IMPORT_COLUMNS, hasPermission, normalizeText } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { classes } from '../../db/tables/classes';
import { departments } from '../../db/tables/departments';
import { translate } from '../../lib/i18n';
import type { CheckedRow, ImportKindDef } from '../kind';
import type { SessionRow } from '../session';
import { departmentIndex, resolveRef } from '../lookups';
import { cell, checkFields, classRowSchema, departmentRowSchema } from '../row-rules';
import { allRows, firstRow, runQuery } from '../../db/engine';

interface Existing {
  id: number;
  name: string;
  code: string | null;
}

/** Row messages in the caller's language (issue 26 item 6): data/locales/{vi,en}/imports.json rows.*. */
const rowText = (lang: 'vi' | 'en') => (key: string, params?: Record<string, string | number>) =>
  translate(`imports.rows.${key}`, lang, params);

/** Duplicate-in-file and existing-record detection shared by both catalogues. */
function matcher(existing: Existing[], lang: 'vi' | 'en') {
  const tr = rowText(lang);
  const byCode = new Map<string, number>();
  const byName = new Map<string, number>();
  for (const e of existing) {
    if (e.code) byCode.set(normalizeText(e.code), e.id);
    byName.set(normalizeText(e.name), e.id);
  }
  const seen = new Map<string, number>();
  return (rowNumber: number, name: string, code: string | null, errors: string[], warnings: string[]) => {
    const key = code ? `code:${normalizeText(code)}` : `name:${normalizeText(name)}`;
    let duplicate = false;
    if (seen.has(key)) {
      duplicate = true;
      errors.push(tr(code ? 'catalogueRepeated.code' : 'catalogueRepeated.name', { code: code ?? '', name, row: seen.get(key)! }));
    } else seen.set(key, rowNumber);
    const existingId = (code ? byCode.get(normalizeText(code)) : byName.get(normalizeText(name))) ?? null;
    if (existingId != null) warnings.push(tr(code ? 'catalogueExists.code' : 'catalogueExists.name', { code: code ?? '', name }));
    return { duplicate, existingId };
  };
}

interface DepartmentRow {
  name: string;
  code: string | null;
  description: string | null;
  present: string[];
}

export const departmentsImport: ImportKindDef<DepartmentRow> = {
  kind: 'departments',
  sheetName: 'Khoa - Phòng ban',
  templateName: () => 'departments_import_template.xlsx',
  columns: () => DEPARTMENT_IMPORT_COLUMNS,
  tables: ['departments'],
  async check(db, rows: SessionRow[], actor, _params, lang = 'vi') {
    const tr = rowText(lang);
    const match = matcher(
      await allRows(db.select({ id: departments.id, name: departments.name, code: departments.code }).from(departments)),
      lang,
    );
    // University-wide records: updating one needs a global grant, like the departments screen.
    const updateDenied = hasPermission(actor.roles, 'departments.update', null) ? undefined : tr('departmentUpdateDenied');
    return rows.map(({ rowNumber, values: v }): CheckedRow<DepartmentRow> => {
      const errors: string[] = [];
      const warnings: string[] = [];
      // The departments form's rules (shared schema).
      const f = checkFields(
        departmentRowSchema,
        { name: cell(v, 'name'), code: cell(v, 'code'), description: cell(v, 'description') },
        DEPARTMENT_IMPORT_COLUMNS,
        lang,
      );
      errors.push(...f.errors);
      const name = f.data?.name ?? (v.name ?? '').trim();
      const code = f.data ? (f.data.code ?? null) : (v.code ?? '').trim() || null;
      if (code && code.length > 10) warnings.push(tr('codeLong'));
      const m = match(rowNumber, name, code, errors, warnings);
      return {
        rowNumber,
        errors,
        warnings,
        ...m,
        updateDenied,
        data: { name, code, description: f.data?.description ?? null, present: Object.keys(v) },
      };
    });
  },
  async write(tx, row) {
    const { present, ...d } = row.data;
    if (row.existingId == null) {
      await runQuery(tx.insert(departments).values({ ...d, searchText: normalizeText(`${d.name} ${d.code ?? ''}`) }));
      return 'created';
    }
    const cur = (await firstRow(tx.select().from(departments).where(eq(departments.id, row.existingId))))!;
    // A row matched by name keeps its code; a missing description column keeps the description.
    const next = { name: d.name, code: d.code ?? cur.code, description: present.includes('description') ? d.description : cur.description };
    if (cur.name === next.name && cur.code === next.code && (cur.description ?? null) === next.description) return 'unchanged';
    await runQuery(
      tx
        .update(departments)
        .set({ ...next, searchText: normalizeText(`${next.name} ${next.code ?? ''}`) })
        .where(eq(departments.id, row.existingId)),
    );
    return 'updated';
  },
};

interface ClassRow {
  name: string;
  code: string | null;
  year: number;
  departmentId: number | null;
  present: string[];
}

export const classesImport: ImportKindDef<ClassRow> = {
  kind: 'classes',
  sheetName: 'Lớp',
  templateName: () => 'classes_import_template.xlsx',
  columns: () => CLASS_IMPORT_COLUMNS,
  tables: ['classes'],
  async check(db, rows, actor, _params, lang = 'vi') {
    const tr = rowText(lang);
    const match = matcher(await allRows(db.select({ id: classes.id, name: classes.name, code: classes.code }).from(classes)), lang);
    const depts = await departmentIndex(db);
    const updateDenied = hasPermission(actor.roles, 'classes.update', null) ? undefined : tr('classUpdateDenied');
    const thisYear = new Date().getFullYear();
    return rows.map(({ rowNumber, values: v }): CheckedRow<ClassRow> => {
      const errors: string[] = [];
      const warnings: string[] = [];
      const yearRaw = (v.year ?? '').trim();
      // The classes form's rules (shared schema); an empty year is this year, as in the form.
      const f = checkFields(
        classRowSchema,
        { name: cell(v, 'name'), code: cell(v, 'code'), year: yearRaw ? Number(yearRaw) : thisYear },
        CLASS_IMPORT_COLUMNS,
        lang,
      );
      errors.push(...f.errors);
      const name = f.data?.name ?? (v.name ?? '').trim();
      const code = f.data ? (f.data.code ?? null) : (v.code ?? '').trim() || null;
      const year = f.data?.year ?? thisYear;
      let departmentId: number | null = null;
      const deptText = v.departmentCode?.trim();
      if (deptText) {
        const found = resolveRef(depts, deptText, null);
        if (!found) errors.push(tr('departmentNotFound', { code: deptText }));
        else if ('ambiguous' in found) errors.push(tr('departmentAmbiguous', { count: found.ambiguous, text: deptText }));
        else departmentId = found.id;
      }
      const m = match(rowNumber, name, code, errors, warnings);
      return { rowNumber, errors, warnings, ...m, updateDenied, data: { name, code, year, departmentId, present: Object.keys(v) } };
    });
  },
  async write(tx, row) {
    const { present, ...d } = row.data;
    const searchText = normalizeText(`${d.name} ${d.code ?? ''}`);
    if (row.existingId == null) {
      await runQuery(tx.insert(classes).values({ ...d, searchText }));
      return 'created';
    }
    const cur = (await firstRow(tx.select().from(classes).where(eq(classes.id, row.existingId))))!;
    const next = {
      ...d,
      code: d.code ?? cur.code,
      year: present.includes('year') ? d.year : cur.year,
      departmentId: present.includes('departmentCode') ? d.departmentId : cur.departmentId,
    };
    if (cur.name === next.name && cur.code === next.code && cur.year === next.year && cur.departmentId === next.departmentId)
      return 'unchanged';
    await runQuery(
      tx
        .update(classes)
        .set({ ...next, searchText: normalizeText(`${next.name} ${next.code ?? ''}`) })
        .where(eq(classes.id, row.existingId)),
    );
    return 'updated';
  },
};
