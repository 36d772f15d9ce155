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
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';

export const ORGANIZATION_NOT_FOUND = 'Không tìm thấy tổ chức';

export const ancestorIds = (path: string): number[] => path.split('/').filter(Boolean).map(Number);

async function orgPath(db: Db, organizationId: number): Promise<string> {
  const org = await firstRow(db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, organizationId)));
  if (!org) notFound(ORGANIZATION_NOT_FOUND);
  return org!.path;
}

/** The rate of each member type that applies in the organization: its own, the nearest above, or the rule. */
export async function effectiveRates(db: Db, organizationId: number): Promise<DuesRate[]> {
  const ids = ancestorIds(await orgPath(db, organizationId));
  const rows = await allRows(
    db
      .select({
        organizationId: duesRates.organizationId,
        memberType: duesRates.memberType,
        monthlyAmount: duesRates.monthlyAmount,
        name: organizations.name,
      })
      .from(duesRates)
      .innerJoin(organizations, eq(organizations.id, duesRates.organizationId))
      .where(inArray(duesRates.organizationId, ids)),
  );
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

export async function setRates(db: Db, actor: Actor, ip: string | null, input: UpdateDuesRates): Promise<DuesRate[]> {
  await orgPath(db, input.organizationId);
  const before = await effectiveRates(db, input.organizationId);
  await withTransaction(db, async (tx) => {
    for (const r of input.rates) {
      const key = and(eq(duesRates.organizationId, input.organizationId), eq(duesRates.memberType, r.memberType));
      if (r.monthlyAmount === null) {
        await runQuery(tx.delete(duesRates).where(key));
        continue;
      }
      await runQuery(
        tx
          .insert(duesRates)
          .values({ organizationId: input.organizationId, memberType: r.memberType, monthlyAmount: r.monthlyAmount, updatedBy: actor.id })
          .onConflictDoUpdate({
            target: [duesRates.organizationId, duesRates.memberType],
            set: { monthlyAmount: r.monthlyAmount, updatedBy: actor.id, updatedAt: new Date() },
          }),
      );
    }
    await audit(tx, {
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
export async function shareTable(db: Db): Promise<Map<string, Share>> {
  const rows = await allRows(db.select().from(duesShares));
  const map = new Map<string, Share>(ORGANIZATION_TYPES.map((t) => [t, { ...DEFAULT_KEEP_SHARE }]));
  for (const r of rows) map.set(r.organizationType, { keepNumerator: r.keepNumerator, keepDenominator: r.keepDenominator });
  return map;
}

export async function listShares(db: Db): Promise<DuesShare[]> {
  const own = new Set((await allRows(db.select({ t: duesShares.organizationType }).from(duesShares))).map((r) => r.t));
  const table = await shareTable(db);
  return ORGANIZATION_TYPES.map((organizationType) => ({
    organizationType,
    ...table.get(organizationType)!,
    isDefault: !own.has(organizationType),
  }));
}

export async function setShares(db: Db, actor: Actor, ip: string | null, input: UpdateDuesShares): Promise<DuesShare[]> {
  const before = await listShares(db);
  await withTransaction(db, async (tx) => {
    for (const s of input.shares) {
      const values = { keepNumerator: s.keepNumerator, keepDenominator: s.keepDenominator, updatedBy: actor.id };
      await runQuery(
        tx
          .insert(duesShares)
          .values({ organizationType: s.organizationType, ...values })
          .onConflictDoUpdate({ target: duesShares.organizationType, set: { ...values, updatedAt: new Date() } }),
      );
    }
    await audit(tx, {
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
