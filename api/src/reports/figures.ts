/**
 * The report's counting (issue 30 item 8), in SQL: the member counts of the unit's subtree that touch
 * the period, and the đoàn phí figures.
 *
 * A member is counted where they sit: a membership row counts only when its user has no membership
 * in a unit beneath it during the period (joining a chi đoàn also joins its parents, 000 §4; those
 * parent rows are not counted again). So the figures of a unit are its own plus its units' and the
 * tree adds up; a move between two chi đoàn is out of one and into the other at every level.
 * Each counted row is bucketed to the direct unit of the report's unit it lies under (or the unit
 * itself).
 *
 * Memberships of units with no unit beneath them always count (nothing lies beneath them): those are
 * read from report_member_cells (db/tables/reports.ts, trigger-kept per subtree), a few hundred rows per
 * direct unit instead of its members. Only the memberships of units with units beneath them (a
 * faculty's or the school's own rows) that no membership beneath them covers (report_live_members)
 * are read one by one, with the rule above.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { LEAVE_REASONS } from '@doanhoi/shared';
import { reportLiveMembers, reportMemberCells } from '../db/tables/reports';
import { sqlAll } from '../db/engine';
import { onPg } from '../db/dialect';

export interface MemberRow {
  bucket: number;
  membershipStatus: string;
  userType: string;
  gender: string;
  ethnicity: string;
  start: number;
  admitted: number;
  transferredIn: number;
  transferredOut: number;
  end: number;
  [reason: `left_${string}`]: number;
}

/** The Việt Nam calendar day (days since 1970) an instant falls in, as report_member_cells stores them. */
const vnDay = (ms: number) => Math.floor((ms + 7 * 3_600_000) / 86_400_000);

/**
 * `path`: the unit's materialised path; [fromMs, toMs) the period in epoch ms (whole Việt Nam days).
 * `cellUnits`: the units whose subtree is read from the kept counts, each its own bucket — the
 * direct units, and the unit itself when nothing lies beneath it.
 */
export async function memberRows(
  db: Db,
  unitId: number,
  path: string,
  fromMs: number,
  toMs: number,
  cellUnits: number[],
): Promise<MemberRow[]> {
  return [...(await keptRows(db, cellUnits, vnDay(fromMs), vnDay(toMs))), ...(await liveRows(db, unitId, path, fromMs, toMs))];
}

/** The counts kept per subtree (memberships of units with nothing beneath them), over whole days [fromDay, toDay). */
async function keptRows(db: Db, units: number[], fromDay: number, toDay: number): Promise<MemberRow[]> {
  if (units.length === 0) return [];
  const endedIn = sql`c.ended_day >= ${fromDay} AND c.ended_day < ${toDay}`;
  const reasonSums = LEAVE_REASONS.map(
    (r) => sql`sum(CASE WHEN ${endedIn} AND c.end_reason = ${r} THEN c.n ELSE 0 END) AS ${sql.identifier(`left_${r}`)}`,
  );
  return await sqlAll<MemberRow>(
    db,
    sql`
    SELECT c.organization_id AS bucket, c.membership_status AS "membershipStatus", c.user_type AS "userType", c.gender, c.ethnicity,
      sum(CASE WHEN c.joined_day < ${fromDay} THEN c.n ELSE 0 END) AS start,
      sum(CASE WHEN c.joined_day >= ${fromDay} AND c.transfer_in = 0 THEN c.n ELSE 0 END) AS admitted,
      sum(CASE WHEN c.joined_day >= ${fromDay} AND c.transfer_in = 1 THEN c.n ELSE 0 END) AS "transferredIn",
      sum(CASE WHEN ${endedIn} AND c.end_reason = 'transferred' THEN c.n ELSE 0 END) AS "transferredOut",
      ${sql.join(reasonSums, sql`, `)},
      sum(CASE WHEN c.ended_day = 0 OR c.ended_day >= ${toDay} THEN c.n ELSE 0 END) AS "end"
    FROM ${reportMemberCells} c
    WHERE c.organization_id IN (${sql.join(
      units.map((id) => sql`${id}`),
      sql`, `,
    )})
      AND c.n <> 0 AND c.joined_day < ${toDay} AND (c.ended_day = 0 OR c.ended_day >= ${fromDay})
    GROUP BY c.organization_id, c.membership_status, c.user_type, c.gender, c.ethnicity`,
  );
}

/**
 * Memberships of the subtree's units that have units beneath them, one by one with the "where they sit"
 * rule — only those report_live_members holds: a membership covered by one beneath it never counts.
 */
async function liveRows(db: Db, unitId: number, path: string, fromMs: number, toMs: number): Promise<MemberRow[]> {
  const hi = `${path.slice(0, -1)}0`; // '/1/5/' → '/1/50': every path beneath '/1/5/' sorts before it ('/' < '0')
  const joinedIn = sql`m.joined_at >= ${fromMs} AND m.joined_at < ${toMs}`;
  const endedIn = sql`m.ended_at >= ${fromMs} AND m.ended_at < ${toMs}`;
  const transfer = sql`EXISTS (SELECT 1 FROM transfers t WHERE t.user_id = m.user_id AND t.to_organization_id = m.organization_id AND t.status = 'ACCEPTED')`;
  const reasonSums = LEAVE_REASONS.map((r) =>
    r === 'other'
      ? sql`sum(CASE WHEN ${endedIn} AND (m.end_reason IS NULL OR m.end_reason = 'other') THEN 1 ELSE 0 END) AS ${sql.identifier(`left_${r}`)}`
      : sql`sum(CASE WHEN ${endedIn} AND m.end_reason = ${r} THEN 1 ELSE 0 END) AS ${sql.identifier(`left_${r}`)}`,
  );
  const rest = sql`substr(o.path, ${path.length + 1})`;
  const slashAt = onPg() ? sql`strpos(${rest}, '/')` : sql`instr(${rest}, '/')`;
  return await sqlAll<MemberRow>(
    db,
    sql`
    SELECT
      CASE WHEN o.id = ${unitId} THEN ${unitId} ELSE CAST(substr(${rest}, 1, ${slashAt} - 1) AS INTEGER) END AS bucket,
      u.membership_status AS "membershipStatus", u.user_type AS "userType", coalesce(u.gender, '') AS gender, coalesce(u.ethnicity, '') AS ethnicity,
      sum(CASE WHEN m.joined_at < ${fromMs} THEN 1 ELSE 0 END) AS start,
      sum(CASE WHEN ${joinedIn} AND NOT ${transfer} THEN 1 ELSE 0 END) AS admitted,
      sum(CASE WHEN ${joinedIn} AND ${transfer} THEN 1 ELSE 0 END) AS "transferredIn",
      sum(CASE WHEN ${endedIn} AND m.end_reason = 'transferred' THEN 1 ELSE 0 END) AS "transferredOut",
      ${sql.join(reasonSums, sql`, `)},
      sum(CASE WHEN m.ended_at IS NULL OR m.ended_at >= ${toMs} THEN 1 ELSE 0 END) AS "end"
    FROM organizations o
    JOIN ${reportLiveMembers} l ON l.organization_id = o.id
    JOIN organization_members m ON m.id = l.membership_id
    JOIN users u ON u.id = m.user_id
    WHERE o.path >= ${path} AND o.path < ${hi}
      AND m.joined_at < ${toMs}
      -- Active, or ended on a known day that is not before the period (a row switched off without a day is left out).
      AND (CASE WHEN m.is_active THEN m.ended_at IS NULL ELSE m.ended_at >= ${fromMs} END)
      AND NOT EXISTS (
        SELECT 1 FROM organization_members d JOIN organizations od ON od.id = d.organization_id
        WHERE d.user_id = m.user_id AND d.organization_id <> m.organization_id
          AND od.path > o.path AND od.path < substr(o.path, 1, length(o.path) - 1) || '0'
          AND d.joined_at < ${toMs} AND (CASE WHEN d.is_active THEN d.ended_at IS NULL ELSE d.ended_at >= ${fromMs} END)
      )
    -- By position: PostgreSQL reads a bare name as the input column, and sees the bucket's bound ids as a new expression.
    GROUP BY 1, 2, 3, 4, 5`,
  );
}

export interface DuesCampaign {
  id: number;
  name: string;
}

/**
 * Đoàn phí campaigns of the period: generated by the rule (a dues.generate audit row), starting in
 * it, organized by the unit, a unit above it or one beneath it.
 */
export async function duesCampaigns(db: Db, path: string, fromMs: number, toMs: number): Promise<DuesCampaign[]> {
  const hi = `${path.slice(0, -1)}0`;
  return await sqlAll<DuesCampaign>(
    db,
    sql`
    SELECT c.id, c.name FROM payment_campaigns c JOIN organizations o ON o.id = c.organization_id
    WHERE c.start_date >= ${fromMs} AND c.start_date < ${toMs} AND c.status <> 'CANCELLED'
      AND ((o.path >= ${path} AND o.path < ${hi}) OR ${path} LIKE o.path || '%')
      AND EXISTS (SELECT 1 FROM audit_logs a WHERE a.entity = 'payment_campaign' AND a.entity_id = CAST(c.id AS TEXT) AND a.action = 'dues.generate')
    ORDER BY c.id`,
  );
}

/** Per campaign and unit of the subtree: the money its members paid (campaign_figures, trigger-kept). */
export async function collectedRows(db: Db, path: string, campaignIds: number[]) {
  if (campaignIds.length === 0) return [];
  const hi = `${path.slice(0, -1)}0`;
  return await sqlAll<{ campaignId: number; organizationId: number; collected: number }>(
    db,
    sql`
    SELECT f.campaign_id AS "campaignId", f.organization_id AS "organizationId", f.collected
    FROM campaign_figures f JOIN organizations o ON o.id = f.organization_id
    WHERE f.campaign_id IN (${sql.join(
      campaignIds.map((id) => sql`${id}`),
      sql`, `,
    )}) AND o.path >= ${path} AND o.path < ${hi}`,
  );
}

/** Per campaign and sending unit: remittances confirmed by the level above, and those still waiting. */
export async function remittanceRows(db: Db, campaignIds: number[]) {
  if (campaignIds.length === 0) return [];
  return await sqlAll<{ campaignId: number; organizationId: number; confirmed: number; pending: number }>(
    db,
    sql`
    SELECT campaign_id AS "campaignId", from_organization_id AS "organizationId",
      sum(CASE WHEN status = 'CONFIRMED' THEN amount ELSE 0 END) AS confirmed,
      sum(CASE WHEN status = 'PENDING' THEN amount ELSE 0 END) AS pending
    FROM remittances WHERE campaign_id IN (${sql.join(
      campaignIds.map((id) => sql`${id}`),
      sql`, `,
    )}) AND status <> 'CANCELLED'
    GROUP BY campaign_id, from_organization_id`,
  );
}
