import { z } from 'zod';
import { catalogueListQuery, catalogueName, optionalCatalogueText } from './departments';

/** Class years accepted by forms and the API (000 §5, §9). */
export const CLASS_YEAR_MIN = 2000;
export const CLASS_YEAR_MAX = 2100;

const invalid = 'validation.invalidValue';
const yearInvalid = 'validation.yearInvalid';

export const classYearSchema = z
  .number({ error: yearInvalid })
  .int(yearInvalid)
  .min(CLASS_YEAR_MIN, yearInvalid)
  .max(CLASS_YEAR_MAX, yearInvalid);

/** The year filter arrives as a query string and is converted to a number (000 §5). */
export const classListQuery = catalogueListQuery.extend({
  year: z.coerce.number({ error: yearInvalid }).int(yearInvalid).optional(),
  departmentId: z.coerce.number({ error: invalid }).int(invalid).positive(invalid).optional(),
});
export type ClassListQuery = z.infer<typeof classListQuery>;

const classFields = {
  name: catalogueName(1),
  code: optionalCatalogueText(50),
  isActive: z.boolean({ error: invalid }).optional(),
  /** null (or absent on create) means no department. */
  departmentId: z.number({ error: invalid }).int(invalid).positive(invalid).nullish(),
};

export const createClassSchema = z.object({
  ...classFields,
  year: classYearSchema.default(() => new Date().getFullYear()),
});
export type CreateClassInput = z.input<typeof createClassSchema>;
export type CreateClass = z.output<typeof createClassSchema>;

export const updateClassSchema = z.object({ ...classFields, year: classYearSchema }).partial();
export type UpdateClassInput = z.input<typeof updateClassSchema>;
export type UpdateClass = z.output<typeof updateClassSchema>;

export const classDepartmentSchema = z.object({ id: z.number(), name: z.string(), code: z.string().nullable() });

export const classSchema = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string().nullable(),
  year: z.number(),
  isActive: z.boolean(),
  department: classDepartmentSchema.nullable(),
  studentCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ClassItem = z.infer<typeof classSchema>;

export const classStudentSchema = z.object({
  id: z.number(),
  code: z.string(),
  familyName: z.string(),
  givenName: z.string(),
  fullName: z.string(),
  email: z.string(),
});
export type ClassStudent = z.infer<typeof classStudentSchema>;

export const classDetailSchema = classSchema.extend({ students: z.array(classStudentSchema) });
export type ClassDetail = z.infer<typeof classDetailSchema>;

export const classListResponse = z.object({
  classes: z.array(classSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  totalPages: z.number(),
});
export type ClassListResponse = z.infer<typeof classListResponse>;
