import { z } from 'zod';
import { booleanQuery, cleanLine, EMAIL_PATTERN, newPasswordField } from './common';
import { MEMBERSHIP_STATUSES, organizationTypeSchema, USER_TYPES } from './enums';
import { memberRecordFields, memberRecordSchema } from './member-record';

/** Pickers load up to 1000 users in one page (000 §7, §9). */
export const USER_LIST_LIMIT_MAX = 1000;
/** After removing spaces, a phone number is 10 or 11 digits (000 §5, §9). */
/** RFC 5321's limit on an address; the form's input and the schema share it. */
export const EMAIL_MAX = 254;
export const PHONE_PATTERN = /^\d{10,11}$/;

const invalid = 'validation.invalidValue';
const userTypeField = z.enum(USER_TYPES, { error: invalid });
const membershipStatusField = z.enum(MEMBERSHIP_STATUSES, { error: invalid });

/** Required text: trimmed, then non-empty. */
function requiredText(key: string, max: number) {
  return z.string({ error: key }).overwrite(cleanLine).trim().min(1, { error: key, abort: true }).max(max, 'validation.textTooLong');
}

const emailField = z
  .string({ error: 'validation.emailRequired' })
  .overwrite(cleanLine)
  .trim()
  .min(1, { error: 'validation.emailRequired', abort: true })
  .max(EMAIL_MAX, { error: 'validation.textTooLong', abort: true })
  .regex(EMAIL_PATTERN, 'validation.emailInvalid')
  .transform((v) => v.toLowerCase());

/** Spaces are removed first ("090 123 4567" is accepted and stored as "0901234567"). */
const phoneField = z
  .string({ error: 'validation.phoneRequired' })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().min(1, { error: 'validation.phoneRequired', abort: true }).regex(PHONE_PATTERN, 'validation.phoneInvalid'));

/** Optional; an empty string is dropped (the form sends '' when the field was left blank). */
// A pipe, not a union with '': a union reported a too-long password as zod's bare "Invalid input".
const passwordField = z
  .string({ error: 'validation.passwordRequired' })
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(newPasswordField.optional());

/** A reference to another record: a positive id, or null/'' for none (null clears it on update). */
function referenceField(key: string) {
  return z
    .union([z.literal(''), z.null(), z.number({ error: key }).int(key).positive(key)], { error: key })
    .optional()
    .transform((v) => (v === '' ? null : v));
}

const baseFields = {
  code: requiredText('validation.codeRequired', 50),
  familyName: requiredText('validation.familyNameRequired', 100),
  givenName: requiredText('validation.givenNameRequired', 100),
  email: emailField,
  phone: phoneField,
  password: passwordField,
  userType: userTypeField,
  membershipStatus: membershipStatusField,
  isActive: z.boolean({ error: invalid }),
  classId: referenceField('validation.classInvalid'),
  managementDepartmentId: referenceField('validation.departmentInvalid'),
  trainingDepartmentId: referenceField('validation.departmentInvalid'),
  // The member record (issue 30 item 8); joining after birth is checked on the whole record (memberDateIssues).
  ...memberRecordFields,
};

/**
 * Create (000 §4 defaults, §5 rules). organizationId is optional; empty is dropped; when given the
 * user joins it and all its parents as 'member'.
 */
export const createUserSchema = z.object({
  ...baseFields,
  userType: userTypeField.default('student'),
  membershipStatus: membershipStatusField.default('none'),
  isActive: baseFields.isActive.optional(),
  organizationId: z
    .union([z.literal(''), z.null(), z.number().int().positive()], { error: 'validation.organizationInvalid' })
    .optional()
    .transform((v) => (v === '' || v === null ? undefined : v)),
});
export type CreateUserInput = z.input<typeof createUserSchema>;
export type CreateUser = z.output<typeof createUserSchema>;

/**
 * Edit: every field optional and validated when present. Memberships change through
 * PUT /users/{id}/organizations, so organizationId is not part of it (and is ignored).
 */
export const updateUserSchema = z.object(baseFields).partial();
export type UpdateUserInput = z.input<typeof updateUserSchema>;
export type UpdateUser = z.output<typeof updateUserSchema>;

export const userListQuery = z.object({
  page: z.coerce.number({ error: invalid }).int(invalid).min(1, invalid).default(1),
  limit: z.coerce.number({ error: invalid }).int(invalid).min(1, invalid).max(USER_LIST_LIMIT_MAX, invalid).default(10),
  /** Name, code, e-mail or phone; accents and case are ignored, every word must match. */
  search: z.string().trim().max(200, 'validation.textTooLong').optional(),
  userType: userTypeField.optional(),
  membershipStatus: membershipStatusField.optional(),
  /** Members of this organization or of any organization beneath it. */
  organizationId: z.coerce.number({ error: invalid }).int(invalid).positive(invalid).optional(),
  isActive: booleanQuery.optional(),
});
export type UserListQuery = z.infer<typeof userListQuery>;

export const userRefSchema = z.object({ id: z.number(), name: z.string() });

export const userSchema = z.object({
  id: z.number(),
  code: z.string(),
  familyName: z.string(),
  givenName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  userType: userTypeField,
  membershipStatus: membershipStatusField,
  isActive: z.boolean(),
  mustChangePassword: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  class: userRefSchema.nullable(),
  managementDepartment: userRefSchema.nullable(),
  trainingDepartment: userRefSchema.nullable(),
  ...memberRecordSchema.shape,
});
export type User = z.infer<typeof userSchema>;

/**
 * A users-screen row: the user and where they are an active member, each organization with its
 * ancestors, so the screen can run the 000 §6 check in the row's own organizations (check.ts).
 */
export const userListItemSchema = userSchema.extend({
  memberOf: z.array(z.object({ organizationId: z.number(), ancestorIds: z.array(z.number()) })),
  /** A fee or payment of theirs was paid: deleting them is refused (deactivate instead), so it is not offered. */
  hasPaidFees: z.boolean(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

export const userListResponse = z.object({
  users: z.array(userListItemSchema),
  total: z.number(),
  /** A search counted up to `total` and more match: the screen says "more than". */
  totalCapped: z.literal(true).optional(),
  page: z.number(),
  limit: z.number(),
  totalPages: z.number(),
});
export type UserListResponse = z.infer<typeof userListResponse>;

export const userMembershipSchema = z.object({
  organizationId: z.number(),
  isActive: z.boolean(),
  role: z.string(),
  joinedAt: z.string(),
  organization: z.object({
    id: z.number(),
    name: z.string(),
    code: z.string(),
    parentId: z.number().nullable(),
    type: organizationTypeSchema,
  }),
});
export type UserMembership = z.infer<typeof userMembershipSchema>;

export const userRoleLinkSchema = z.object({
  id: z.number(),
  roleId: z.number(),
  /** null: the role applies everywhere (global). */
  organizationId: z.number().nullable(),
  isActive: z.boolean(),
  role: z.object({ id: z.number(), name: z.string(), displayName: z.string(), isActive: z.boolean() }),
  /** Where the role applies (issue 26 item 3: shown beside it); null with organizationId null. */
  organization: z.object({ id: z.number(), name: z.string(), code: z.string(), type: organizationTypeSchema }).nullable(),
});
export type UserRoleLink = z.infer<typeof userRoleLinkSchema>;

export const userDetailSchema = userSchema.extend({
  organizations: z.array(userMembershipSchema),
  userRoles: z.array(userRoleLinkSchema),
  /** As in the list: deleting a user with paid fees is refused. */
  hasPaidFees: z.boolean(),
});
export type UserDetail = z.infer<typeof userDetailSchema>;

export const userBulkDeleteResponse = z.object({ deletedCount: z.number() });
export type UserBulkDeleteResponse = z.infer<typeof userBulkDeleteResponse>;

/**
 * Issue 15 part 6: what a member may change on their own profile. Only contact details: the
 * e-mail is the sign-in name and code, names, class and Đoàn/Hội status are the office's records.
 * Strict, so a body naming any other field is refused (400) instead of silently ignored.
 */
export const myProfileUpdateSchema = z
  .strictObject(
    // Issue 30 item 8: also religion and hometown, the member's own facts; the rest of the member
    // record (birth, gender, ethnicity, joining days) is the office's (MEMBER_EDITABLE_RECORD_FIELDS).
    { phone: phoneField.optional(), religion: memberRecordFields.religion, hometown: memberRecordFields.hometown },
    { error: 'validation.invalidValue' },
  )
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'validation.invalidValue' });
export type MyProfileUpdate = z.infer<typeof myProfileUpdateSchema>;

/** GET /auth/me/profile: the member's own record with its class, departments and memberships. */
export const myProfileSchema = userSchema.extend({ organizations: z.array(userMembershipSchema) });
export type MyProfile = z.infer<typeof myProfileSchema>;
