/**
 * POST /users/bulk-update (issue 30 item 6): one change applied to a selection of users, or to
 * every user the users list shows for a filter, with a preview (dryRun) first.
 */
import { z } from 'zod';
import { booleanQuery } from './common';
import { MEMBERSHIP_STATUSES, USER_TYPES } from './enums';
import { dayField, membershipEndReasonSchema } from './transfers';

/** At most this many refused rows are listed in an answer; the count says how many there were. */
export const USER_BULK_LISTED = 50;
/** Rows shown in a preview. */
export const USER_BULK_SAMPLE = 10;

const invalid = 'validation.invalidValue';
const reference = (key: string) => z.union([z.null(), z.number({ error: key }).int(key).positive(key)], { error: key }).optional();

/** The users list's own filters (GET /users): "all that match" is exactly what the officer sees. */
export const userBulkFilterSchema = z.strictObject(
  {
    search: z.string().trim().max(200, 'validation.textTooLong').optional(),
    userType: z.enum(USER_TYPES, { error: invalid }).optional(),
    membershipStatus: z.enum(MEMBERSHIP_STATUSES, { error: invalid }).optional(),
    organizationId: z.number({ error: invalid }).int(invalid).positive(invalid).optional(),
    // The list's query string says 'true'/'false'; a JSON body may say either.
    isActive: z.union([z.boolean(), booleanQuery], { error: invalid }).optional(),
  },
  { error: 'bulkEdit.validation.unknownFilter' },
);
export type UserBulkFilter = z.output<typeof userBulkFilterSchema>;
export type UserBulkFilterInput = z.input<typeof userBulkFilterSchema>;

/** What to set. Null clears a class or department; the membership actions name a unit. */
export const userBulkSetSchema = z
  .strictObject(
    {
      membershipStatus: z.enum(MEMBERSHIP_STATUSES, { error: invalid }).optional(),
      userType: z.enum(USER_TYPES, { error: invalid }).optional(),
      isActive: z.boolean({ error: invalid }).optional(),
      classId: reference('validation.classInvalid'),
      managementDepartmentId: reference('validation.departmentInvalid'),
      trainingDepartmentId: reference('validation.departmentInvalid'),
      /** Joins the unit and its parents where the caller may add members (as adding one member does). */
      addToOrganizationId: z.number({ error: 'validation.organizationInvalid' }).int().positive().optional(),
      /** Ends the membership in this unit (and beneath it), as POST /organizations/{id}/members/{userId}/end does. */
      endMembership: z
        .strictObject({
          organizationId: z.number({ error: 'validation.organizationInvalid' }).int().positive(),
          reason: membershipEndReasonSchema,
          endedAt: dayField.optional(),
          note: z.string().trim().max(500, 'transfers.validation.noteTooLong').optional().nullable(),
        })
        .optional(),
    },
    { error: 'bulkEdit.validation.unknownField' },
  )
  .refine((s) => Object.values(s).some((v) => v !== undefined), { error: 'bulkEdit.validation.nothingToSet' })
  .refine((s) => !(s.addToOrganizationId && s.endMembership), {
    error: 'bulkEdit.validation.oneMembershipAction',
    path: ['endMembership'],
  });
export type UserBulkSet = z.output<typeof userBulkSetSchema>;

export const userBulkUpdateSchema = z
  .strictObject(
    {
      // The configured cap (BULK_UPDATE_MAX_USERS) is checked by the API with its own answer; this only bounds the body.
      ids: z.array(z.number().int().positive(), { error: invalid }).min(1, 'validation.idsRequired').max(100_000).optional(),
      filter: userBulkFilterSchema.optional(),
      set: userBulkSetSchema,
      /** The preview: what would change and what would refuse it, nothing written. */
      dryRun: z.boolean({ error: invalid }).optional(),
    },
    { error: 'bulkEdit.validation.unknownField' },
  )
  .refine((b) => (b.ids ? 1 : 0) + (b.filter ? 1 : 0) === 1, { error: 'bulkEdit.validation.idsOrFilter', path: ['ids'] });
export type UserBulkUpdateInput = z.input<typeof userBulkUpdateSchema>;
export type UserBulkUpdate = z.output<typeof userBulkUpdateSchema>;

/** Why a row refuses the whole change. */
export const USER_BULK_REFUSALS = ['not_updatable', 'not_manageable', 'super_admin', 'self', 'not_addable', 'not_member'] as const;
export type UserBulkRefusalReason = (typeof USER_BULK_REFUSALS)[number];

const person = z.object({ id: z.number(), code: z.string(), familyName: z.string(), givenName: z.string() });

export const userBulkUpdateResponse = z.object({
  message: z.string(),
  dryRun: z.boolean(),
  /** Users the selection or filter holds. */
  matched: z.number(),
  /** Of them, those the change alters (the others already hold those values); with dryRun, would alter. */
  changed: z.number(),
  /** The most one change may touch (BULK_UPDATE_MAX_USERS); a preview over it cannot be confirmed. */
  cap: z.number(),
  sample: z.array(person),
  /** Rows that refuse the whole change, at most USER_BULK_LISTED of them. */
  refusals: z.array(person.extend({ reason: z.enum(USER_BULK_REFUSALS) })),
  refusedCount: z.number(),
});
export type UserBulkUpdateResponse = z.infer<typeof userBulkUpdateResponse>;
