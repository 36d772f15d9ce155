/**
 * The before/after view in the forms' words (issue 26): a snapshot key is shown with the label the
 * record's own form uses (users:fields.managementDepartment for managementDepartmentId), an id as
 * the name the row captured, a yes/no as words, a status as the screen names it.
 */
import { AUDIT_REF_MANY, AUDIT_REF_ONE, formatDateTime, formatVnd, type AuditLog } from '@doanhoi/shared';
import { nameOf, type Translate } from './sentence';

/** Per entity, snapshot key -> the form label key; anything else falls back to audit:fieldNames. */
const FORM_LABELS: Record<string, Record<string, string>> = {
  user: {
    code: 'users:fields.code',
    familyName: 'users:fields.familyName',
    givenName: 'users:fields.givenName',
    email: 'users:fields.email',
    phone: 'users:fields.phone',
    userType: 'users:fields.userType',
    membershipStatus: 'users:fields.membershipStatus',
    isActive: 'users:fields.isActive',
    classId: 'users:fields.class',
    managementDepartmentId: 'users:fields.managementDepartment',
    trainingDepartmentId: 'users:fields.trainingDepartment',
  },
  organization: {
    name: 'organizations:fields.name',
    code: 'organizations:fields.code',
    type: 'organizations:fields.type',
    parentId: 'organizations:fields.parent',
    description: 'organizations:fields.description',
  },
  department: {
    name: 'departments:fields.name',
    code: 'departments:fields.code',
    description: 'departments:fields.description',
    isActive: 'departments:fields.isActive',
  },
  class: {
    name: 'classes:fields.name',
    code: 'classes:fields.code',
    year: 'classes:fields.year',
    isActive: 'classes:fields.isActive',
    departmentId: 'classes:fields.department',
  },
  payment_campaign: {
    name: 'campaigns:fields.name',
    description: 'campaigns:fields.description',
    startDate: 'campaigns:fields.startDate',
    endDate: 'campaigns:fields.endDate',
    status: 'campaigns:fields.status',
    organizationId: 'campaigns:fields.organization',
  },
  fee_level: {
    levelName: 'campaigns:levels.name',
    amount: 'campaigns:levels.amount',
    description: 'campaigns:levels.description',
    isDefault: 'campaigns:levels.default',
  },
  role: {
    name: 'permissions:fields.name',
    displayName: 'permissions:fields.displayName',
    description: 'permissions:fields.description',
    isActive: 'permissions:fields.isActive',
    permissions: 'permissions:fields.permissions',
  },
};

/** Bookkeeping the officer never typed: left out of the view. */
export const HIDDEN_FIELDS = new Set(['id', 'path', 'searchText']);
const MONEY = new Set(['amount', 'paidAmount', 'receivedAmount', 'assignmentAmount', 'clientAmount']);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export function fieldLabel(entity: string, key: string, t: Translate): string {
  const form = FORM_LABELS[entity]?.[key];
  return form ? t(form) : t(`audit:fieldNames.${key}`, { defaultValue: key });
}

const isLink = (x: unknown): x is { roleId?: unknown; role?: unknown; organizationId?: unknown } =>
  !!x && typeof x === 'object' && 'roleId' in x;

/** A stored value as the screens show it; objects that are not names stay as JSON. */
export function fieldValue(log: AuditLog, entity: string, key: string, v: unknown, t: Translate): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return t(v ? 'audit:parts.yes' : 'audit:parts.no');
  if (AUDIT_REF_ONE[key] && typeof v === 'number')
    return (
      nameOf(log, AUDIT_REF_ONE[key]!, v) ?? (key === 'organizationId' && log.organization?.id === v ? log.organization.name : `#${v}`)
    );
  if (AUDIT_REF_MANY[key] && Array.isArray(v))
    return v.map((id) => nameOf(log, AUDIT_REF_MANY[key]!, id) ?? `#${String(id)}`).join(', ') || '—';
  if (Array.isArray(v) && v.every(isLink)) {
    return v
      .map((l) =>
        t('audit:parts.roleIn', {
          role: nameOf(log, 'role', l.roleId) ?? (typeof l.role === 'string' ? l.role : `#${String(l.roleId)}`),
          organization:
            l.organizationId == null
              ? t('audit:parts.global')
              : (nameOf(log, 'organization', l.organizationId) ?? `#${String(l.organizationId)}`),
        }),
      )
      .join('\n');
  }
  if (typeof v === 'number' && MONEY.has(key)) return formatVnd(v);
  if (typeof v === 'string') {
    if (ISO.test(v)) return formatDateTime(v);
    if (key === 'status')
      return t(entity === 'payment_campaign' ? `campaigns:status.${v}` : `campaigns:assignments.status.${v}`, { defaultValue: v });
    if (key === 'userType') return t(`users:userType.${v}`, { defaultValue: v });
    if (key === 'membershipStatus') return t(`users:membership.${v}`, { defaultValue: v });
    if (key === 'type' && entity === 'organization') return t(`organizations:types.${v}`, { defaultValue: v });
    return v;
  }
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) return v.join(', ');
  return typeof v === 'object' ? JSON.stringify(v, null, 1) : String(v);
}
