import { z } from 'zod';
import { EMAIL_PATTERN, PASSWORD_MIN } from './common';
import { MEMBERSHIP_STATUSES, USER_TYPES } from './enums';
import { MEMBER_RECORD_IMPORT_COLUMNS } from './member-record-columns';

/** 000 §5, §9: accepted files and size. .xls is refused with a hint to save as .xlsx (docs/decisions.md). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_EXTENSIONS = ['.xlsx', '.xls'] as const;
export const IMPORT_SESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const MEMBER_IMPORT_LEVELS = [2, 3] as const;
export const MEMBER_IMPORT_LEVEL_MESSAGE = 'Level phải là 2 hoặc 3';

export type ImportKind = 'users' | 'departments' | 'classes' | 'organization_members';

export interface ImportColumn {
  key: string;
  /** Vietnamese header written in templates and exports; headers are matched accent- and case-insensitively, by key or label. */
  header: string;
  required: boolean;
  note: string;
  /** Allowed values (a dropdown in the template). */
  values?: readonly string[];
  /** Other headers accepted for this column (the export's headers, so an export re-imports). */
  aliases?: readonly string[];
  example: string | number;
}

export const USER_IMPORT_COLUMNS: readonly ImportColumn[] = [
  // Aliases: the usual names of a column in officers' own lists (issue 26), matched accent-, case- and punctuation-insensitively.
  {
    key: 'code',
    header: 'Mã số',
    required: true,
    note: 'Mã sinh viên hoặc mã cán bộ, không trùng',
    example: '22001234',
    aliases: ['MSSV', 'Mã SV', 'Mã sinh viên', 'Mã số sinh viên', 'Mã số SV', 'Mã cán bộ', 'Mã CB', 'Mã số cán bộ', 'Student ID'],
  },
  {
    key: 'familyName',
    header: 'Họ',
    required: true,
    note: 'Họ và tên đệm',
    example: 'Nguyễn Văn',
    aliases: ['Họ và tên đệm', 'Họ đệm', 'Họ và đệm', 'Họ lót', 'Family name', 'Last name'],
  },
  { key: 'givenName', header: 'Tên', required: true, note: 'Tên', example: 'An', aliases: ['Tên gọi', 'Given name', 'First name'] },
  {
    key: 'email',
    header: 'Email',
    required: true,
    note: 'Email, không trùng',
    example: '22001234@sv.bachkhoa.edu.vn',
    aliases: ['E-mail', 'Địa chỉ email', 'Email sinh viên', 'Thư điện tử', 'Mail'],
  },
  {
    key: 'password',
    header: 'Mật khẩu',
    required: false,
    note: `Tối thiểu ${PASSWORD_MIN} ký tự. Để trống hoặc "-": phần trước @ của email (phải đổi khi đăng nhập lần đầu)`,
    example: '-',
  },
  {
    key: 'phone',
    header: 'Số điện thoại',
    required: false,
    note: '10 hoặc 11 chữ số',
    example: '0901234567',
    aliases: ['SĐT', 'Số ĐT', 'Điện thoại', 'Điện thoại di động', 'Số di động', 'Di động', 'Phone'],
  },
  {
    key: 'className',
    header: 'Lớp',
    required: false,
    note: 'Mã hoặc tên lớp đã có',
    example: '22CNTT1',
    aliases: ['class', 'Tên lớp', 'Mã lớp', 'Lớp học', 'Lớp sinh hoạt'],
  },
  {
    key: 'managementDepartmentCode',
    header: 'Mã khoa quản lý',
    required: false,
    note: 'Mã (hoặc tên) khoa/phòng ban quản lý đã có',
    example: 'CNTT',
    aliases: ['managementDepartment', 'Khoa quản lý', 'Khoa', 'Mã khoa', 'Khoa/Viện'],
  },
  {
    key: 'trainingDepartmentCode',
    header: 'Mã khoa đào tạo',
    required: false,
    note: 'Mã (hoặc tên) khoa đào tạo đã có',
    example: 'CNTT',
    aliases: ['trainingDepartment', 'Khoa đào tạo'],
  },
  {
    key: 'organizationCodes',
    header: 'Mã tổ chức',
    required: false,
    note: 'Mã tổ chức, nhiều mã cách nhau bởi dấu phẩy; thêm cả các tổ chức cấp trên',
    example: 'CD-22CNTT1',
    aliases: ['Mã chi đoàn', 'Mã đơn vị', 'Mã chi hội'],
  },
  {
    key: 'userType',
    header: 'Loại người dùng',
    required: false,
    note: 'student (sinh viên) hoặc staff (cán bộ); để trống: student',
    values: USER_TYPES,
    example: 'student',
  },
  {
    key: 'membershipStatus',
    header: 'Đoàn viên/Hội viên',
    required: false,
    note: 'none (không), doan_vien, hoi_vien hoặc both (cả hai); để trống: none',
    values: MEMBERSHIP_STATUSES,
    example: 'both',
  },
  ...MEMBER_RECORD_IMPORT_COLUMNS,
];

export const DEPARTMENT_IMPORT_COLUMNS: readonly ImportColumn[] = [
  { key: 'name', header: 'Tên khoa/phòng ban', required: true, note: 'Ít nhất 2 ký tự', example: 'Khoa Công nghệ Thông tin' },
  { key: 'code', header: 'Mã', required: false, note: 'Ít nhất 2 ký tự, không trùng', example: 'CNTT' },
  { key: 'description', header: 'Mô tả', required: false, note: 'Không bắt buộc', example: 'Đơn vị đào tạo' },
];

export const CLASS_IMPORT_COLUMNS: readonly ImportColumn[] = [
  { key: 'name', header: 'Tên lớp', required: true, note: 'Tên lớp', example: '24CNTT1' },
  { key: 'code', header: 'Mã lớp', required: false, note: 'Không trùng', example: '24CNTT1' },
  { key: 'year', header: 'Năm', required: false, note: 'Từ 2000 đến 2100; để trống: năm hiện tại', example: 2024 },
  { key: 'departmentCode', header: 'Mã khoa', required: false, note: 'Mã khoa đã có', example: 'CNTT' },
];

/** Level 3 (a unit such as a chi đoàn or a club): the member's code. Level 2 (a faculty unit): also the class or unit code beneath it. */
export function memberImportColumns(level: 2 | 3): readonly ImportColumn[] {
  const student: ImportColumn = {
    key: 'studentCode',
    header: 'Mã sinh viên',
    required: true,
    note: 'Mã số của người dùng đã có',
    example: '22001234',
    aliases: ['code', 'Mã số', 'MSSV', 'Mã số sinh viên', 'Mã SV', 'Mã số SV'],
  };
  if (level === 3) return [student];
  return [
    student,
    {
      key: 'classOrUnitCode',
      header: 'Mã lớp/đơn vị',
      required: true,
      note: 'Mã chi đoàn/chi hội hoặc lớp trực thuộc',
      example: 'CD-22CNTT1',
    },
  ];
}

export const importOptionsSchema = z
  .object({
    skipErrors: z.boolean().default(true),
    updateExisting: z.boolean().default(false),
    dryRun: z.boolean().default(false),
    batchSize: z.number().int().min(1).max(1000).default(100),
    skipConflicts: z.boolean().optional(),
  })
  .default({ skipErrors: true, updateExisting: false, dryRun: false, batchSize: 100 });
/**
 * Execute body: the options under `options` (as the spec's client sends them) or at the top level;
 * `skipConflicts: true` means updateExisting false.
 */
export const importExecuteSchema = z
  .object({ options: z.record(z.string(), z.unknown()).optional(), skipConflicts: z.boolean().optional() })
  .passthrough()
  .default({});
export type ImportOptions = z.output<typeof importOptionsSchema>;

export const memberImportLevelQuery = z.object({
  level: z
    .enum(['2', '3'], { error: MEMBER_IMPORT_LEVEL_MESSAGE })
    .default('3')
    .transform((v) => Number(v) as 2 | 3),
  organizationId: z.coerce.number().int().positive().optional(),
});

const rowMessage = z.object({ row: z.number(), message: z.string() });

/** POST …/import/upload: the session to validate and execute, with the first rows for a preview. */
export const importUploadResponse = z.object({
  sessionId: z.string(),
  fileName: z.string(),
  totalRows: z.number(),
  previewData: z.array(z.object({ rowIndex: z.number() }).catchall(z.unknown())),
  /** Headers of the file that match no column (their values are not read). */
  ignoredColumns: z.array(z.string()),
});
export type ImportUpload = z.infer<typeof importUploadResponse>;

export const importRowResultSchema = z.object({
  rowIndex: z.number(),
  /** The row as read (passwords from the file are masked; a default password shows its value). */
  data: z.record(z.string(), z.unknown()),
  validation: z.object({
    isValid: z.boolean(),
    errors: z.array(z.string()),
    warnings: z.array(z.string()),
    action: z.enum(['create', 'update', 'skip']).optional(),
  }),
});
export type ImportRowResult = z.infer<typeof importRowResultSchema>;

export const importValidationResultSchema = z.object({
  isValid: z.boolean(),
  summary: z.object({ total: z.number(), valid: z.number(), invalid: z.number(), duplicates: z.number(), conflicts: z.number() }),
  errors: z.array(rowMessage),
  warnings: z.array(rowMessage),
  data: z.array(importRowResultSchema),
});
export type ImportValidationResult = z.infer<typeof importValidationResultSchema>;

export const importExecutionResultSchema = z.object({
  success: z.boolean(),
  importedCount: z.number(),
  skippedCount: z.number(),
  failedCount: z.number(),
  errors: z.array(rowMessage),
  message: z.string(),
  dryRun: z.boolean().optional(),
});
export type ImportExecutionResult = z.infer<typeof importExecutionResultSchema>;

export const importStatusSchema = z.object({
  sessionId: z.string(),
  fileName: z.string(),
  status: z.enum(['uploaded', 'validated', 'running', 'completed', 'failed']),
  totalRows: z.number(),
  /** Rows handled so far (written, skipped or failed), in file order; totalRows when done. */
  processedRows: z.number(),
  result: importExecutionResultSchema.nullable(),
});
export type ImportStatus = z.infer<typeof importStatusSchema>;

export { EMAIL_PATTERN };

/**
 * Column mapping sent with an upload: our column key → the file's header (null: do not import a
 * column that would otherwise match). Sent as JSON in the multipart field `mapping`.
 */
export const importMappingSchema = z
  .record(
    z.string().trim().min(1, 'imports.mapping.invalid').max(60, 'imports.mapping.invalid'),
    z.string().trim().max(200, 'imports.mapping.invalid').nullable(),
  )
  .refine((m) => Object.keys(m).length <= 60, 'imports.mapping.invalid');
export type ImportMapping = z.output<typeof importMappingSchema>;

/** What the mapping step needs: the file's headers and a suggested (or remembered) mapping. */
export const importHeadersResultSchema = z.object({
  headers: z.array(z.string()),
  /** Our column key → the file's header, or null when nothing fits. */
  suggestion: z.record(z.string(), z.string().nullable()),
  /** Keys whose suggestion came from this user's last mapping of this kind of import. */
  remembered: z.array(z.string()),
  /** The headers do not match the template: a required column is missing or a column of the file is unknown while one of ours is unmatched. */
  needsMapping: z.boolean(),
});
export type ImportHeadersResult = z.infer<typeof importHeadersResultSchema>;
