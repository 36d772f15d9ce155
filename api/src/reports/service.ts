/**
 * GET /reports/membership (issue 30 item 8): the unit and its direct units. The unit's `own` figures
 * are what sits in it directly (not in a unit below), its `total` its own plus each direct unit's
 * total, so the total row is the sum of the rows above it; a direct unit's row is its whole subtree
 * (own = total; ask for that unit to see its own units). Counting runs in SQL (figures.ts); here the grouped rows
 * are folded into the response and the đoàn phí cascade walks the subtree's units once per campaign.
 */
import {
  LEAVE_REASONS,
  REPORT_GROUPS,
  type DuesFigures,
  type MembershipReport,
  type Movement,
  type ReportFigures,
  type ReportGroup,
  type ReportQuery,
} from '@doanhoi/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { shareTable } from '../dues/rates';
import { notFound } from '../lib/errors';
import { freshCache } from '../lib/freshness';
import { collectedRows, duesCampaigns, memberRows, remittanceRows, type MemberRow } from './figures';
import { sqlAll, sqlGet } from '../db/engine';

/** A calendar day's first instant in Việt Nam (UTC+7), as the membership days are stored. */
const dayStartMs = (day: string) => Date.parse(`${day}T00:00:00+07:00`);

const emptyMovement = (): Movement => ({
  start: 0,
  admitted: 0,
  transferredIn: 0,
  transferredOut: 0,
  left: 0,
  leftByReason: Object.fromEntries(LEAVE_REASONS.map((r) => [r, 0])) as Movement['leftByReason'],
  end: 0,
});
const emptyDues = (): DuesFigures => ({ collected: 0, kept: 0, owedUp: 0, remitted: 0, pending: 0 });
const emptyFigures = (): ReportFigures => ({
  ...emptyMovement(),
  groups: Object.fromEntries(REPORT_GROUPS.map((g) => [g, emptyMovement()])) as ReportFigures['groups'],
  ethnicities: {},
  dues: emptyDues(),
});

function addMovement(into: Movement, m: Movement) {
  into.start += m.start;
  into.admitted += m.admitted;
  into.transferredIn += m.transferredIn;
  into.transferredOut += m.transferredOut;
  into.left += m.left;
  for (const r of LEAVE_REASONS) into.leftByReason[r] += m.leftByReason[r];
  into.end += m.end;
}

function addFigures(into: ReportFigures, f: ReportFigures) {
  addMovement(into, f);
  for (const g of REPORT_GROUPS) addMovement(into.groups[g], f.groups[g]);
  for (const [code, e] of Object.entries(f.ethnicities)) {
    const t = (into.ethnicities[code] ??= { start: 0, end: 0 });
    t.start += e.start;
    t.end += e.end;
  }
}

/** The groups a grouped row counts in: Đoàn and/or Hội, its member type, its gender. */
function groupsOf(r: MemberRow): ReportGroup[] {
  const out: ReportGroup[] = [];
  if (r.membershipStatus === 'doan_vien' || r.membershipStatus === 'both') out.push('doan');
  if (r.membershipStatus === 'hoi_vien' || r.membershipStatus === 'both') out.push('hoi');
  out.push(r.userType === 'staff' ? 'staff' : 'student');
  out.push(r.gender === 'male' ? 'male' : r.gender === 'female' ? 'female' : r.gender === 'other' ? 'otherGender' : 'unknownGender');
  return out;
}

function movementOf(r: MemberRow): Movement {
  const leftByReason = Object.fromEntries(
    LEAVE_REASONS.map((reason) => [reason, Number(r[`left_${reason}`] ?? 0)]),
  ) as Movement['leftByReason'];
  const left = LEAVE_REASONS.reduce((s, reason) => s + leftByReason[reason], 0);
  return {
    start: r.start,
    admitted: r.admitted,
    transferredIn: r.transferredIn,
    transferredOut: r.transferredOut,
    left,
    leftByReason,
    end: r.end,
  };
}

interface Unit {
  id: number;
  parentId: number | null;
  name: string;
  code: string;
  type: string;
  path: string;
}

/**
 * The đoàn phí of each unit of the subtree over the period's campaigns: per campaign, a unit handles
 * what its own members paid plus what its units owe it, keeps its type's share (the campaign's top
 * keeps all) and owes the rest up; remittances are what it sent up, confirmed or waiting (as
 * remittances/figures.ts, over every unit of the subtree).
 */
async function duesByUnit(
  db: Db,
  units: Unit[],
  path: string,
  campaignIds: number[],
): Promise<Map<number, { own: DuesFigures; total: DuesFigures }>> {
  const out = new Map(units.map((u) => [u.id, { own: emptyDues(), total: emptyDues() }]));
  if (campaignIds.length === 0) return out;
  const shares = await shareTable(db);
  const byId = new Map(units.map((u) => [u.id, u]));
  // Deepest first, so a unit's figures are final before its parent reads them.
  const ordered = [...units].sort((a, b) => b.path.length - a.path.length);
  const collected = await collectedRows(db, path, campaignIds);
  const sent = await remittanceRows(db, campaignIds);
  for (const campaignId of campaignIds) {
    const subtree = new Map<number, number>();
    for (const r of collected) if (r.campaignId === campaignId) subtree.set(r.organizationId, r.collected);
    const own = new Map<number, number>();
    const dueFromBelow = new Map<number, number>();
    const kept = new Map<number, number>();
    const owed = new Map<number, number>();
    for (const u of units) own.set(u.id, subtree.get(u.id) ?? 0);
    for (const u of ordered)
      if (u.parentId !== null && byId.has(u.parentId)) own.set(u.parentId, own.get(u.parentId)! - (subtree.get(u.id) ?? 0));
    for (const u of ordered) {
      const base = own.get(u.id)! + (dueFromBelow.get(u.id) ?? 0);
      const share = shares.get(u.type) ?? { keepNumerator: 2, keepDenominator: 3 };
      // The tree's top owes no one: it keeps all (remittances/figures.ts does the same).
      const k = u.parentId === null ? base : Math.floor((base * share.keepNumerator) / share.keepDenominator);
      kept.set(u.id, k);
      owed.set(u.id, base - k);
      if (u.parentId !== null && byId.has(u.parentId)) dueFromBelow.set(u.parentId, (dueFromBelow.get(u.parentId) ?? 0) + base - k);
    }
    for (const u of units) {
      const f = out.get(u.id)!;
      f.own.collected += own.get(u.id)!;
      f.own.kept += kept.get(u.id)!;
      f.total.collected += subtree.get(u.id) ?? 0;
      f.total.owedUp += owed.get(u.id)!;
      f.own.owedUp += owed.get(u.id)!;
    }
  }
  for (const r of sent) {
    const f = out.get(r.organizationId);
    if (!f) continue;
    f.own.remitted += r.confirmed;
    f.own.pending += r.pending;
    f.total.remitted += r.confirmed;
    f.total.pending += r.pending;
  }
  // Kept adds up the subtree; what is owed and remitted is each unit's own, to its parent.
  for (const u of ordered) {
    const f = out.get(u.id)!;
    f.total.kept += f.own.kept;
    const parent = u.parentId === null ? undefined : out.get(u.parentId);
    if (parent) parent.total.kept += f.total.kept;
  }
  return out;
}

interface Members {
  unit: Unit;
  subtree: Unit[];
  children: Unit[];
  own: Map<number, ReportFigures>;
}

/**
 * The member counts already made, until a user, membership or organization is written (a transfer's
 * acceptance writes memberships). The đoàn phí part is read each time: remittances and shares carry
 * no version trigger, and it reads a few rows per unit.
 */
const counted = freshCache<Members>(100, ['users', 'organization_members', 'organizations']);

async function countMembers(db: Db, q: ReportQuery, fromMs: number, toMs: number): Promise<Members> {
  const unit = await sqlGet<Unit>(
    db,
    sql`SELECT id, parent_id AS "parentId", name, code, type, path FROM organizations WHERE id = ${q.organizationId}`,
  );
  if (!unit) return notFound('Không tìm thấy tổ chức');
  const { path } = unit;
  const hi = `${path.slice(0, -1)}0`;
  const subtree = await sqlAll<Unit>(
    db,
    sql`SELECT id, parent_id AS "parentId", name, code, type, path FROM organizations WHERE path >= ${path} AND path < ${hi}`,
  );
  const children = subtree.filter((u) => u.parentId === unit.id).sort((a, b) => a.name.localeCompare(b.name, 'vi') || a.id - b.id);
  const own = new Map<number, ReportFigures>([unit, ...children].map((u) => [u.id, emptyFigures()]));
  // Each direct unit's subtree from the kept counts; the unit's own memberships too when nothing lies beneath it.
  const cellUnits = children.length > 0 ? children.map((c) => c.id) : [unit.id];
  for (const r of await memberRows(db, unit.id, path, fromMs, toMs, cellUnits)) {
    const f = own.get(r.bucket);
    if (!f) continue;
    const m = movementOf(r);
    addMovement(f, m);
    for (const g of groupsOf(r)) addMovement(f.groups[g], m);
    const e = (f.ethnicities[r.ethnicity] ??= { start: 0, end: 0 });
    e.start += m.start;
    e.end += m.end;
  }
  return { unit: unit, subtree, children, own };
}

export async function membershipReport(db: Db, q: ReportQuery): Promise<MembershipReport> {
  const fromMs = dayStartMs(q.from);
  const toMs = dayStartMs(q.to) + 86_400_000;
  const { unit, subtree, children, own } = await counted.get(db, `${q.organizationId}|${q.from}|${q.to}`, () =>
    countMembers(db, q, fromMs, toMs),
  );
  const { path } = unit;
  const campaigns = await duesCampaigns(db, path, fromMs, toMs);
  const dues = await duesByUnit(
    db,
    subtree,
    path,
    campaigns.map((c) => c.id),
  );
  // A direct unit's bucket already holds its whole subtree: its row's own figures are its total.
  const row = (u: Unit, depth: number, ownFigures: ReportFigures, total: ReportFigures) => ({
    organizationId: u.id,
    parentId: u.parentId,
    name: u.name,
    code: u.code,
    type: u.type,
    depth,
    own: { ...ownFigures, dues: depth === 0 ? dues.get(u.id)!.own : dues.get(u.id)!.total },
    total: { ...total, dues: dues.get(u.id)!.total },
  });
  const childRows = children.map((c) => row(c, 1, own.get(c.id)!, own.get(c.id)!));
  const total = emptyFigures();
  addFigures(total, own.get(unit.id)!);
  for (const c of children) addFigures(total, own.get(c.id)!);
  return {
    organizationId: unit.id,
    from: q.from,
    to: q.to,
    campaigns,
    units: [row(unit, 0, own.get(unit.id)!, total), ...childRows],
  };
}
