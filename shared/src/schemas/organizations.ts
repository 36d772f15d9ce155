import { z } from 'zod';
import { sessionUserSchema } from './auth';
import { cleanLine, cleanText, messageResponse } from './common';
import { ORGANIZATION_TYPES, organizationTypeSchema, type OrganizationType } from './enums';

/** 000 §5: which type may sit under which (roots have none). */
export const ALLOWED_PARENTS: Record<OrganizationType, readonly OrganizationType[]> = {
  doan_truong: [],
  hoi_sinh_vien_truong: [],
  doan_co_so: ['doan_truong'],
  chi_doan: ['doan_co_so'],
  lien_chi_hoi: ['hoi_sinh_vien_truong'],
  clb_truong: ['hoi_sinh_vien_truong'],
  chi_hoi: ['lien_chi_hoi'],
  clb_khoa: ['lien_chi_hoi'],
};

/**
 * 000 §5: the parent used when none is given. Only types whose parent is a root have one; chi_doan,
 * chi_hoi and clb_khoa sit under a faculty-level organization, so the caller must name it.
 */
export const DEFAULT_PARENT_ROOT: Partial<Record<OrganizationType, OrganizationType>> = {
  clb_truong: 'hoi_sinh_vien_truong',
  lien_chi_hoi: 'hoi_sinh_vien_truong',
  doan_co_so: 'doan_truong',
};

export const ROOT_TYPES: readonly OrganizationType[] = ORGANIZATION_TYPES.filter((t) => ALLOWED_PARENTS[t].length === 0);

const text = (key: string, max = 200) =>
  z.string({ error: key }).overwrite(cleanLine).trim().min(1, { error: key, abort: true }).max(max, 'validation.textTooLong');

export const createOrganizationSchema = z.object({
  name: text('validation.nameRequired'),
  code: text('validation.codeRequired', 50),
  type: organizationTypeSchema,
  description: z.string().overwrite(cleanText).trim().max(1000, 'validation.textTooLong').nullish(),
  parentId: z.number().int().positive().nullish(),
});
export type CreateOrganizationInput = z.input<typeof createOrganizationSchema>;

export const updateOrganizationSchema = z.object({
  name: text('validation.nameRequired').optional(),
  code: text('validation.codeRequired', 50).optional(),
  type: organizationTypeSchema.optional(),
  description: z.string().overwrite(cleanText).trim().max(1000, 'validation.textTooLong').nullish(),
  /** Accepted only when unchanged: organizations are not moved (the API answers 400 otherwise). */
  parentId: z.number().int().positive().nullish(),
});

export const organizationListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(1000).default(1000),
  search: z.string().trim().max(200).optional(),
  type: organizationTypeSchema.optional(),
});

/**
 * GET /organizations/accessible: without parameters every visible organization (the old call);
 * pickers ask for what they show: `search` (words of the name or code), `limit`, and `ids` (the
 * organizations a picker must label, e.g. the current one, comma-separated).
 */
export const accessibleOrganizationsQuery = z.object({
  search: z.string().trim().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  ids: z
    .string()
    .regex(/^\d{1,10}(,\d{1,10}){0,99}$/)
    .transform((s) => s.split(',').map(Number))
    .optional(),
  /** true: only where the caller holds organizations.access (the header's unit switcher), not units they merely belong to. */
  actionable: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});

export const organizationMembersQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  search: z.string().trim().max(200).optional(),
  /** Issue 30 item 2: active members (default) or those whose membership ended, with its date and reason. */
  status: z.enum(['active', 'ended']).default('active'),
});

/** GET /organizations/{id}/officers (issue 26 item 3): `inherited` adds the roles held in the units above it. */
export const organizationOfficersQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  inherited: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

export const addMemberSchema = z.object({ role: z.string().trim().min(1).max(50).default('member') }).default({ role: 'member' });
export const bulkRemoveMembersSchema = z.object({
  userIds: z.array(z.number().int().positive()).min(1, 'validation.idsRequired').max(1000),
});
export const addMemberByCodeSchema = z
  .object({ userCode: z.string().trim().max(50).optional(), role: z.string().trim().max(50).optional() })
  .default({});
export const setUserOrganizationsSchema = z.object({ organizationIds: z.array(z.number().int().positive()).max(500) });

/** An organization as the list, children and detail calls return it. */
export const organizationSummarySchema = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
  type: organizationTypeSchema,
  description: z.string().nullable(),
  parentId: z.number().nullable(),
  /** Depth in the tree, the root being 1. */
  level: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OrganizationSummary = z.infer<typeof organizationSummarySchema>;

/** A row of GET /organizations: the summary plus what pickers show and check (parent name, ancestors from the root). */
export const organizationListItemSchema = organizationSummarySchema.extend({
  parentName: z.string().nullable(),
  ancestorIds: z.array(z.number()),
});
export type OrganizationListItem = z.infer<typeof organizationListItemSchema>;

export const organizationListResponse = z.object({
  data: z.array(organizationListItemSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  totalPages: z.number(),
});

export const organizationRefSchema = z.object({ id: z.number(), name: z.string(), code: z.string(), type: organizationTypeSchema });
export type OrganizationRef = z.infer<typeof organizationRefSchema>;

/** GET /organizations/accessible: what the organization pickers show. */
export const accessibleOrganizationSchema = organizationRefSchema.extend({
  parentId: z.number().nullable(),
  description: z.string().nullable(),
});

/** GET /organizations/{id} and /organizations/by-type-code/{type}/{code}. */
export const organizationDetailSchema = organizationSummarySchema.extend({
  parent: organizationRefSchema.nullable(),
  /** Each child with its own active members (000 §2 rows show a member count); null to a caller without organizations.view_member_count, as in the tree. */
  children: z.array(organizationSummarySchema.extend({ memberCount: z.number().nullable() })),
  hasChildren: z.boolean(),
  memberCount: z.number(),
  /** Campaigns of this organization: with children or members, they make DELETE refuse (the admin disables it, issue 25 item 6). */
  campaignCount: z.number(),
  /** From the root down to the organization itself. */
  breadcrumb: z.array(organizationRefSchema),
});
export type OrganizationDetail = z.infer<typeof organizationDetailSchema>;

export interface OrganizationNode extends Pick<OrganizationSummary, 'id' | 'name' | 'code' | 'type' | 'description' | 'parentId'> {
  memberCount: number | null;
  hasChildren: boolean;
  children: OrganizationNode[];
}
/** GET /organizations/tree (nested) and /organizations/{id}/child-nodes (one level, children empty). */
export const organizationNodeSchema: z.ZodType<OrganizationNode> = z.lazy(() =>
  organizationSummarySchema
    .pick({ id: true, name: true, code: true, type: true, description: true, parentId: true })
    .extend({ memberCount: z.number().nullable(), hasChildren: z.boolean(), children: z.array(organizationNodeSchema) }),
);

/** Distinct members by users.membershipStatus: both, doan_vien only, hoi_vien only, neither. */
const membershipSplitSchema = z.object({ both: z.number(), onlyDoanVien: z.number(), onlyHoiVien: z.number(), neither: z.number() });
export type MembershipSplit = z.infer<typeof membershipSplitSchema>;
/** A group's members: one count per organization type of the group, plus the split. */
const statsMembers = membershipSplitSchema.catchall(z.number());
export type StatsBlock = Record<string, number>;

/**
 * GET /organizations/stats (000 §3): per group, organizations (total and per type) and a members
 * block with the same keys (distinct active members) plus that group's membership split.
 */
export const organizationStatsSchema = z.object({
  doanStats: z.object({ total: z.number(), doanTruong: z.number(), doanCoSo: z.number(), chiDoan: z.number(), members: statsMembers }),
  hoiStats: z.object({
    total: z.number(),
    hoiSinhVienTruong: z.number(),
    lienChiHoi: z.number(),
    chiHoi: z.number(),
    members: statsMembers,
  }),
  clbStats: z.object({ total: z.number(), clbTruong: z.number(), clbKhoa: z.number(), members: statsMembers }),
  /** Distinct active members over every organization counted. */
  totalMembers: z.number(),
  membershipBreakdown: membershipSplitSchema,
  /** Issue 26 item 4: the same members per user type, each with its total and Đoàn/Hội split. */
  byUserType: z.object({
    student: membershipSplitSchema.extend({ total: z.number() }),
    staff: membershipSplitSchema.extend({ total: z.number() }),
  }),
});
export type OrganizationStats = z.infer<typeof organizationStatsSchema>;

/**
 * One role held in a unit: who, which role, and where it is held (this unit, or with `inherited`
 * a unit above it, whose roles apply here too by 000 §6).
 */
export const organizationOfficerSchema = z.object({
  id: z.number(),
  user: z.object({ id: z.number(), code: z.string(), familyName: z.string(), givenName: z.string(), email: z.string() }),
  role: z.object({ id: z.number(), name: z.string(), displayName: z.string(), isActive: z.boolean() }),
  organization: organizationRefSchema,
  inherited: z.boolean(),
});
export type OrganizationOfficer = z.infer<typeof organizationOfficerSchema>;
export const organizationOfficersResponse = z.object({
  data: z.array(organizationOfficerSchema),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  totalPages: z.number(),
});
export type OrganizationOfficersResponse = z.infer<typeof organizationOfficersResponse>;

/** GET /organizations/{id}/members. */
export const organizationMembersResponse = z.object({
  members: z.array(
    z.object({
      user: sessionUserSchema,
      role: z.string(),
      joinedAt: z.string(),
      // Set on an ended membership (?status=ended).
      endedAt: z.string().nullable().optional(),
      endReason: z.string().nullable().optional(),
      endNote: z.string().nullable().optional(),
    }),
  ),
  total: z.number(),
  page: z.number(),
  limit: z.number(),
  totalPages: z.number(),
});
export type OrganizationMember = z.infer<typeof organizationMembersResponse>['members'][number];

/** Adding members: how many memberships were created (the organization and, with parents, those above). */
export const memberAddedResponse = messageResponse.extend({ added: z.number() });
export const membersRemovedResponse = messageResponse.extend({ removedCount: z.number() });
/**
 * Removing a member (issue 25 item 11): a choice of levels, each naming exactly which of the
 * member's units they leave (the level and everything beneath it) and which units above it they
 * stay in. `recommended` is the level the 000 §4 rule gives: the unit, and each parent that is no
 * longer the parent of another unit of theirs, as far as the caller may remove.
 */
export const memberRemovalOptionSchema = z.object({
  organization: organizationRefSchema,
  leaves: z.array(organizationRefSchema),
  staysIn: z.array(organizationRefSchema),
});
export type MemberRemovalOption = z.infer<typeof memberRemovalOptionSchema>;
export const memberRemovalPlanSchema = z.object({ recommended: z.number(), options: z.array(memberRemovalOptionSchema) });
export type MemberRemovalPlan = z.infer<typeof memberRemovalPlanSchema>;
/** DELETE /organizations/:id/members/:userId?from=: the level to leave (default: the recommended one). */
export const memberRemovalQuery = z.object({ from: z.coerce.number().int().positive().optional() });
export const memberRemovedResponse = messageResponse.extend({
  removed: z.array(organizationRefSchema),
  staysIn: z.array(organizationRefSchema),
});
export const userOrganizationsResponse = messageResponse.extend({ added: z.number(), removed: z.number(), keptParents: z.number() });
