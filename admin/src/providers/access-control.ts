import type { AccessControlProvider } from '@refinedev/core';
import { resources } from '../resources';
import { fetchPermissions, holds } from './permissions';
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

export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource, action, params }) => {
    if (!resource) return { can: true };
    const meta = { ...resources.find((r) => r.name === resource)?.meta, ...params?.resource?.meta };
    const code = permissionCode(resource, action, meta);
    if (!code) return { can: true };
    // Departments and classes belong to no organization: writes are checked outside any (api/src/departments/access.ts).
    const organizationId = meta.universityWide && WRITES.has(action) ? null : session.organizationId();
    const res = await fetchPermissions(organizationId).catch(() => null);
    return holds(res, [code]) ? { can: true } : { can: false, reason: code };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
};
