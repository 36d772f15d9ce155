import { z } from 'zod';
import { membershipStatusSchema, userTypeSchema } from './enums';
import { MEMBER_RECORD_EXPORT_FIELDS } from './member-record-columns';

export const EXPORT_NO_FIELDS = 'Vui lòng chọn ít nhất một trường để xuất';

export type ExportGroup = 'basic' | 'academic' | 'organization' | 'system';

export interface ExportField {
  key: string;
  header: string;
  group: ExportGroup;
}

/** 000 §3 exportable user fields, in the export dialog's groups (000 §2). */
export const USER_EXPORT_FIELDS: readonly ExportField[] = [
  { key: 'code', header: 'Mã số', group: 'basic' },
  { key: 'familyName', header: 'Họ', group: 'basic' },
  { key: 'givenName', header: 'Tên', group: 'basic' },
  { key: 'fullName', header: 'Họ và tên', group: 'basic' },
  { key: 'email', header: 'Email', group: 'basic' },
  { key: 'phone', header: 'Số điện thoại', group: 'basic' },
  ...MEMBER_RECORD_EXPORT_FIELDS,
  { key: 'managementDepartment', header: 'Khoa quản lý', group: 'academic' },
  { key: 'trainingDepartment', header: 'Khoa đào tạo', group: 'academic' },
  { key: 'class', header: 'Lớp', group: 'academic' },
  { key: 'userType', header: 'Loại người dùng', group: 'organization' },
  { key: 'membershipStatus', header: 'Đoàn viên/Hội viên', group: 'organization' },
  { key: 'role', header: 'Vai trò trong tổ chức', group: 'organization' },
  { key: 'joinedAt', header: 'Ngày tham gia', group: 'organization' },
  { key: 'isActive', header: 'Trạng thái', group: 'system' },
  { key: 'createdAt', header: 'Ngày tạo', group: 'system' },
  { key: 'updatedAt', header: 'Ngày cập nhật', group: 'system' },
];

/** 001 §7 assignment export. */
export const ASSIGNMENT_EXPORT_FIELDS: readonly ExportField[] = [
  { key: 'memberCode', header: 'Mã số', group: 'basic' },
  { key: 'memberName', header: 'Họ và tên', group: 'basic' },
  { key: 'memberEmail', header: 'Email', group: 'basic' },
  { key: 'memberPhone', header: 'Số điện thoại', group: 'basic' },
  { key: 'feeLevelName', header: 'Mức phí', group: 'organization' },
  { key: 'amount', header: 'Số tiền (VND)', group: 'organization' },
  { key: 'status', header: 'Trạng thái', group: 'organization' },
  { key: 'dueDate', header: 'Hạn nộp', group: 'organization' },
  { key: 'paidAt', header: 'Ngày thanh toán', group: 'organization' },
  { key: 'paidAmount', header: 'Số tiền đã nộp (VND)', group: 'organization' },
  { key: 'paymentMethod', header: 'Hình thức', group: 'organization' },
  { key: 'adjustment', header: 'Miễn/giảm', group: 'organization' },
  { key: 'originalAmount', header: 'Số tiền gốc (VND)', group: 'organization' },
  { key: 'adjustmentReason', header: 'Lý do miễn/giảm', group: 'organization' },
  { key: 'waivedAmount', header: 'Số tiền được miễn/giảm (VND)', group: 'organization' },
  { key: 'receivedAmount', header: 'Tiền đã nhận (VND)', group: 'organization' },
  { key: 'refundDue', header: 'Cần hoàn trả (VND)', group: 'organization' },
  { key: 'refunded', header: 'Đã hoàn trả (VND)', group: 'organization' },
  { key: 'moneyNotes', header: 'Tiền cần xử lý (hoàn/trùng/thừa)', group: 'organization' },
  { key: 'testAmount', header: 'Tiền thử nghiệm (sandbox, VND)', group: 'organization' },
  { key: 'reversals', header: 'Khoản thu đã hủy xác nhận', group: 'organization' },
  { key: 'notes', header: 'Ghi chú', group: 'system' },
  { key: 'createdAt', header: 'Ngày phân công', group: 'system' },
];

/** The exports the admin's dialog offers; each field's label is `common:export.fields.<kind>.<key>` (the xlsx keeps `header`, which the import reads back). */
export type ExportKind = 'users' | 'assignments';
export const EXPORT_FIELD_LISTS: Record<ExportKind, readonly ExportField[]> = {
  users: USER_EXPORT_FIELDS,
  assignments: ASSIGNMENT_EXPORT_FIELDS,
};

export const exportRequestSchema = z.object({
  fields: z.array(z.string(), { error: EXPORT_NO_FIELDS }).min(1, EXPORT_NO_FIELDS).max(50),
  format: z.literal('xlsx', { error: 'Chỉ hỗ trợ xuất định dạng xlsx' }).default('xlsx'),
  /** Optional filters for the users export (same meaning as the users list). */
  search: z.string().max(200).optional(),
  userType: userTypeSchema.optional(),
  membershipStatus: membershipStatusSchema.optional(),
  organizationId: z.number().int().positive().optional(),
});
export type ExportRequest = z.output<typeof exportRequestSchema>;
