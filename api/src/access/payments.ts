/**
 * Where payment permissions are checked: every campaign, fee level, assignment and order belongs
 * to the campaign's organization, and 001 §6 codes are checked in that organization's context.
 */
import { hasPermission, permissionScope } from '@doanhoi/shared';
import { eq, like, or, sql, type Column, type SQL } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import type { Db } from '../db/client';
import type { OrganizationFrom } from './middleware';
import type { Actor, AppEnv } from '../lib/context';
import { forbidden, unauthorized } from '../lib/errors';
import { orgContext } from './organization-context';
import { organizations } from '../db/tables/organizations';
import { feeLevels, paymentAssignments, paymentCampaigns } from '../db/tables/payments';
import { firstRow } from '../db/engine';
import { mapInOrder } from '../lib/in-order';

export const P = {
  access: 'payment-campaigns.access',
  create: 'payment-campaigns.create',
  read: 'payment-campaigns.read',
  update: 'payment-campaigns.update',
  delete: 'payment-campaigns.delete',
  manage: 'payment-campaigns.manage_assignments',
  reports: 'payment-campaigns.view_reports',
  exempt: 'payment-campaigns.exempt',
  reverse: 'payment-campaigns.reverse_payment',
} as const;

const positive = (v: unknown): number | null => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : null;
};

export async function campaignOrganizationId(db: Db, campaignId: number | null): Promise<number | null> {
  if (campaignId == null) return null;
  return (
    (await firstRow(db.select({ o: paymentCampaigns.organizationId }).from(paymentCampaigns).where(eq(paymentCampaigns.id, campaignId))))
      ?.o ?? null
  );
}

/** The campaign named by a path parameter (`/payment-campaigns/:id`). */
export const fromCampaignParam =
  (name = 'id'): OrganizationFrom =>
  (c) =>
    campaignOrganizationId(c.get('deps').db, positive(c.req.param(name)));

export const fromCampaignQuery =
  (name = 'campaignId'): OrganizationFrom =>
  (c) =>
    campaignOrganizationId(c.get('deps').db, positive(c.req.query(name)));

/** The campaign named by the JSON body's campaignId (Hono caches the body, so validation reads it again). */
export const fromBodyCampaign: OrganizationFrom = async (c) => {
  const body = (await c.req.json().catch(() => null)) as { campaignId?: unknown } | null;
  return campaignOrganizationId(c.get('deps').db, positive(body?.campaignId));
};

export const fromFeeLevelParam: OrganizationFrom = async (c) => {
  const id = positive(c.req.param('id'));
  if (id == null) return null;
  const db = c.get('deps').db;
  return (
    (
      await firstRow(
        db
          .select({ o: paymentCampaigns.organizationId })
          .from(feeLevels)
          .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, feeLevels.campaignId))
          .where(eq(feeLevels.id, id)),
      )
    )?.o ?? null
  );
};

export async function assignmentOrganizationId(db: Db, id: number | null): Promise<number | null> {
  if (id == null) return null;
  return (
    (
      await firstRow(
        db
          .select({ o: paymentCampaigns.organizationId })
          .from(paymentAssignments)
          .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, paymentAssignments.campaignId))
          .where(eq(paymentAssignments.id, id)),
      )
    )?.o ?? null
  );
}

export const fromAssignmentParam: OrganizationFrom = (c) => assignmentOrganizationId(c.get('deps').db, positive(c.req.param('id')));

/** 403 unless one of the codes is held in the resolved organization. */
export function requireAnyPermission(codes: string[], organizationFrom: OrganizationFrom): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const actor = c.get('actor');
    if (!actor) unauthorized();
    const orgId = await organizationFrom(c);
    const ctx = orgId == null ? null : await orgContext(c.get('deps').db, orgId);
    if (!codes.some((code) => hasPermission(actor.roles, code, ctx))) forbidden();
    await next();
  };
}

/** Is the code held in this organization (its ancestors' organization roles and global roles count)? */
export async function can(db: Db, actor: Actor, code: string, organizationId: number): Promise<boolean> {
  return hasPermission(actor.roles, code, await orgContext(db, organizationId));
}

export async function assertCan(db: Db, actor: Actor, code: string, organizationId: number): Promise<void> {
  if (!(await can(db, actor, code, organizationId))) forbidden();
}

/** Subtrees where a code reaches: everything, or these organization paths and what lies beneath. */
export type OrgScope = { all: true } | { all: false; paths: string[] };

export async function orgScope(db: Db, actor: Actor, code: string): Promise<OrgScope> {
  const s = permissionScope(actor.roles, code);
  if (s.all) return { all: true };
  if (s.organizationIds.length === 0) return { all: false, paths: [] };
  const paths = await mapInOrder(
    s.organizationIds,
    async (id) => (await firstRow(db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, id))))?.path,
  );
  return { all: false, paths: [...new Set(paths.filter((p): p is string => !!p))].sort() };
}

/** The scope as a condition on an organization path column (paths are digits and '/', so no LIKE escaping). */
export function scopeCondition(scope: OrgScope, pathColumn: Column): SQL | undefined {
  if (scope.all) return undefined;
  // Nothing: a boolean on both engines (PostgreSQL refuses an integer as a condition).
  if (scope.paths.length === 0) return sql`1 = 0`;
  return or(...scope.paths.map((p) => like(pathColumn, `${p}%`)));
}

export function scopeKey(scope: OrgScope): string {
  return scope.all ? 'all' : scope.paths.join(',');
}

/** Per-request context services need besides the caller. */
export interface RequestInfo {
  ip: string | null;
  lang: 'vi' | 'en';
}

/** The organization named by the JSON body's organizationId (campaign creation). */
export const fromBodyOrganization: OrganizationFrom = async (c) => {
  const body = (await c.req.json().catch(() => null)) as { organizationId?: unknown } | null;
  return positive(body?.organizationId);
};
