/** The permission catalogue (000 §3/§6, 001 §6): the single list the seed, the API and the admin read. */

export const PERMISSION_CATEGORIES = [
  'dashboard',
  'users',
  'organizations',
  'departments',
  'classes',
  'payments',
  'my-payments',
  'permissions',
  'system',
  // Appended last so the sortOrder of every older code stays where it was (issue 15).
  'audit',
  'transfers',
] as const;
export type PermissionCategory = (typeof PERMISSION_CATEGORIES)[number];

/** 'system' permissions only count when granted by a global role (see docs/decisions.md). */
export type PermissionContext = 'system' | 'organization';

export interface PermissionDefinition {
  code: string;
  name: string;
  category: PermissionCategory;
  context: PermissionContext;
  sortOrder: number;
}

type Entry = [code: string, name: string, context?: PermissionContext];

const byCategory: Record<PermissionCategory, Entry[]> = {
  dashboard: [
    ['dashboard.access', 'Truy cập bảng điều khiển'],
    // Issue 30 item 8: the membership and đoàn phí report of a unit's subtree, for the level above.
    ['reports.view', 'Xem báo cáo đoàn viên, đoàn phí'],
  ],
  users: [
    ['users.access', 'Truy cập quản lý người dùng'],
    ['users.create', 'Tạo người dùng'],
    ['users.view_details', 'Xem chi tiết người dùng'],
    ['users.update', 'Cập nhật người dùng'],
    ['users.delete', 'Xóa người dùng'],
    ['users.export', 'Xuất dữ liệu người dùng'],
    ['users.roles.manage', 'Quản lý vai trò người dùng'],
  ],
  organizations: [
    ['organizations.access', 'Truy cập tổ chức'],
    ['organizations.create', 'Tạo tổ chức', 'system'],
    ['organizations.view_details', 'Xem chi tiết tổ chức'],
    ['organizations.view_member_count', 'Xem số lượng thành viên'],
    ['organizations.access_children', 'Truy cập tổ chức con'],
    ['organizations.update', 'Cập nhật tổ chức'],
    ['organizations.delete', 'Xóa tổ chức'],
    ['organizations.export', 'Xuất danh sách thành viên'],
    ['organizations.add_member', 'Thêm thành viên'],
    ['organizations.remove_member', 'Xóa thành viên'],
    ['organizations.manage_members', 'Quản lý thành viên'],
    // Issue 30 item 2: appended so the sortOrder of older codes stays.
    ['organizations.end_membership', 'Kết thúc sinh hoạt của thành viên'],
  ],
  departments: [
    ['departments.access', 'Truy cập khoa/phòng ban'],
    ['departments.create', 'Tạo khoa/phòng ban'],
    ['departments.view_details', 'Xem chi tiết khoa/phòng ban'],
    ['departments.update', 'Cập nhật khoa/phòng ban'],
    ['departments.delete', 'Xóa khoa/phòng ban'],
    ['departments.export', 'Xuất dữ liệu khoa/phòng ban'],
  ],
  classes: [
    ['classes.access', 'Truy cập lớp'],
    ['classes.create', 'Tạo lớp'],
    ['classes.view_details', 'Xem chi tiết lớp'],
    ['classes.update', 'Cập nhật lớp'],
    ['classes.delete', 'Xóa lớp'],
    ['classes.export', 'Xuất dữ liệu lớp'],
  ],
  payments: [
    ['payment-campaigns.access', 'Truy cập quản lý thu phí'],
    ['payment-campaigns.create', 'Tạo đợt thu'],
    ['payment-campaigns.read', 'Xem chi tiết đợt thu'],
    ['payment-campaigns.update', 'Cập nhật đợt thu'],
    ['payment-campaigns.delete', 'Xóa đợt thu'],
    ['payment-campaigns.manage_assignments', 'Phân công mức phí'],
    ['payment-campaigns.view_reports', 'Xem báo cáo thanh toán'],
    ['payment-campaigns.export', 'Xuất dữ liệu thanh toán'],
    ['payment-campaigns.exempt', 'Miễn/giảm phí'],
    ['payment-campaigns.reverse_payment', 'Hủy xác nhận thanh toán'],
    ['payment-campaigns.send_reminders', 'Gửi nhắc nhở thanh toán'],
    // Issue 30 items 4–5 (appended so older codes keep their sortOrder): đoàn phí by rule and trích nộp.
    ['payment-campaigns.dues_rates', 'Đặt định mức đoàn phí'],
    ['payment-campaigns.generate_dues', 'Tạo đợt thu đoàn phí theo định mức'],
    ['payment-campaigns.view_remittance', 'Xem trích nộp đoàn phí'],
    ['payment-campaigns.remit', 'Ghi nhận nộp đoàn phí lên cấp trên'],
    ['payment-campaigns.confirm_remittance', 'Xác nhận đoàn phí cấp dưới nộp lên'],
  ],
  'my-payments': [
    ['my-payments.access', 'Truy cập khoản phí của tôi'],
    ['my-payments.view', 'Xem khoản phí của tôi'],
    ['my-payments.pay', 'Thanh toán trực tuyến'],
    ['my-payments.history', 'Xem lịch sử thanh toán'],
  ],
  permissions: [
    ['permissions.access', 'Truy cập phân quyền', 'system'],
    ['permissions.create', 'Tạo vai trò', 'system'],
    ['permissions.view_details', 'Xem chi tiết vai trò', 'system'],
    ['permissions.update', 'Cập nhật vai trò', 'system'],
    ['permissions.delete', 'Xóa vai trò', 'system'],
  ],
  system: [
    ['system.access_admin', 'Quản trị hệ thống', 'system'],
    ['system.manage_settings', 'Quản lý cấu hình', 'system'],
    ['system.view_logs', 'Xem nhật ký hệ thống', 'system'],
  ],
  // Organization context: an organization's admin reads the changes made in its subtree.
  audit: [['audit.access', 'Xem nhật ký thay đổi']],
  // Issue 30 item 1: in the sending unit to request, in the receiving unit to decide; access lists both sides.
  transfers: [
    ['transfers.access', 'Xem yêu cầu chuyển sinh hoạt'],
    ['transfers.request', 'Đề nghị chuyển sinh hoạt'],
    ['transfers.decide', 'Duyệt chuyển sinh hoạt'],
  ],
};

export const PERMISSIONS: readonly PermissionDefinition[] = PERMISSION_CATEGORIES.flatMap((category, ci) =>
  byCategory[category].map(([code, name, context = 'organization'], i) => ({
    code,
    name,
    category,
    context,
    sortOrder: ci * 100 + i,
  })),
);

const byCode = new Map(PERMISSIONS.map((p) => [p.code, p]));

export function permissionDefinition(code: string): PermissionDefinition | undefined {
  return byCode.get(code);
}

export function isSystemPermission(code: string): boolean {
  return byCode.get(code)?.context === 'system';
}

/** Index of a category in the display order of 000 §2 (unknown categories last). */
export function categoryOrder(category: string): number {
  const i = (PERMISSION_CATEGORIES as readonly string[]).indexOf(category);
  return i === -1 ? PERMISSION_CATEGORIES.length : i;
}

export const SUPER_ADMIN_ROLE = 'super_admin';
export const SUPER_ADMIN_PERMISSION = 'system.access_admin';
