/**
 * The organization tree with member counts: one query over the nodes and their trigger-kept
 * counts, cached until organizations or memberships are written (lib/freshness.ts).
 */
import type { OrganizationNode } from '@doanhoi/shared';
import { gzipSync } from 'node:zlib';
import type { Db } from '../db/client';
import { isVisible, type OrgVisibility } from '../access/organizations';
import { freshCache } from '../lib/freshness';
import { perDb } from '../lib/per-db';
import { organizationMemberCounts, organizations } from '../db/tables/organizations';

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
 * instead of rebuilding and stringifying 5,000 nodes (~780 KB, ~10× smaller gzipped).
 */
export interface TreeBody {
  json: Buffer;
  /** Compressed on first use: level 1 costs a quarter of level 6 for ~20% more bytes, which keeps the rebuild after a write short. */
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
}

// The shape follows organizations only; the counts follow memberships too (the triggers of
// organization_member_counts run on both).
const structure = freshCache<Flat[]>(1, ['organizations']);
const templates = freshCache<Template>(200, ['organizations']);
const counts = freshCache<Map<number, number>>(1, ['organizations', 'organization_members']);
const bodies = freshCache<TreeBody>(200, ['organizations', 'organization_members']);
/** Stands for a member count while the template is stringified: a string no organization field can produce unescaped. */
const MARK = '\u0000count';
const MARK_JSON = JSON.stringify(MARK);

function body(text: string | Buffer): TreeBody {
  const json = typeof text === 'string' ? Buffer.from(text) : text;
  let gz: Buffer | undefined;
  return { json, gzip: () => (gz ??= gzipSync(json, { level: 1 })) };
}

/** The tree as JSON bytes, built once per (visibility, counts) until the next write. */
export function treeBody(db: Db, v: OrgVisibility, withCounts: boolean): TreeBody {
  const key = v.all ? '*' : `${v.paths.join(',')}|${v.memberOrgIds.join(',')}`;
  // Without counts the tree does not depend on memberships at all.
  if (!withCounts) return bodies.get(db, `plain|${key}`, () => body(JSON.stringify(nodes(db, v, () => null))));
  return bodies.get(db, `counts|${key}`, () => {
    const t = templates.get(db, key, () => template(db, v));
    const n = memberCounts(db);
    const digits = t.ids.map((id) => String(n.get(id) ?? 0));
    let size = 0;
    for (const p of t.parts) size += p.length;
    for (const d of digits) size += d.length;
    // One allocation, the template's bytes copied around the counts (ASCII digits).
    const out = Buffer.allocUnsafe(size);
    let at = t.parts[0]!.copy(out, 0);
    for (let i = 0; i < digits.length; i++) {
      at += out.write(digits[i]!, at, 'latin1');
      at += t.parts[i + 1]!.copy(out, at);
    }
    return body(out);
  });
}

function template(db: Db, v: OrgVisibility): Template {
  const roots = nodes(db, v, () => MARK as unknown as number);
  const ids: number[] = [];
  // JSON.stringify writes each node's memberCount before its children: the same pre-order.
  const walk = (ns: OrganizationNode[]) => ns.forEach((x) => (ids.push(x.id), walk(x.children)));
  walk(roots);
  const parts = JSON.stringify(roots).split(MARK_JSON);
  if (parts.length !== ids.length + 1) throw new Error('tree template: a count marker was not found once per node');
  return { parts: parts.map((p) => Buffer.from(p)), ids };
}

function flat(db: Db): Flat[] {
  return structure.get(db, 'all', () =>
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
      .orderBy(organizations.name)
      .all(),
  );
}

/** Each organization's own active members, kept by triggers (organization_member_counts): no count over every membership. */
function memberCounts(db: Db): Map<number, number> {
  return counts.get(db, 'all', () => {
    // Rows as arrays: 5,000 objects mapped by the query builder cost several times the query.
    return new Map(countsQuery(db).values() as [number, number][]);
  });
}
const countsQuery = perDb((db) =>
  db.select({ id: organizationMemberCounts.organizationId, n: organizationMemberCounts.direct }).from(organizationMemberCounts).prepare(),
);

/** The visible forest: a visible node whose parent is hidden becomes a root. */
export function buildTree(db: Db, v: OrgVisibility, withCounts: boolean): OrganizationNode[] {
  if (!withCounts) return nodes(db, v, () => null);
  const n = memberCounts(db);
  return nodes(db, v, (id) => n.get(id) ?? 0);
}

function nodes(db: Db, v: OrgVisibility, memberCount: (id: number) => number | null): OrganizationNode[] {
  const visible = flat(db).filter((o) => isVisible(v, o));
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
