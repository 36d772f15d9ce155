/**
 * Transfers (chuyển sinh hoạt) and the end of a membership (issue 30 items 1, 2): request and
 * response schemas shared by the API, the admin and the portal.
 */
import { z } from 'zod';
import { messageResponse } from './common';
import { organizationRefSchema } from './organizations';

/** Why a membership ended; 'transferred' is written only by an accepted transfer. */
export const MEMBERSHIP_END_REASONS = ['graduated', 'over_age', 'moved_away', 'removed', 'deceased', 'other'] as const;
export const membershipEndReasonSchema = z.enum(MEMBERSHIP_END_REASONS, { message: 'validation.endReason' });
export type MembershipEndReason = (typeof MEMBERSHIP_END_REASONS)[number] | 'transferred';

export const TRANSFER_STATUSES = ['PENDING', 'ACCEPTED', 'REFUSED', 'CANCELLED'] as const;
export const transferStatusSchema = z.enum(TRANSFER_STATUSES);
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day 'YYYY-MM-DD' (an ISO date-time is cut to its day) between 1950 and next year. */
export const dayField = z
  .string({ message: 'validation.dayInvalid' })
  .trim()
  .transform((v) => (/^\d{4}-\d{2}-\d{2}T/.test(v) ? v.slice(0, 10) : v))
  .refine((v) => {
    if (!DAY.test(v)) return false;
    const d = new Date(`${v}T00:00:00Z`);
    if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) return false;
    const year = d.getUTCFullYear();
    return year >= 1950 && year <= new Date().getUTCFullYear() + 1;
  }, 'validation.dayInvalid');

/** POST /organizations/{id}/members/{userId}/end */
export const endMembershipSchema = z.object({
  reason: membershipEndReasonSchema,
  /** Defaults to today. */
  endedAt: dayField.optional(),
  note: z.string().trim().max(500, 'validation.textTooLong').optional().nullable(),
});
export type EndMembershipInput = z.input<typeof endMembershipSchema>;

/** POST /organizations/{id}/members/bulk-end: the year-end action, on chosen members or on every active member of a class. */
export const bulkEndMembershipsSchema = endMembershipSchema
  .extend({
    userIds: z.array(z.number().int().positive()).min(1, 'validation.idsRequired').max(5000).optional(),
    classId: z.number().int().positive().optional(),
  })
  .refine((v) => (v.userIds ? 1 : 0) + (v.classId ? 1 : 0) === 1, { message: 'validation.endSelection', path: ['userIds'] });

export const membershipEndedResponse = messageResponse.extend({
  ended: z.array(organizationRefSchema),
  staysIn: z.array(organizationRefSchema),
});
export const membershipsEndedResponse = messageResponse.extend({ endedCount: z.number(), memberships: z.number() });

/** POST /transfers */
export const createTransferSchema = z.object({
  userId: z.number({ message: 'validation.userRequired' }).int().positive(),
  fromOrganizationId: z.number({ message: 'validation.transferFrom' }).int().positive(),
  toOrganizationId: z.number({ message: 'validation.transferTo' }).int().positive(),
  reason: z.string({ message: 'validation.transferReason' }).trim().min(1, 'validation.transferReason').max(500, 'validation.textTooLong'),
  effectiveDate: dayField,
});
export type CreateTransferInput = z.input<typeof createTransferSchema>;

export const refuseTransferSchema = z.object({
  reason: z.string({ message: 'validation.refuseReason' }).trim().min(1, 'validation.refuseReason').max(500, 'validation.textTooLong'),
});

export const transferListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  status: transferStatusSchema.optional(),
  organizationId: z.coerce.number().int().positive().optional(),
  /** 'incoming': to the caller's units (theirs to decide), 'outgoing': from them. */
  direction: z.enum(['incoming', 'outgoing']).optional(),
  userId: z.coerce.number().int().positive().optional(),
});

/** GET /transfers/candidate: a member by code, for the request dialogs. */
export const transferCandidateQuery = z.object({
  code: z.string().trim().min(1, 'validation.codeRequired').max(50),
  toOrganizationId: z.coerce.number().int().positive().optional(),
});

/** GET /transfers/units: the units a member may ask to move to (the portal's picker). */
export const transferUnitsQuery = z.object({
  search: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

const person = z.object({ id: z.number(), code: z.string(), familyName: z.string(), givenName: z.string() });

export const transferSchema = z.object({
  id: z.number(),
  status: transferStatusSchema,
  userId: z.number(),
  fromOrganizationId: z.number(),
  toOrganizationId: z.number(),
  user: person,
  fromOrganization: organizationRefSchema,
  toOrganization: organizationRefSchema,
  reason: z.string(),
  effectiveDate: z.string(),
  /** Who asked: the sending unit (or the member) or the receiving unit; the other side decides. */
  requestedSide: z.enum(['from', 'to']),
  requestedBy: person.nullable(),
  createdAt: z.string(),
  decidedBy: person.nullable(),
  decidedAt: z.string().nullable(),
  refuseReason: z.string().nullable(),
  /** What the caller may do with it now. */
  canDecide: z.boolean(),
  canCancel: z.boolean(),
});
export type Transfer = z.infer<typeof transferSchema>;

export const transferListResponse = z.object({
  data: z.array(transferSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  totalPages: z.number(),
});

export const transferUnitsResponse = z.array(organizationRefSchema);

export const transferCandidateResponse = z.object({ user: person, units: z.array(organizationRefSchema), pending: z.boolean() });
export type TransferCandidate = z.infer<typeof transferCandidateResponse>;
