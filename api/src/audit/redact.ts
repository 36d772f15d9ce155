/**
 * What an organization's auditor may read of a change to a user (docs/decisions.md): the row is
 * shown because one organization it concerns lies in the auditor's subtree, but its snapshots can
 * name others (the user's other role links and memberships). Those entries are left out, global
 * role links included, so a faculty auditor never learns about grants beyond its faculty.
 */
import type { AuditLog } from '@doanhoi/shared';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { organizations } from '../db/tables/organizations';
import type { OrgScope } from '../access/payments';
import { allRows } from '../db/engine';

/** Snapshot keys that hold lists of organization ids (user.create, membership.set). */
const ID_LISTS = new Set(['organizationIds', 'added', 'removed']);
const isLink = (x: unknown): x is { organizationId: unknown } => !!x && typeof x === 'object' && 'organizationId' in x;

function collect(v: unknown, key: string | undefined, out: Set<number>): void {
  if (Array.isArray(v)) {
    for (const x of v) {
      if (typeof x === 'number' && key && ID_LISTS.has(key)) out.add(x);
      else if (isLink(x) && typeof x.organizationId === 'number') out.add(x.organizationId);
      collect(x, undefined, out);
    }
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) collect(x, k, out);
  }
}

function prune(v: unknown, key: string | undefined, visible: (id: unknown) => boolean): unknown {
  if (Array.isArray(v)) {
    const kept = v.filter((x) =>
      typeof x === 'number' && key && ID_LISTS.has(key) ? visible(x) : isLink(x) ? visible(x.organizationId) : true,
    );
    return kept.map((x) => prune(x, undefined, visible));
  }
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, prune(x, k, visible)]));
  return v;
}

/** Builds the page's redaction: one query for the paths of the organizations its user rows name. */
export async function userRowRedactor(db: Pick<Db, 'select'>, scope: OrgScope, logs: AuditLog[]): Promise<(log: AuditLog) => AuditLog> {
  if (scope.all) return (log) => log;
  const named = new Set<number>();
  for (const l of logs) {
    if (l.entity !== 'user') continue;
    collect(l.before, undefined, named);
    collect(l.after, undefined, named);
  }
  const paths = named.size
    ? await allRows(
        db
          .select({ id: organizations.id, path: organizations.path })
          .from(organizations)
          .where(inArray(organizations.id, [...named])),
      )
    : [];
  const inside = new Set(paths.filter((o) => scope.paths.some((p) => o.path.startsWith(p))).map((o) => o.id));
  const visible = (id: unknown) => typeof id === 'number' && inside.has(id);
  return (log) =>
    log.entity === 'user' ? { ...log, before: prune(log.before, undefined, visible), after: prune(log.after, undefined, visible) } : log;
}
