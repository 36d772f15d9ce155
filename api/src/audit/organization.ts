/**
 * Which organization an audit row concerns (issue 15): derived once, where the row is written,
 * from the entity it names, so every service's audit() call is covered without each passing it,
 * and the backfill migration (0009_audit_organization_backfill) applies the same rules to old rows.
 * Users belong to several organizations, so user rows keep a null organization and name theirs
 * in audit_log_organizations instead (userAuditOrganizations below).
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { feeLevels, paymentAssignments, paymentCampaigns, paymentOrders, payosConfigs } from '../db/tables/payments';
import { allRows, firstRow } from '../db/engine';

export type AuditReader = Pick<Db, 'select'>;

const asId = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);
const field = (snap: unknown, key: string): unknown =>
  snap && typeof snap === 'object' ? (snap as Record<string, unknown>)[key] : undefined;

async function campaignOrg(db: AuditReader, campaignId: number | null): Promise<number | null> {
  if (campaignId == null) return null;
  return (
    (await firstRow(db.select({ org: paymentCampaigns.organizationId }).from(paymentCampaigns).where(eq(paymentCampaigns.id, campaignId))))
      ?.org ?? null
  );
}

export interface AuditTarget {
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
}

export async function auditOrganization(db: AuditReader, e: AuditTarget): Promise<number | null> {
  const id = asId(Number(e.entityId));
  // A deleted record is gone by the time its row is written: its `before` snapshot still names the owner.
  const snap = (key: string) => asId(field(e.after, key)) ?? asId(field(e.before, key));
  switch (e.entity) {
    case 'organization': {
      if (id == null) return null;
      const exists = await firstRow(db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, id)));
      // A deleted organization's row goes to its parent, whose admin saw it go.
      return exists ? id : snap('parentId');
    }
    case 'payment_campaign':
      return (await campaignOrg(db, id)) ?? snap('organizationId');
    case 'payos_config': {
      const row =
        id == null
          ? undefined
          : await firstRow(db.select({ org: payosConfigs.organizationId }).from(payosConfigs).where(eq(payosConfigs.id, id)));
      return row?.org ?? snap('organizationId') ?? (await campaignOrg(db, snap('campaignId')));
    }
    case 'fee_level': {
      const row =
        id == null ? undefined : await firstRow(db.select({ c: feeLevels.campaignId }).from(feeLevels).where(eq(feeLevels.id, id)));
      return campaignOrg(db, row?.c ?? snap('campaignId'));
    }
    case 'payment_assignment': {
      const row =
        id == null
          ? undefined
          : await firstRow(db.select({ c: paymentAssignments.campaignId }).from(paymentAssignments).where(eq(paymentAssignments.id, id)));
      const ids = field(e.after, 'campaignIds');
      // A batch job (overdue check) names its campaigns: one campaign is one organization.
      const single = Array.isArray(ids) && ids.length === 1 ? asId(ids[0]) : null;
      return campaignOrg(db, row?.c ?? snap('campaignId') ?? single);
    }
    case 'payment_order': {
      const row =
        id == null
          ? undefined
          : await firstRow(db.select({ c: paymentOrders.campaignId }).from(paymentOrders).where(eq(paymentOrders.id, id)));
      return campaignOrg(db, row?.c ?? snap('campaignId'));
    }
    default:
      // Entities added later (reminders, exemptions…) are covered when their snapshot names the organization or campaign.
      return snap('organizationId') ?? (await campaignOrg(db, snap('campaignId')));
  }
}

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.map(asId).filter((x): x is number => x != null) : []);

/** A role link as describeLinks writes it into user.roles.* snapshots. */
type Link = { roleId?: unknown; organizationId?: unknown; isActive?: unknown };
const linkKey = (l: Link) => `${String(l.roleId)}|${String(l.organizationId)}|${String(l.isActive)}`;

/** A user's active memberships now: for changes to the user itself (edit, own contact). */
export async function memberOrganizations(db: AuditReader, userId: number): Promise<number[]> {
  return (
    await allRows(
      db
        .select({ id: organizationMembers.organizationId })
        .from(organizationMembers)
        .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.isActive, true))),
    )
  ).map((r) => r.id);
}

/**
 * The organizations whose audit.access holders may read a change to a user (docs/decisions.md):
 * a role grant concerns the organizations of the links it added, removed or switched (a global link
 * none: global readers only); a membership change the organizations added or removed; a new user
 * the organizations it was put in; an edit the user's memberships at that moment. A deleted user's
 * memberships are gone when the row is written, so the service passes them (AuditEntry.organizationIds).
 * Sign-ins and other auth.* rows are not changes of an organization's data and stay global.
 */
export async function userAuditOrganizations(db: AuditReader, e: AuditTarget & { action: string }): Promise<number[]> {
  if (e.entity !== 'user') return [];
  const userId = asId(Number(e.entityId));
  if (e.action.startsWith('user.roles.')) {
    const before = (Array.isArray(e.before) ? e.before : []) as Link[];
    const after = (Array.isArray(e.after) ? e.after : []) as Link[];
    const was = new Set(before.map(linkKey));
    const is = new Set(after.map(linkKey));
    const changed = [...before.filter((l) => !is.has(linkKey(l))), ...after.filter((l) => !was.has(linkKey(l)))];
    return [...new Set(changed.map((l) => asId(l.organizationId)).filter((x): x is number => x != null))];
  }
  switch (e.action) {
    case 'membership.set':
      return [...new Set([...ids(field(e.after, 'added')), ...ids(field(e.after, 'removed'))])];
    case 'user.create':
      return ids(field(e.after, 'organizationIds'));
    case 'user.update':
    case 'user.update_own_contact':
      return userId == null ? [] : await memberOrganizations(db, userId);
    default:
      return [];
  }
}
