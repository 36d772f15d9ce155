/**
 * GET /users/{id}/history (issue 30 item 3): a member's timeline — joined, transferred, left,
 * roles granted and taken, fees assigned, paid and adjusted — newest first, one event shape.
 */
import { z } from 'zod';
import { pageQuery } from './common';

export const USER_HISTORY_KINDS = [
  'joined',
  'left',
  'removed',
  'transfer_requested',
  'transfer_refused',
  'transfer_cancelled',
  'transferred',
  'role_granted',
  'role_revoked',
  'fee_assigned',
  'fee_paid',
  'fee_exempted',
  'fee_reduced',
  'fee_adjustment_revoked',
  'fee_reversed',
  'fee_refunded',
] as const;
export type UserHistoryKind = (typeof USER_HISTORY_KINDS)[number];

export const userHistoryQuery = pageQuery.extend({
  kind: z.enum(USER_HISTORY_KINDS, { error: 'validation.invalidValue' }).optional(),
});
export type UserHistoryQuery = z.output<typeof userHistoryQuery>;

/**
 * A record named by an event: its id when it still exists (null once deleted) and its name — the
 * record's own while it exists, else the name the audit row captured when it was written.
 */
const label = z.object({ id: z.number().int().nullable(), name: z.string() });
export type HistoryLabel = z.infer<typeof label>;

export const userHistoryEventSchema = z.object({
  /** Stable within the answer (list keys). */
  id: z.string(),
  /** ISO instant; for days (a transfer's effective day, a membership's end) the day's start in Vietnam. */
  at: z.string(),
  kind: z.enum(USER_HISTORY_KINDS),
  /** Who did it, when known (an online payment or an import has no officer). */
  actor: label.optional(),
  /** The unit joined, left or moved to; where a role applies (none: a global role). */
  organization: label.optional(),
  /** A transfer's sending unit. */
  fromOrganization: label.optional(),
  role: label.optional(),
  campaign: label.optional(),
  /** Integer VND: assigned, paid, waived, taken off, reversed or refunded. */
  amount: z.number().int().optional(),
  /**
   * left: the end reason code (graduated, over_age, moved_away, removed, deceased, other);
   * transfers, refusals, fee adjustments, reversals: the text the officer gave.
   */
  reason: z.string().optional(),
  note: z.string().optional(),
});
export type UserHistoryEvent = z.infer<typeof userHistoryEventSchema>;

export const userHistoryResponse = z.object({
  data: z.array(userHistoryEventSchema),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  totalPages: z.number().int(),
});
export type UserHistoryResponse = z.infer<typeof userHistoryResponse>;
