/** Departments and classes imports (000 §3 columns, §5 rules); matched to existing rows by code, else by name. */
import { CLASS_IMPORT_COLUMNS, DEPARTMENT_IMPORT_COLUMNS, normalizeText } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { classes } from '../../classes/schema';
import { departments } from '../../departments/schema';
import type { CheckedRow, ImportKindDef } from '../kind';
import type { SessionRow } from '../session';
import { departmentCodes } from '../lookups';

interface Existing {
  id: number;
  name: string;
  code: string | null;
}

/** Duplicate-in-file and existing-record detection shared by both catalogues. */
function matcher(existing: Existing[]) {
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
      errors.push(`${code ? `Mã ${code}` : `Tên ${name}`} trùng với dòng ${seen.get(key)}`);
    } else seen.set(key, rowNumber);
    const existingId = (code ? byCode.get(normalizeText(code)) : byName.get(normalizeText(name))) ?? null;
    if (existingId != null) warnings.push(`Đã có ${code ? `mã ${code}` : `tên ${name}`}: cập nhật nếu chọn "Cập nhật dữ liệu đã có", nếu không sẽ bỏ qua`);
    return { duplicate, existingId };
  };
}

interface DepartmentRow {
  name: string;
  code: string | null;
  description: string | null;
}

export const departmentsImport: ImportKindDef<DepartmentRow> = {
  kind: 'departments',
  sheetName: 'Khoa - Phòng ban',
  templateName: () => 'departments_import_template.xlsx',
  columns: () => DEPARTMENT_IMPORT_COLUMNS,
  tables: ['departments'],
  check(db, rows: SessionRow[]) {
    const match = matcher(db.select({ id: departments.id, name: departments.name, code: departments.code }).from(departments).all());
    return rows.map(({ rowNumber, values: v }): CheckedRow<DepartmentRow> => {
      const errors: string[] = [];
      const warnings: string[] = [];
      const name = (v.name ?? '').trim();
      const code = (v.code ?? '').trim() || null;
      if (name.length < 2) errors.push(name ? 'Tên phải có ít nhất 2 ký tự' : 'Thiếu tên khoa/phòng ban');
      if (code && code.length < 2) errors.push('Mã phải có ít nhất 2 ký tự');
      if (code && code.length > 10) warnings.push('Mã dài hơn 10 ký tự');
      const m = match(rowNumber, name, code, errors, warnings);
      return { rowNumber, errors, warnings, ...m, data: { name, code, description: (v.description ?? '').trim() || null } };
    });
  },
  write(tx, row) {
    const d = row.data;
    const searchText = normalizeText(`${d.name} ${d.code ?? ''}`);
    if (row.existingId == null) {
      tx.insert(departments).values({ ...d, searchText }).run();
      return 'created';
    }
    const cur = tx.select().from(departments).where(eq(departments.id, row.existingId)).get()!;
    if (cur.name === d.name && cur.code === d.code && (cur.description ?? null) === d.description) return 'unchanged';
    tx.update(departments).set({ ...d, searchText }).where(eq(departments.id, row.existingId)).run();
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
  check(db, rows) {
    const match = matcher(db.select({ id: classes.id, name: classes.name, code: classes.code }).from(classes).all());
    const depts = departmentCodes(db);
    const thisYear = new Date().getFullYear();
    return rows.map(({ rowNumber, values: v }): CheckedRow<ClassRow> => {
      const errors: string[] = [];
      const warnings: string[] = [];
      const name = (v.name ?? '').trim();
      const code = (v.code ?? '').trim() || null;
      if (!name) errors.push('Thiếu tên lớp');
      const yearRaw = (v.year ?? '').trim();
      const year = yearRaw ? Number(yearRaw) : thisYear;
      if (!Number.isInteger(year) || year < 2000 || year > 2100) errors.push(`Năm phải từ 2000 đến 2100: ${yearRaw}`);
      let departmentId: number | null = null;
      if (v.departmentCode?.trim()) {
        departmentId = depts.get(normalizeText(v.departmentCode)) ?? null;
        if (departmentId == null) errors.push(`Không tìm thấy khoa có mã ${v.departmentCode}`);
      }
      const m = match(rowNumber, name, code, errors, warnings);
      return { rowNumber, errors, warnings, ...m, data: { name, code, year, departmentId, present: Object.keys(v) } };
    });
  },
  write(tx, row) {
    const { present, ...d } = row.data;
    const searchText = normalizeText(`${d.name} ${d.code ?? ''}`);
    if (row.existingId == null) {
      tx.insert(classes).values({ ...d, searchText }).run();
      return 'created';
    }
    const cur = tx.select().from(classes).where(eq(classes.id, row.existingId)).get()!;
    const next = { ...d, year: present.includes('year') ? d.year : cur.year, departmentId: present.includes('departmentCode') ? d.departmentId : cur.departmentId };
    if (cur.name === next.name && cur.code === next.code && cur.year === next.year && cur.departmentId === next.departmentId) return 'unchanged';
    tx.update(classes).set({ ...next, searchText }).where(eq(classes.id, row.existingId)).run();
    return 'updated';
  },
};
