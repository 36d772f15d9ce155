import type { AccessControlProvider, CanReturnType } from '@refinedev/core';
import type { UserListItem } from '@doanhoi/shared';
import { resources } from '../resources';
import { rowRights, type RowRights } from './row-rights';
import { hasPermission, holdsAnywhere } from '@doanhoi/shared/permissions/check';
import { fetchPermissions, holds, toGrants, type MatchMode } from './permissions';
import { session } from './session';

/** Refine action → permission suffix (000 §6 codes). Import needs the create right. */
const ACTIONS: Record<string, string> = {
  list: 'access',
  show: 'view_details',
  create: 'create',
  clone: 'create',
  import: 'create',
  edit: 'update',
  delete: 'delete',
  export: 'export',
};

/**
 * The code a question needs: the resource's meta.permission for list/access, otherwise the
 * category of that code (roles → permissions.*) with the mapped action.
 */
export function permissionCode(resource: string, action: string, meta?: Record<string, unknown>): string | null {
  const merged = { ...resources.find((r) => r.name === resource)?.meta, ...meta };
  const base = typeof merged.permission === 'string' ? merged.permission : undefined;
  if (base && (action === 'list' || action === 'access')) return base;
  const category = base ? base.slice(0, base.lastIndexOf('.')) : resource;
  const overrides = (merged.permissionActions ?? {}) as Record<string, string>;
  return category ? `${category}.${overrides[action] ?? ACTIONS[action] ?? action}` : null;
}

/** Actions that change a university-wide catalogue: the API accepts only a global grant for them. */
const WRITES = new Set(['create', 'clone', 'import', 'edit', 'delete']);

/**
 * What a screen may add to a question (useCan's params): `codes` asks for these codes (all, or any
 * with `mode: 'any'`) instead of the resource's; `organizationId` asks in that organization's context
 * rather than the header's (null: the global one); with `ancestorIds` too, the context is exactly that
 * row's (the tree knows its ancestors) and the answer comes from the caller's roles everywhere.
 * A refusal's `reason` lists the codes not held, so one question can answer a screen's set of rights.
 */
export interface CanAsk {
  codes?: readonly string[];
  mode?: MatchMode;
  organizationId?: number | null;
  ancestorIds?: readonly number[];
  /** Held in any organization at all (what a screen without a chosen unit may show; the API then scopes to those). */
  anywhere?: boolean;
  /** Users-list rows, each checked in its user's own organizations (row-rights.ts); a refusal names `<right>@<id>`. */
  rows?: readonly (Pick<UserListItem, 'id' | 'memberOf'> & { id: number })[];
}

/** The codes of `codes` the caller does not hold where `ask` says. */
async function missing(codes: readonly string[], ask: CanAsk): Promise<string[]> {
  if (ask.anywhere) {
    const grants = toGrants(await fetchPermissions(null).catch(() => null));
    return codes.filter((c) => !holdsAnywhere(grants, c));
  }
  if (ask.ancestorIds && ask.organizationId != null) {
    const grants = toGrants(await fetchPermissions(null).catch(() => null));
    const ctx = { organizationId: ask.organizationId, ancestorIds: ask.ancestorIds };
    return codes.filter((c) => !hasPermission(grants, c, ctx));
  }
  const res = await fetchPermissions(ask.organizationId ?? null).catch(() => null);
  return codes.filter((c) => !holds(res, [c]));
}

async function answer(codes: readonly string[], ask: CanAsk): Promise<CanReturnType> {
  const lacking = await missing(codes, ask);
  const can = ask.mode === 'any' ? lacking.length < codes.length : lacking.length === 0;
  return can ? { can } : { can, reason: lacking.join(',') };
}

export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource, action, params }) => {
    const ask = (params ?? {}) as CanAsk;
    if (ask.rows) {
      const grants = toGrants(await fetchPermissions(null).catch(() => null));
      const lacking = ask.rows.flatMap((u) => {
        const rights = rowRights(grants, u);
        return (Object.keys(rights) as (keyof RowRights)[]).filter((r) => !rights[r]).map((r) => `${r}@${u.id}`);
      });
      return lacking.length ? { can: false, reason: lacking.join(',') } : { can: true };
    }
    if (ask.codes) {
      const organizationId = 'organizationId' in ask ? ask.organizationId : session.organizationId();
      return answer(ask.codes, { ...ask, organizationId });
    }
    if (!resource) return { can: true };
    const meta = { ...resources.find((r) => r.name === resource)?.meta, ...params?.resource?.meta };
    const code = permissionCode(resource, action, meta);
    if (!code) return { can: true };
    if ('organizationId' in ask) return answer([code], ask);
    // Departments and classes belong to no organization: writes are checked outside any (api/src/departments/access.ts).
    const organizationId = meta.universityWide && WRITES.has(action) ? null : session.organizationId();
    const res = await fetchPermissions(organizationId).catch(() => null);
    return holds(res, [code]) ? { can: true } : { can: false, reason: code };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
};
