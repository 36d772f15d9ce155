/**
 * "Generate the year's (or semester's) campaign" (issue 30 item 4): the plan is read in SQL from
 * the unit's active members (months owed from the month they joined), shown as a preview, then
 * written in one transaction through the payments services, so every campaign, fee-level and
 * assignment rule (and its audit row) is the one those services already keep.
 */
import { fullName, monthIndex, parseVnDateTime, type DuesPlan, type DuesRate, type GenerateDues, type UserType } from '@doanhoi/shared';
import { sql, type SQL } from 'drizzle-orm';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { notFound, unprocessable } from '../lib/errors';
import { assertCan, P, type RequestInfo } from '../access/payments';
import { assignmentsService } from '../payments/assignments.service';
import { campaignsService } from '../payments/campaigns.service';
import { feeLevelsService } from '../payments/fee-levels.service';
import { effectiveRates, ORGANIZATION_NOT_FOUND, rateOf } from './rates';
import { sqlAll, sqlGet, withTransaction } from '../db/engine';
import { onPg } from '../db/dialect';
import { flatMapInOrder, forEachInOrder } from '../lib/in-order';

export const GENERATE_DUES = 'payment-campaigns.generate_dues';
const TYPE_LABEL: Record<UserType, string> = { student: 'Sinh viên', staff: 'Cán bộ' };
/** Assignments per bulk call: each call checks its users with one IN list (SQLite caps bound values). */
const CHUNK = 2000;
const EXAMPLES_PER_LEVEL = 3;

const monthLabel = (index: number) => `${String((index % 12) + 1).padStart(2, '0')}/${Math.floor(index / 12)}`;
const isoMonth = (index: number) => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;

interface MemberRow {
  userId: number;
  code: string;
  familyName: string;
  givenName: string;
  memberType: UserType;
  joinedAt: number;
  months: number;
}

/** The Vietnam-calendar month (year × 12 + month − 1) of an epoch-ms expression, as monthIndex counts them. */
function monthIndexSql(ms: SQL): SQL {
  if (onPg()) {
    const local = sql`timezone('UTC', to_timestamp((${ms} + 25200000) / 1000.0))`;
    return sql`(extract(year from ${local})::int * 12 + extract(month from ${local})::int - 1)`;
  }
  const local = sql`${ms} / 1000 + 25200, 'unixepoch'`;
  return sql`(cast(strftime('%Y', ${local}) as integer) * 12 + cast(strftime('%m', ${local}) as integer) - 1)`;
}

/**
 * Distinct active members (active accounts) of the subtree, with the months they owe: the whole
 * period when they joined before it began, else from the month they joined (Vietnam calendar);
 * 0 when they joined after it. A member of several units counts once, from their earliest joining.
 */
function membersSql(path: string, from: number, to: number, only?: { memberType: UserType; months: number; limit: number }) {
  const joinedMonth = monthIndexSql(sql`min(m.joined_at)`);
  const months = sql`CASE WHEN ${joinedMonth} <= ${from} THEN ${to - from + 1} WHEN ${joinedMonth} <= ${to} THEN ${to} - ${joinedMonth} + 1 ELSE 0 END`;
  // Grouped by the user's key alone: their other columns depend on it, which PostgreSQL accepts too.
  const base = sql`SELECT u.id AS "userId", u.code AS code, u.family_name AS "familyName", u.given_name AS "givenName", u.user_type AS "memberType", min(m.joined_at) AS "joinedAt", ${months} AS months
    FROM organization_members m JOIN organizations o ON o.id = m.organization_id JOIN users u ON u.id = m.user_id
    WHERE m.is_active = TRUE AND u.is_active = TRUE AND o.path LIKE ${`${path}%`} GROUP BY u.id`;
  if (!only) return base;
  return sql`SELECT * FROM (${base}) AS members WHERE "memberType" = ${only.memberType} AND months = ${only.months} ORDER BY "joinedAt" DESC, "userId" LIMIT ${only.limit}`;
}

export function duesService(deps: Deps, actor: Actor, req: RequestInfo) {
  const { db } = deps;

  async function unit(organizationId: number) {
    const org = await sqlGet<{ id: number; path: string; name: string }>(
      db,
      sql`SELECT id, path, name FROM organizations WHERE id = ${organizationId}`,
    );
    if (!org) notFound(ORGANIZATION_NOT_FOUND);
    return org!;
  }

  function levelName(memberType: UserType, months: number, total: number, from: number, to: number) {
    const base = `${TYPE_LABEL[memberType]} – ${months} tháng`;
    return months === total ? base : `${base} (từ ${monthLabel(to - months + 1)})`;
  }

  async function plan(input: GenerateDues): Promise<DuesPlan> {
    const org = await unit(input.organizationId);
    const from = monthIndex(input.fromMonth);
    const to = monthIndex(input.toMonth);
    const total = to - from + 1;
    const rates: DuesRate[] = await effectiveRates(db, org.id);
    const groups = await sqlAll<{ memberType: UserType; months: number; n: number }>(
      db,
      sql`SELECT "memberType", months, count(*) AS n FROM (${membersSql(org.path, from, to)}) AS members GROUP BY "memberType", months ORDER BY "memberType" DESC, months DESC`,
    );
    const levels = groups
      .filter((g) => g.months > 0)
      .map((g) => {
        const monthlyAmount = rateOf(rates, g.memberType);
        const amount = monthlyAmount * g.months;
        return {
          memberType: g.memberType,
          months: g.months,
          monthlyAmount,
          amount,
          levelName: levelName(g.memberType, g.months, total, from, to),
          proRata: g.months < total,
          count: g.n,
          total: amount * g.n,
        };
      });
    const examples = await flatMapInOrder(levels, async (l) =>
      (
        await sqlAll<MemberRow>(
          db,
          membersSql(org.path, from, to, { memberType: l.memberType, months: l.months, limit: EXAMPLES_PER_LEVEL }),
        )
      ).map((m) => ({
        userId: m.userId,
        code: m.code,
        fullName: fullName(m),
        memberType: m.memberType,
        joinedAt: new Date(m.joinedAt).toISOString(),
        months: m.months,
        amount: l.amount,
      })),
    );
    return {
      organizationId: org.id,
      fromMonth: isoMonth(from),
      toMonth: isoMonth(to),
      months: total,
      rates,
      levels,
      totalMembers: levels.reduce((s, l) => s + l.count, 0),
      totalAmount: levels.reduce((s, l) => s + l.total, 0),
      skippedAfterPeriod: groups.filter((g) => g.months <= 0).reduce((s, g) => s + g.n, 0),
      examples,
    };
  }

  async function checkRights(organizationId: number) {
    for (const code of [GENERATE_DUES, P.create, P.manage]) await assertCan(db, actor, code, organizationId);
  }

  return {
    async preview(input: GenerateDues): Promise<DuesPlan> {
      await checkRights(input.organizationId);
      return plan(input);
    },

    /** One transaction: the services' own transactions nest inside it as savepoints, so any refusal undoes all. */
    async generate(input: GenerateDues) {
      await checkRights(input.organizationId);
      const org = await unit(input.organizationId);
      const from = monthIndex(input.fromMonth);
      const to = monthIndex(input.toMonth);
      const startDate = `${isoMonth(from)}-01T00:00:00`;
      const last = new Date(Date.UTC(Math.floor(to / 12), (to % 12) + 1, 0)).getUTCDate();
      const endDate = input.dueDate ?? `${isoMonth(to)}-${String(last).padStart(2, '0')}T23:59:59`;
      if (parseVnDateTime(endDate, { endOfDay: true })!.getTime() <= parseVnDateTime(startDate)!.getTime()) {
        unprocessable('Hạn nộp phải sau tháng đầu của kỳ thu');
      }
      return await withTransaction(db, async (tx) => {
        const p = await plan(input);
        if (p.totalMembers === 0) unprocessable('Không có thành viên đang sinh hoạt nào phải đóng đoàn phí trong kỳ này');
        const campaigns = campaignsService(deps, actor, req);
        const levels = feeLevelsService(deps, actor, req);
        const assignments = assignmentsService(deps, actor, req);
        const campaign = await campaigns.create({
          organizationId: org.id,
          name: input.name,
          description: input.description ?? null,
          startDate,
          endDate,
        });
        const levelIds = new Map<string, number>();
        await forEachInOrder(p.levels, async (l, orderIndex) => {
          const description = `${l.monthlyAmount.toLocaleString('vi-VN')} ₫/tháng × ${l.months} tháng`;
          const created = await levels.create({
            campaignId: campaign.id,
            levelName: l.levelName,
            amount: l.amount,
            description,
            note: null,
            orderIndex,
          });
          levelIds.set(`${l.memberType}:${l.months}`, created.id);
        });
        const members = await sqlAll<Pick<MemberRow, 'userId' | 'memberType' | 'months'>>(
          tx,
          sql`SELECT "userId", "memberType", months FROM (${membersSql(org.path, from, to)}) AS members WHERE months > 0 ORDER BY "userId"`,
        );
        let created = 0;
        for (let i = 0; i < members.length; i += CHUNK) {
          const entries = members.slice(i, i + CHUNK).map((m) => ({
            campaignId: campaign.id,
            userId: m.userId,
            feeLevelId: levelIds.get(`${m.memberType}:${m.months}`)!,
            notes: null,
          }));
          created += (await assignments.bulk(entries)).createdCount;
        }
        await audit(tx, {
          actorId: actor.id,
          ip: req.ip,
          action: 'dues.generate',
          entity: 'payment_campaign',
          entityId: campaign.id,
          after: {
            organizationId: org.id,
            fromMonth: p.fromMonth,
            toMonth: p.toMonth,
            levels: p.levels.map((l) => ({ levelName: l.levelName, amount: l.amount, count: l.count })),
            totalAmount: p.totalAmount,
          },
        });
        return { campaign: await campaigns.get(campaign.id), plan: p, assignmentsCreated: created };
      });
    },
  };
}
