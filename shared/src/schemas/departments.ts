import { z } from 'zod';
import { booleanQuery, cleanLine, cleanText } from './common';

/** Department name and code minimum after trimming (000 §5, §9). */
export const DEPARTMENT_TEXT_MIN = 2;
/** Dropdowns load every department in one page (000 §7: limit 1000). */
export const CATALOGUE_LIMIT_MAX = 1000;

const invalid = 'validation.invalidValue';

/**
 * Optional text: trimmed; an empty string or null means "none" (stored null, clears it on
 * update); absent stays undefined (left unchanged on update). `multiline` keeps line breaks (descriptions).
 */
export function optionalCatalogueText(max: number, min = 0, multiline = false) {
  return z
    .string({ error: invalid })
    .overwrite(multiline ? cleanText : cleanLine)
    .trim()
    .max(max, 'validation.textTooLong')
    .nullish()
    .transform((v) => (v === undefined ? undefined : v === null || v === '' ? null : v))
    .refine((v) => v == null || v.length >= min, 'validation.codeMinLength');
}

/** Required name: trimmed, then at least `min` characters. */
export function catalogueName(min: number, max = 200) {
  return z
    .string({ error: 'validation.nameRequired' })
    .overwrite(cleanLine)
    .trim()
    .min(1, { error: 'validation.nameRequired', abort: true })
    .min(min, 'validation.nameMinLength')
    .max(max, 'validation.textTooLong');
}

/** page/limit/search/isActive shared by the department and class lists. */
export const catalogueListQuery = z.object({
  page: z.coerce.number({ error: invalid }).int(invalid).min(1, invalid).default(1),
  limit: z.coerce.number({ error: invalid }).int(invalid).min(1, invalid).max(CATALOGUE_LIMIT_MAX, invalid).default(10),
  search: z.string().trim().max(200, 'validation.textTooLong').optional(),
  isActive: booleanQuery.optional(),
});

/** @alias */
export const departmentListQuery = catalogueListQuery;
export type DepartmentListQuery = z.infer<typeof departmentListQuery>;

export const createDepartmentSchema = z.object({
  name: catalogueName(DEPARTMENT_TEXT_MIN),
  code: optionalCatalogueText(50, DEPARTMENT_TEXT_MIN),
  description: optionalCatalogueText(1000, 0, true),
  isActive: z.boolean({ error: invalid }).optional(),
});
export type CreateDepartmentInput = z.input<typeof createDepartmentSchema>;
export type CreateDepartment = z.output<typeof createDepartmentSchema>;

export const updateDepartmentSchema = createDepartmentSchema.partial();
export type UpdateDepartmentInput = z.input<typeof updateDepartmentSchema>;
export type UpdateDepartment = z.output<typeof updateDepartmentSchema>;

export const departmentSchema = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string().nullable(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  /** Number of users whose management department this is. */
  managementUsers: z.number(),
  /** Number of users whose training department this is. */
  trainingUsers: z.number(),
  /** Classes of this department: while any remain, DELETE refuses (the admin disables it, issue 25 item 6). */
  classCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Department = z.infer<typeof departmentSchema>;

export const departmentListResponse = z.object({
  departments: z.array(departmentSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  totalPages: z.number(),
});
export type DepartmentListResponse = z.infer<typeof departmentListResponse>;

export const catalogueBulkDeleteResponse = z.object({ deletedCount: z.number() });
export type CatalogueBulkDeleteResponse = z.infer<typeof catalogueBulkDeleteResponse>;
