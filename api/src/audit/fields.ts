import type { ExportField } from '@doanhoi/shared';

/** Columns of the audit-log xlsx (issue 15): the list's columns, the record's name as it was (issue 26), then the two snapshots as JSON text. */
export const AUDIT_EXPORT_FIELDS: readonly ExportField[] = [
  { key: 'time', header: 'Thời gian', group: 'system' },
  { key: 'actorCode', header: 'Mã người thực hiện', group: 'system' },
  { key: 'actorName', header: 'Người thực hiện', group: 'system' },
  { key: 'action', header: 'Hành động', group: 'system' },
  { key: 'entity', header: 'Loại đối tượng', group: 'system' },
  { key: 'entityId', header: 'Mã đối tượng', group: 'system' },
  { key: 'target', header: 'Tên đối tượng', group: 'system' },
  { key: 'organization', header: 'Tổ chức', group: 'system' },
  { key: 'ip', header: 'Địa chỉ IP', group: 'system' },
  { key: 'before', header: 'Trước', group: 'system' },
  { key: 'after', header: 'Sau', group: 'system' },
];
