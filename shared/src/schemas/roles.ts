import { z } from 'zod';
import { booleanQuery, cleanLine, cleanText } from './common';

/** Role codes (000 §3 Role.name): lower-case letters, digits and underscore; immutable once created. */
export const ROLE_NAME_PATTERN = /^[a-z0-9_]+$/;
/** At most 10 role assignment rows per request (000 §5, §9). */
export const MAX_ROLE_ASSIGNMENT_ROWS = 10;

const invalid = 'validation.invalidValue';
const positiveId = z.number({ error: invalid }).int(invalid).positive(invalid);

/** Optional text: trimmed; absent, null or blank means none. */
const optionalText = (max: number) =>
  z
    .string({ error: invalid })
    .overwrite(cleanText)
    .trim()
    .max(max, 'validation.textTooLong')
    .nullish()
    .transform((v) => (v ? v : null));

const displayNameField = z
  .string({ error: 'validation.displayNameRequired' })
  .overwrite(cleanLine)
  .trim()
  .min(1, { error: 'validation.displayNameRequired', abort: true })
  .max(200, 'validation.textTooLong');

const permissionIdsField = z
  .array(positiveId, { error: invalid })
  .max(500, 'validation.tooManyItems')
  .transform((ids) => [...new Set(ids)]);

export const roleListQuery = z.object({
  page: z.coerce.number({ error: invalid }).int(invalid).min(1, invalid).default(1),
  limit: z.coerce.number({ error: invalid }).int(invalid).min(1, invalid).max(1000, invalid).default(10),
  /** Name or display name; accents and case are ignored. */
  search: z.string().trim().max(200, 'validation.textTooLong').optional(),
  isActive: booleanQuery.optional(),
});
export type RoleListQuery = z.infer<typeof roleListQuery>;

export const createRoleSchema = z.object({
  name: z
    .string({ error: 'validation.roleNameRequired' })
    .trim()
    .min(1, { error: 'validation.roleNameRequired', abort: true })
    .max(50, { error: 'validation.textTooLong', abort: true })
    .regex(ROLE_NAME_PATTERN, 'validation.roleNameInvalid'),
  displayName: displayNameField,
  description: optionalText(1000),
  permissionIds: permissionIdsField.default([]),
  isActive: z.boolean({ error: invalid }).optional(),
});
export type CreateRoleInput = z.input<typeof createRoleSchema>;
export type CreateRole = z.output<typeof createRoleSchema>;

/**
 * PUT replaces displayName and description (the edit form leaves description out when blank, so
 * absent means none); permissionIds and isActive absent are left unchanged. `name` is accepted
 * only when it is the role's current name (the form may send it back unchanged).
 */
export const updateRoleSchema = z.object({
  name: z.string({ error: invalid }).trim().optional(),
  displayName: displayNameField,
  description: optionalText(1000),
  permissionIds: permissionIdsField.optional(),
  isActive: z.boolean({ error: invalid }).optional(),
});
export type UpdateRoleInput = z.input<typeof updateRoleSchema>;
export type UpdateRole = z.output<typeof updateRoleSchema>;

export const permissionSchema = z.object({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  category: z.string(),
  context: z.enum(['system', 'organization']),
  isActive: z.boolean(),
  sortOrder: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Permission = z.infer<typeof permissionSchema>;

export const rolePermissionSchema = permissionSchema.pick({ id: true, code: true, name: true, category: true, context: true });
export type RolePermission = z.infer<typeof rolePermissionSchema>;

export const roleSchema = z.object({
  id: z.number(),
  name: z.string(),
  displayName: z.string(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  isSystemRole: z.boolean(),
  /** Active permissions of the role. */
  permissionCount: z.number(),
  /** User role links to this role (deleted with it). */
  assignmentCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Role = z.infer<typeof roleSchema>;

export const roleDetailSchema = roleSchema.extend({ permissions: z.array(rolePermissionSchema) });
export type RoleDetail = z.infer<typeof roleDetailSchema>;

export const roleListResponse = z.object({
  data: z.array(roleSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  totalPages: z.number(),
});
export type RoleListResponse = z.infer<typeof roleListResponse>;

export const roleDeleteResponse = z.object({ message: z.string(), deletedUserRoleAssignments: z.number() });
export type RoleDeleteResponse = z.infer<typeof roleDeleteResponse>;

export const roleBulkDeleteResponse = z.object({ deletedRoles: z.number(), deletedUserRoleAssignments: z.number() });
export type RoleBulkDeleteResponse = z.infer<typeof roleBulkDeleteResponse>;

export const seedDefaultRolesResponse = z.object({ message: z.string(), created: z.array(z.string()), updated: z.array(z.string()) });
export type SeedDefaultRolesResponse = z.infer<typeof seedDefaultRolesResponse>;

// ---- Role assignment (grant) -------------------------------------------------------------

const optionalOrganizationId = z
  .union([z.literal(''), z.null(), positiveId], { error: 'validation.organizationInvalid' })
  .optional()
  .transform((v) => (v === '' || v == null ? null : v));

/**
 * One row of the grant form (000 §3): roleIds (one per row in the form, several accepted) and
 * organizationIds; isGlobal, or no organization with isGlobal left out, means a global link. The older assignment form's
 * row {roleId, organizationId} is accepted too. Every role × organization pair becomes one link.
 */
export const roleAssignmentRowSchema = z
  .object({
    roleIds: z.array(positiveId, { error: 'validation.roleRequired' }).optional(),
    roleId: z.union([z.literal(''), z.null(), positiveId], { error: 'validation.roleRequired' }).optional(),
    organizationIds: z.array(positiveId, { error: 'validation.organizationInvalid' }).optional(),
    organizationId: optionalOrganizationId,
    isGlobal: z.boolean({ error: invalid }).optional(),
  })
  .transform((r) => {
    const roleIds = r.roleIds ?? (typeof r.roleId === 'number' ? [r.roleId] : []);
    const organizationIds = r.organizationIds ?? (r.organizationId != null ? [r.organizationId] : []);
    const isGlobal = r.isGlobal === true || (r.isGlobal === undefined && organizationIds.length === 0);
    return { roleIds, organizationIds: isGlobal ? [] : organizationIds, isGlobal };
  })
  .refine((r) => r.roleIds.length > 0, { error: 'validation.roleRequired', path: ['roleIds'] })
  // A row that says it is not global yet names no unit is a scope lost on the way (the phone dialog
  // of issue 25 item 11 saved a university-wide role so): refused, never widened to global.
  .refine((r) => r.isGlobal || r.organizationIds.length > 0, { error: 'validation.scopeRequired', path: ['organizationIds'] });
export type RoleAssignmentRowInput = z.input<typeof roleAssignmentRowSchema>;
export type RoleAssignmentRow = z.output<typeof roleAssignmentRowSchema>;

/** The role × organization pairs (null organization = global) a list of rows stands for. */
export interface AssignmentPair {
  roleId: number;
  organizationId: number | null;
}

export function assignmentPairs(rows: readonly RoleAssignmentRow[]): AssignmentPair[] {
  return rows.flatMap((r) =>
    r.roleIds.flatMap((roleId): AssignmentPair[] =>
      r.isGlobal ? [{ roleId, organizationId: null }] : r.organizationIds.map((organizationId) => ({ roleId, organizationId })),
    ),
  );
}

/** At most 10 rows; the same role and organization (empty = global) never twice (000 §5). */
export const roleAssignmentsSchema = z
  .array(roleAssignmentRowSchema, { error: invalid })
  .max(MAX_ROLE_ASSIGNMENT_ROWS, 'validation.tooManyRows')
  .superRefine((rows, ctx) => {
    const seen = new Set<string>();
    rows.forEach((row, i) => {
      for (const p of assignmentPairs([row])) {
        const key = `${p.roleId}:${p.organizationId ?? ''}`;
        if (seen.has(key)) {
          ctx.addIssue({ code: 'custom', message: 'validation.duplicateAssignment', path: [i] });
          return;
        }
        seen.add(key);
      }
    });
  });

/** POST /users/{id}/roles: the user's role links become exactly these; an empty list clears them. */
export const userRoleAssignmentsBody = z.object({ roleAssignments: roleAssignmentsSchema });
export type UserRoleAssignmentsBody = z.output<typeof userRoleAssignmentsBody>;

/** POST /roles/grant-roles. */
export const grantRolesSchema = z.object({
  userId: z.number({ error: 'validation.userRequired' }).int('validation.userRequired').positive('validation.userRequired'),
  roleAssignments: roleAssignmentsSchema,
});
export type GrantRolesInput = z.input<typeof grantRolesSchema>;
export type GrantRoles = z.output<typeof grantRolesSchema>;

/** POST /users/{id}/assign-role: adds one link; no organization means global. */
export const assignRoleSchema = z.object({
  roleId: z.number({ error: 'validation.roleRequired' }).int('validation.roleRequired').positive('validation.roleRequired'),
  organizationId: optionalOrganizationId,
});
export type AssignRoleInput = z.input<typeof assignRoleSchema>;
export type AssignRole = z.output<typeof assignRoleSchema>;

/** GET /users/{id}/roles?organizationId: only the links that apply there (global, that organization, its ancestors). */
export const userRolesQuery = z.object({
  organizationId: z.coerce.number({ error: invalid }).int(invalid).positive(invalid).optional(),
});
export type UserRolesQuery = z.infer<typeof userRolesQuery>;

export const roleAssignmentLinkSchema = z.object({
  id: z.number(),
  roleId: z.number(),
  role: z.object({
    id: z.number(),
    name: z.string(),
    displayName: z.string(),
    description: z.string().nullable(),
    isActive: z.boolean(),
    permissions: z.array(z.object({ code: z.string() })),
  }),
  /** null: the role applies everywhere (global). */
  organizationId: z.number().nullable(),
  organization: z.object({ id: z.number(), name: z.string() }).nullable(),
  isActive: z.boolean(),
});
export type RoleAssignmentLink = z.infer<typeof roleAssignmentLinkSchema>;

export const grantRolesResponse = z.object({
  message: z.string(),
  added: z.number(),
  removed: z.number(),
  userRoles: z.array(roleAssignmentLinkSchema),
});
export type GrantRolesResponse = z.infer<typeof grantRolesResponse>;

/** A role the caller may grant, and where: globally, and/or in these organizations and beneath them. */
export const availableRoleSchema = z.object({
  id: z.number(),
  name: z.string(),
  displayName: z.string(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  isSystemRole: z.boolean(),
  permissions: z.array(z.object({ code: z.string() })),
  grantableIn: z.object({ global: z.boolean(), organizationIds: z.array(z.number()) }),
});
export type AvailableRole = z.infer<typeof availableRoleSchema>;
