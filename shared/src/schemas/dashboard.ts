import { z } from 'zod';

const invalid = 'validation.invalidValue';
const id = z.coerce.number({ error: invalid }).int(invalid).positive(invalid);

/**
 * Every dashboard figure is read for one organization and its units (the header's current
 * organization), or without organizationId for everything the caller's grants reach.
 * format=xlsx answers the same figures as a workbook (each chart's "download").
 */
export const dashboardQuery = z.object({
  organizationId: id.optional(),
  format: z.enum(['json', 'xlsx'], { error: invalid }).default('json'),
});
export type DashboardQuery = z.infer<typeof dashboardQuery>;

export const dashboardWeeklyQuery = dashboardQuery.extend({ campaignId: id });
export type DashboardWeeklyQuery = z.infer<typeof dashboardWeeklyQuery>;

const unitRef = { organizationId: z.number(), name: z.string(), type: z.string() };

export const memberFiguresSchema = z.object({
  members: z.number(),
  /** Users whose status is doan_vien or both (resp. hoi_vien or both). */
  doanVien: z.number(),
  hoiVien: z.number(),
  /** Active memberships that began in the current term (docs/decisions.md). */
  joinsThisTerm: z.number(),
});

export const dashboardMembersSchema = z.object({
  term: z.object({ kind: z.enum(['hk1', 'hk2', 'summer']), start: z.string(), end: z.string() }),
  totals: memberFiguresSchema.extend({ organizations: z.number() }),
  units: z.array(z.object({ ...unitRef, ...memberFiguresSchema.shape })),
});
export type DashboardMembers = z.infer<typeof dashboardMembersSchema>;

export const collectionFiguresSchema = z.object({
  assigned: z.number(),
  /** Fees paid with real money. */
  paid: z.number(),
  /** Fees settled by sandbox (test) money: shown apart, never counted as paid or collected (issue 26 item 9). */
  testPaid: z.number(),
  /** Σ assignment amounts, as the campaign statistics count it. */
  expected: z.number(),
  collected: z.number(),
  overdueAmount: z.number(),
  overdueCount: z.number(),
  /** collected / expected in percent, one decimal. */
  rate: z.number(),
});
export type CollectionFigures = z.infer<typeof collectionFiguresSchema>;

export const dashboardCampaignsSchema = z.object({
  totals: collectionFiguresSchema,
  campaigns: z.array(
    collectionFiguresSchema.extend({ id: z.number(), name: z.string(), organizationName: z.string(), endDate: z.string() }),
  ),
  units: z.array(collectionFiguresSchema.extend(unitRef)),
  /** The units with the lowest collection rate (some fee assigned), worst first. */
  lagging: z.array(collectionFiguresSchema.extend(unitRef)),
});
export type DashboardCampaigns = z.infer<typeof dashboardCampaignsSchema>;

export const dashboardWeeklySchema = z.object({
  campaignId: z.number(),
  expected: z.number(),
  weeks: z.array(z.object({ weekStart: z.string(), collected: z.number(), payments: z.number(), cumulative: z.number() })),
});
export type DashboardWeekly = z.infer<typeof dashboardWeeklySchema>;
