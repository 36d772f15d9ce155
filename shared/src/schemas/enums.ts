import { z } from 'zod';

export const USER_TYPES = ['student', 'staff'] as const;
export const MEMBERSHIP_STATUSES = ['none', 'doan_vien', 'hoi_vien', 'both'] as const;
export const userTypeSchema = z.enum(USER_TYPES);
export const membershipStatusSchema = z.enum(MEMBERSHIP_STATUSES);
export type UserType = (typeof USER_TYPES)[number];
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

export const ORGANIZATION_TYPES = [
  'doan_truong',
  'doan_co_so',
  'chi_doan',
  'hoi_sinh_vien_truong',
  'lien_chi_hoi',
  'chi_hoi',
  'clb_truong',
  'clb_khoa',
] as const;
export const organizationTypeSchema = z.enum(ORGANIZATION_TYPES);
export type OrganizationType = (typeof ORGANIZATION_TYPES)[number];

export const CAMPAIGN_STATUSES = ['DRAFT', 'ACTIVE', 'COMPLETED', 'CANCELLED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
/** EXEMPTED: the fee was waived entirely (issue 15.3); nothing is owed or payable. */
export const ASSIGNMENT_STATUSES = ['PENDING', 'PAID', 'OVERDUE', 'EXEMPTED'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];
export const ORDER_STATUSES = ['PENDING', 'PAID', 'CANCELLED', 'EXPIRED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const PAYMENT_METHODS = ['MANUAL', 'ONLINE'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
