/**
 * The organization tree with member counts: one query over the nodes and their trigger-kept
 * counts, cached until organizations or memberships are written (lib/freshness.ts).
 */
import type { OrganizationNode } from '@doanhoi/shared';
import { sql } from 'drizzle-orm';
import { gzipSync } from 'node:zlib';
import type { Db } from '../db/client';
import { isVisible, type OrgVisibility } from '../access/organizations';
import { freshCache } from '../lib/freshness';
import { perDb } from '../lib/per-db';
import { gzipOfPieces, gzipPiece, type GzipPiece } from '../lib/segmented-gzip';
import { organizationMemberCounts, organizations } from '../db/tables/organizations';
import { allRows, firstRow } from '../db/engine';
import { onPg } from '../db/dialect';

interface Flat {
  id: number;
  name: string;
  code: string;
  type: OrganizationNode['type'];
  description: string | null;
  parentId: number | null;
  path: string;
}

/**
 * Serialised trees per visibility (plain and gzipped), so a hot tree costs one buffer write
 * instead of rebuilding and stringifying 5,000 nodes (~780 KB, ~14× smaller gzipped).
 */
export interface TreeBody {
  json(): Buffer;
  /** Level 1: a quarter of level 6's cost for ~20% more bytes, which keeps the first build short. */
  gzip(): Buffer;
}

/**
 * A visible tree serialised once per shape: the JSON text cut where each node's member count goes,
 * with the nodes' ids in the same order. Memberships change far more often than organizations (every
 * add or remove), and then only the counts are filled in again (issue 12: the first tree after a
 * write must cost a few milliseconds, not a rebuild and a stringify of 5,000 nodes).
 */
interface Template {
  /** UTF-8 already: encoding 780 KB of Vietnamese text again after every membership change cost more than the rest. */
  parts: Buffer[];
  ids: number[];
  /**
   * The nodes cut into runs of about SEGMENT bytes, each run compressed on its own with the counts it
   * was last filled with: a membership write changes one node's count, so the tree after it deflates
   * one run again, not 780 KB (issue 28: a super admin's first tree after a write 4.3 → 0.9 ms of CPU).
   */
  segments: Segment[];
}
interface Segment {
  /** Its nodes [from, to): each node's part and count; the last segment also holds the closing part. */
  from: number;
  to: number;
  rendered?: { counts: number[]; piece: GzipPiece };
}
const SEGMENT = 32 * 1024;

// The shape follows organizations only; the counts follow memberships too (the triggers of
// organization_member_counts run on both).
const structure = freshCache<Flat[]>(1, ['organizations']);
const templates = freshCache<Template>(200, ['organizations']);
const counts = freshCache<Counts>(1, ['organizations', 'organization_members']);
const bodies = freshCache<TreeBody>(200, ['organizations', 'organization_members']);
// Without counts the tree does not depend on memberships at all (the key holds the caller's own).
const plainBodies = freshCache<TreeBody>(200, ['organizations']);
/** Stands for a member count while the template is stringified: a string no organization field can produce unescaped. */
const MARK = '\u0000count';
const MARK_JSON = JSON.stringify(MARK);

function countedBody(pieces: GzipPiece[]): TreeBody {
  let json: Buffer | undefined;
  let gz: Buffer | undefined;
  // Browsers take the gzip, which needs no plain copy of the whole.
  return {
    json: () => (json ??= Buffer.concat(pieces.map((p) => p.raw))),
    gzip: () => (gz ??= gzipOfPieces(pieces)),
  };
}

function plainBody(json: Buffer): TreeBody {
  let gz: Buffer | undefined;
  return { json: () => json, gzip: () => (gz ??= gzipSync(json, { level: 1 })) };
}

/** The tree as JSON bytes, built once per (visibility, counts) until the next write. */
export async function treeBody(db: Db, v: OrgVisibility, withCounts: boolean): Promise<TreeBody> {
  const key = v.all ? '*' : `${v.paths.join(',')}|${v.memberOrgIds.join(',')}`;
  if (!withCounts)
    return await plainBodies.get(db, key, async () => plainBody(Buffer.from(JSON.stringify(await nodes(db, v, () => null)))));
  return bodies.get(db, key, async () => {
    const t = await templates.get(db, key, () => template(db, v));
    const n = await memberCounts(db);
    return countedBody(t.segments.map((s) => segmentPiece(t, s, n)));
  });
}

/** The segment's bytes with these counts, deflated again only if one of its counts changed. */
function segmentPiece(t: Template, s: Segment, n: Counts): GzipPiece {
  const now = t.ids.slice(s.from, s.to).map((id) => n[id] ?? 0);
  const was = s.rendered?.counts;
  if (was && now.every((c, i) => c === was[i])) return s.rendered!.piece;
  const last = s.to === t.ids.length;
  const chunks: Buffer[] = [];
  for (let i = s.from; i < s.to; i++) chunks.push(t.parts[i]!, Buffer.from(String(now[i - s.from]), 'latin1'));
  if (last) chunks.push(t.parts[s.to]!);
  // Kept whatever the transaction state: the piece is a pure function of the template and these counts.
  s.rendered = { counts: now, piece: gzipPiece(Buffer.concat(chunks), 1) };
  return s.rendered.piece;
}

async function template(db: Db, v: OrgVisibility): Promise<Template> {
  const roots = await nodes(db, v, () => MARK as unknown as number);
  const ids: number[] = [];
  // JSON.stringify writes each node's memberCount before its children: the same pre-order.
  const walk = (ns: OrganizationNode[]) => ns.forEach((x) => (ids.push(x.id), walk(x.children)));
  walk(roots);
  const parts = JSON.stringify(roots)
    .split(MARK_JSON)
    .map((p) => Buffer.from(p));
  if (parts.length !== ids.length + 1) throw new Error('tree template: a count marker was not found once per node');
  const segments: Segment[] = [];
  for (let from = 0, i = 0, size = 0; i <= ids.length; i++) {
    size += parts[i]!.length;
    // The closing bytes after the last count always go with the last node.
    if (i === ids.length || (size >= SEGMENT && i < ids.length - 1)) {
      segments.push({ from, to: i === ids.length ? i : i + 1 });
      [from, size] = [i + 1, 0];
    }
  }
  return { parts, ids, segments };
}

async function flat(db: Db): Promise<Flat[]> {
  return structure.get(
    db,
    'all',
    async () =>
      await allRows(
        db
          .select({
            id: organizations.id,
            name: organizations.name,
            code: organizations.code,
            type: organizations.type,
            description: organizations.description,
            parentId: organizations.parentId,
            path: organizations.path,
          })
          .from(organizations)
          // Ties by id, as SQLite's rowid scan gives them; PostgreSQL would leave them in any order.
          .orderBy(organizations.name, organizations.id),
      ),
  );
}

/** Each organization's own active members by id, kept by triggers (organization_member_counts): no count over every membership. */
type Counts = Record<number, number>;
async function memberCounts(db: Db): Promise<Counts> {
  return counts.get(db, 'all', async () => JSON.parse((await firstRow(countsQuery(db)))!.counts) as Counts);
}
// One JSON object built by the database: a fifth of the cost of 5,000 rows handed to JS one by one (issue 28).
// PostgreSQL's as text (node-postgres would parse json itself), and '{}' rather than NULL when there are no rows.
const countsObject = () =>
  onPg()
    ? sql<string>`coalesce(json_object_agg(${organizationMemberCounts.organizationId}, ${organizationMemberCounts.direct})::text, '{}')`
    : sql<string>`json_group_object(${organizationMemberCounts.organizationId}, ${organizationMemberCounts.direct})`;
const countsQuery = perDb((db) => db.select({ counts: countsObject() }).from(organizationMemberCounts).prepare());

/** The visible forest: a visible node whose parent is hidden becomes a root. */
export async function buildTree(db: Db, v: OrgVisibility, withCounts: boolean): Promise<OrganizationNode[]> {
  if (!withCounts) return nodes(db, v, () => null);
  const n = await memberCounts(db);
  return nodes(db, v, (id) => n[id] ?? 0);
}

async function nodes(db: Db, v: OrgVisibility, memberCount: (id: number) => number | null): Promise<OrganizationNode[]> {
  const visible = (await flat(db)).filter((o) => isVisible(v, o));
  const byId = new Map<number, OrganizationNode>();
  for (const o of visible) {
    byId.set(o.id, {
      id: o.id,
      name: o.name,
      code: o.code,
      type: o.type,
      description: o.description,
      parentId: o.parentId,
      memberCount: memberCount(o.id),
      hasChildren: false,
      children: [],
    });
  }
  const roots: OrganizationNode[] = [];
  for (const node of byId.values()) {
    const parent = node.parentId != null ? byId.get(node.parentId) : undefined;
    if (parent) {
      parent.children.push(node);
      parent.hasChildren = true;
    } else roots.push(node);
  }
  return roots;
}
