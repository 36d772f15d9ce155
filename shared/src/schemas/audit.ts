import { z } from 'zod';

const invalid = 'validation.invalidValue';
const dateInvalid = 'validation.dateInvalid';

/**
 * A day (YYYY-MM-DD, read as a Vietnam calendar day) or an instant with a zone
 * (2025-01-31T10:00:00Z / +07:00). Local times without a zone are refused as ambiguous.
 */
export const auditDateQuery = z.union([z.iso.date({ error: dateInvalid }), z.iso.datetime({ offset: true, error: dateInvalid })], {
  error: dateInvalid,
});

export const auditListQuery = z.object({
  page: z.coerce.number({ error: invalid }).int(invalid).min(1, invalid).default(1),
  limit: z.coerce.number({ error: invalid }).int(invalid).min(1, invalid).max(100, invalid).default(20),
  actorId: z.coerce.number({ error: invalid }).int(invalid).positive(invalid).optional(),
  entity: z.string().trim().min(1, invalid).max(50, invalid).optional(),
  entityId: z.string().trim().min(1, invalid).max(100, invalid).optional(),
  action: z.string().trim().min(1, invalid).max(100, invalid).optional(),
  /** One or several action codes, `actions=a,b` or repeated (issue 26): rows of any of them, with `action` if also given. */
  actions: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => [
      ...new Set(
        (Array.isArray(v) ? v : [v])
          .flatMap((s) => s.split(','))
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.string().max(100, invalid)).max(100, invalid))
    .optional(),
  /** Rows about this organization and its subtree (issue 15). */
  organizationId: z.coerce.number({ error: invalid }).int(invalid).positive(invalid).optional(),
  from: auditDateQuery.optional(),
  to: auditDateQuery.optional(),
  /** true leaves sign-ins and other auth.* rows out (issue 26: the admin sends it unless the officer asks for them). */
  excludeAuth: z
    .enum(['true', 'false', '1', '0'], { error: invalid })
    .transform((v) => v === 'true' || v === '1')
    .optional(),
});
export type AuditListQuery = z.infer<typeof auditListQuery>;

export const auditActorSchema = z.object({
  id: z.number(),
  code: z.string(),
  familyName: z.string(),
  givenName: z.string(),
  email: z.string(),
});

/**
 * Names captured when the row was written (issue 26): the actor, the record (`target`), the user,
 * organization and campaign it concerns, and `names` for the ids inside the snapshots, keyed
 * `<kind>:<id>` (organization:5, role:9, user:12, department:3…).
 */
export const auditLabelsSchema = z.object({
  actor: z.string().optional(),
  target: z.string().optional(),
  user: z.string().optional(),
  organization: z.string().optional(),
  campaign: z.string().optional(),
  names: z.record(z.string(), z.string()).optional(),
});
export type AuditLabels = z.infer<typeof auditLabelsSchema>;

export const auditLogSchema = z.object({
  id: z.number(),
  /** null when the change was made by the system or the actor's account was deleted. */
  actor: auditActorSchema.nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  /** Snapshots as recorded (secrets masked); null when not applicable (before of a create, after of a delete). */
  before: z.unknown(),
  after: z.unknown(),
  /** Left out when another officer made the change and the caller is not a global log reader (docs/decisions.md). */
  ip: z.string().nullable().optional(),
  labels: auditLabelsSchema,
  /** The organization the change concerns; null for user and system-wide rows (global readers only). */
  organization: z.object({ id: z.number(), name: z.string(), code: z.string(), type: z.string() }).nullable(),
  createdAt: z.string(),
});
export type AuditLog = z.infer<typeof auditLogSchema>;

export const auditListResponse = z.object({
  data: z.array(auditLogSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  totalPages: z.number(),
});
export type AuditListResponse = z.infer<typeof auditListResponse>;

/** The export takes the list's filters without paging (issue 15). */
export const auditExportQuery = auditListQuery.omit({ page: true, limit: true });
export type AuditExportQuery = z.infer<typeof auditExportQuery>;

/** Kinds of record an audit row keeps names of (its `labels`), so a deleted record is still named. */
export type AuditRefKind = 'user' | 'organization' | 'role' | 'department' | 'class' | 'payment_campaign' | 'fee_level';
/** Snapshot keys holding one id, and the kind of record it names: the API captures their names, the admin shows them. */
export const AUDIT_REF_ONE: Readonly<Record<string, AuditRefKind>> = {
  userId: 'user',
  organizationId: 'organization',
  parentId: 'organization',
  roleId: 'role',
  campaignId: 'payment_campaign',
  feeLevelId: 'fee_level',
  classId: 'class',
  departmentId: 'department',
  managementDepartmentId: 'department',
  trainingDepartmentId: 'department',
};
/** Snapshot keys holding a list of ids (membership.set's added/removed are organizations). */
export const AUDIT_REF_MANY: Readonly<Record<string, AuditRefKind>> = {
  organizationIds: 'organization',
  added: 'organization',
  removed: 'organization',
  keptParents: 'organization',
  userIds: 'user',
  campaignIds: 'payment_campaign',
};
