/**
 * What each level of a campaign collected, keeps and owes up (issue 30 item 5). The money comes
 * from campaign_figures (trigger-kept per organization subtree: one primary-key row per unit) and
 * the remittances from one grouped sum; the cascade below walks those rows, one per unit, so a
 * request never reads the campaign's fees.
 *
 * A unit handles what its own members paid plus what its units owe it; it keeps its type's share
 * (floored to the đồng) and owes the rest to its parent. Σ kept over a subtree + the top's owedUp
 * = the top's collected, so the figures add up the tree to the đồng.
 */
import type { RemittanceUnit } from '@doanhoi/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { badRequest, notFound } from '../lib/errors';
import { shareTable } from '../dues/rates';
import { loadCampaign } from '../payments/rules';
import { sqlAll, sqlGet } from '../db/engine';

interface Node extends RemittanceUnit {
  path: string;
  depth: number;
}

export const OUTSIDE_CAMPAIGN = 'Tổ chức không thuộc phạm vi của đợt thu';

/** The organization's path, refused unless it is the campaign's organization or one beneath it. */
export async function unitInCampaign(db: Db, campaignId: number, organizationId: number) {
  const campaign = await loadCampaign(db, campaignId);
  const rows = await sqlAll<{ id: number; path: string; parentId: number | null }>(
    db,
    sql`SELECT id, path, parent_id AS "parentId" FROM organizations WHERE id IN (${organizationId}, ${campaign.organizationId})`,
  );
  const unit = rows.find((r) => r.id === organizationId);
  const top = rows.find((r) => r.id === campaign.organizationId)!;
  if (!unit) notFound('Không tìm thấy tổ chức');
  if (!unit!.path.startsWith(top.path)) badRequest(OUTSIDE_CAMPAIGN, { errors: { organizationId: [OUTSIDE_CAMPAIGN] } });
  return { campaign, unit: unit! };
}

/** Every unit of the subtree rooted at organizationId with its figures; the root first, then its direct units. */
export async function subtreeFigures(db: Db, campaignId: number, organizationId: number): Promise<Node[]> {
  const { unit } = await unitInCampaign(db, campaignId, organizationId);
  const rows = await sqlAll<{
    id: number;
    parentId: number | null;
    name: string;
    code: string;
    type: string;
    path: string;
    collected: number;
  }>(
    db,
    sql`
    SELECT o.id, o.parent_id AS "parentId", o.name, o.code, o.type, o.path, coalesce(f.collected, 0) AS collected
    FROM organizations o LEFT JOIN campaign_figures f ON f.campaign_id = ${campaignId} AND f.organization_id = o.id
    WHERE o.path LIKE ${`${unit.path}%`}`,
  );
  const sums = await sqlAll<{ fromId: number; toId: number; status: string; amount: number }>(
    db,
    sql`
    SELECT from_organization_id AS "fromId", to_organization_id AS "toId", status, sum(amount) AS amount
    FROM remittances WHERE campaign_id = ${campaignId} AND status <> 'CANCELLED' GROUP BY from_organization_id, to_organization_id, status`,
  );
  const shares = await shareTable(db);
  const nodes = new Map<number, Node>();
  for (const r of rows) {
    const share = shares.get(r.type) ?? { keepNumerator: 2, keepDenominator: 3 };
    nodes.set(r.id, {
      organizationId: r.id,
      parentId: r.parentId,
      name: r.name,
      code: r.code,
      type: r.type,
      isSelf: r.id === organizationId,
      collected: r.collected,
      ownCollected: r.collected,
      dueFromBelow: 0,
      ...share,
      kept: 0,
      owedUp: 0,
      receivedFromBelow: 0,
      confirmed: 0,
      pending: 0,
      outstanding: 0,
      path: r.path,
      depth: r.path.split('/').length,
    });
  }
  for (const s of sums) {
    const from = nodes.get(s.fromId);
    const to = nodes.get(s.toId);
    if (s.status === 'CONFIRMED') {
      if (from) from.confirmed += s.amount;
      if (to) to.receivedFromBelow += s.amount;
    } else if (from) from.pending += s.amount;
  }
  // Deepest first: a unit's figures are final before its parent reads them.
  const ordered = [...nodes.values()].sort((a, b) => b.depth - a.depth);
  for (const n of ordered) {
    const base = n.ownCollected + n.dueFromBelow;
    if (n.parentId === null) {
      n.kept = base;
    } else {
      n.kept = Math.floor((base * n.keepNumerator) / n.keepDenominator);
      n.owedUp = base - n.kept;
    }
    n.outstanding = Math.max(0, n.owedUp - n.confirmed);
    const parent = n.parentId === null ? undefined : nodes.get(n.parentId);
    if (parent && !n.isSelf) {
      // The parent's own members are what its subtree collected less what its units' subtrees did.
      parent.ownCollected -= n.collected;
      parent.dueFromBelow += n.owedUp;
    }
  }
  const root = nodes.get(organizationId)!;
  const children = ordered
    .filter((n) => n.parentId === organizationId)
    .sort((a, b) => a.name.localeCompare(b.name, 'vi') || a.organizationId - b.organizationId);
  return [root, ...children];
}

/** Campaigns of the unit and of the levels above it: those whose figures the unit has a row in. */
export async function campaignsCovering(db: Db, organizationId: number) {
  const org = await sqlGet<{ path: string }>(db, sql`SELECT path FROM organizations WHERE id = ${organizationId}`);
  if (!org) notFound('Không tìm thấy tổ chức');
  const ids = org!.path.split('/').filter(Boolean).map(Number);
  return await sqlAll<{ id: number; name: string; status: string; organizationId: number; organizationName: string; startDate: number }>(
    db,
    sql`
    SELECT c.id, c.name, c.status, c.organization_id AS "organizationId", o.name AS "organizationName", c.start_date AS "startDate"
    FROM payment_campaigns c JOIN organizations o ON o.id = c.organization_id
    WHERE c.organization_id IN (${sql.join(
      ids.map((i) => sql`${i}`),
      sql`, `,
    )}) AND c.status <> 'DRAFT'
    ORDER BY c.id DESC LIMIT 200`,
  );
}

/** The API's rows: the path and depth stay inside. */
export const toUnit = ({ path: _p, depth: _d, ...unit }: Node): RemittanceUnit => unit;
