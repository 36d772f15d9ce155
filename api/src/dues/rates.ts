/**
 * Đoàn phí rates (issue 30 item 4): a monthly amount per member type set on an organization and
 * inherited down the tree, and the kept share per organization type (item 5). Each read is a
 * handful of rows: the path's ancestors, or the eight organization types.
 */
import {
  DEFAULT_DUES_RATES,
  DEFAULT_KEEP_SHARE,
  ORGANIZATION_TYPES,
  USER_TYPES,
  type DuesRate,
  type DuesShare,
  type UpdateDuesRates,
  type UpdateDuesShares,
  type UserType,
} from '@doanhoi/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { audit } from '../audit/writer';
import type { Actor } from '../lib/context';
import { notFound } from '../lib/errors';
import { organizations } from '../db/tables/organizations';
import { duesRates, duesShares } from '../db/tables/dues';

export const ORGANIZATION_NOT_FOUND = 'Không tìm thấy tổ chức';

export const ancestorIds = (path: string): number[] => path.split('/').filter(Boolean).map(Number);

function orgPath(db: Db, organizationId: number): string {
  const org = db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, organizationId)).get();
  if (!org) notFound(ORGANIZATION_NOT_FOUND);
  return org!.path;
}

/** The rate of each member type that applies in the organization: its own, the nearest above, or the rule. */
export function effectiveRates(db: Db, organizationId: number): DuesRate[] {
  const ids = ancestorIds(orgPath(db, organizationId));
  const rows = db
    .select({
      organizationId: duesRates.organizationId,
      memberType: duesRates.memberType,
      monthlyAmount: duesRates.monthlyAmount,
      name: organizations.name,
    })
    .from(duesRates)
    .innerJoin(organizations, eq(organizations.id, duesRates.organizationId))
    .where(inArray(duesRates.organizationId, ids))
    .all();
  const depth = new Map(ids.map((id, i) => [id, i]));
  return USER_TYPES.map((memberType) => {
    const nearest = rows
      .filter((r) => r.memberType === memberType)
      .sort((a, b) => depth.get(b.organizationId)! - depth.get(a.organizationId)!)[0];
    if (!nearest)
      return {
        memberType,
        monthlyAmount: DEFAULT_DUES_RATES[memberType],
        source: 'default' as const,
        sourceOrganizationId: null,
        sourceOrganizationName: null,
      };
    return {
      memberType,
      monthlyAmount: nearest.monthlyAmount,
      source: nearest.organizationId === organizationId ? ('own' as const) : ('inherited' as const),
      sourceOrganizationId: nearest.organizationId,
      sourceOrganizationName: nearest.name,
    };
  });
}

export function rateOf(rates: DuesRate[], memberType: UserType): number {
  return rates.find((r) => r.memberType === memberType)!.monthlyAmount;
}

export function setRates(db: Db, actor: Actor, ip: string | null, input: UpdateDuesRates): DuesRate[] {
  orgPath(db, input.organizationId);
  const before = effectiveRates(db, input.organizationId);
  db.transaction((tx) => {
    for (const r of input.rates) {
      const key = and(eq(duesRates.organizationId, input.organizationId), eq(duesRates.memberType, r.memberType));
      if (r.monthlyAmount === null) {
        tx.delete(duesRates).where(key).run();
        continue;
      }
      tx.insert(duesRates)
        .values({ organizationId: input.organizationId, memberType: r.memberType, monthlyAmount: r.monthlyAmount, updatedBy: actor.id })
        .onConflictDoUpdate({
          target: [duesRates.organizationId, duesRates.memberType],
          set: { monthlyAmount: r.monthlyAmount, updatedBy: actor.id, updatedAt: new Date() },
        })
        .run();
    }
    audit(tx, {
      actorId: actor.id,
      ip,
      action: 'dues.rates_update',
      entity: 'organization',
      entityId: input.organizationId,
      organizationId: input.organizationId,
      before: Object.fromEntries(before.map((r) => [r.memberType, r.source === 'own' ? r.monthlyAmount : null])),
      after: Object.fromEntries(input.rates.map((r) => [r.memberType, r.monthlyAmount])),
    });
  });
  return effectiveRates(db, input.organizationId);
}

type Share = { keepNumerator: number; keepDenominator: number };

/** The kept share of every organization type (2/3 where none was set). */
export function shareTable(db: Db): Map<string, Share> {
  const rows = db.select().from(duesShares).all();
  const map = new Map<string, Share>(ORGANIZATION_TYPES.map((t) => [t, { ...DEFAULT_KEEP_SHARE }]));
  for (const r of rows) map.set(r.organizationType, { keepNumerator: r.keepNumerator, keepDenominator: r.keepDenominator });
  return map;
}

export function listShares(db: Db): DuesShare[] {
  const own = new Set(
    db
      .select({ t: duesShares.organizationType })
      .from(duesShares)
      .all()
      .map((r) => r.t),
  );
  const table = shareTable(db);
  return ORGANIZATION_TYPES.map((organizationType) => ({
    organizationType,
    ...table.get(organizationType)!,
    isDefault: !own.has(organizationType),
  }));
}

export function setShares(db: Db, actor: Actor, ip: string | null, input: UpdateDuesShares): DuesShare[] {
  const before = listShares(db);
  db.transaction((tx) => {
    for (const s of input.shares) {
      const values = { keepNumerator: s.keepNumerator, keepDenominator: s.keepDenominator, updatedBy: actor.id };
      tx.insert(duesShares)
        .values({ organizationType: s.organizationType, ...values })
        .onConflictDoUpdate({ target: duesShares.organizationType, set: { ...values, updatedAt: new Date() } })
        .run();
    }
    audit(tx, {
      actorId: actor.id,
      ip,
      action: 'dues.shares_update',
      entity: 'dues_share',
      organizationId: null,
      before,
      after: input.shares,
    });
  });
  return listShares(db);
}
