import { hasPermission, holdsAnywhere, type OrgContext } from '@doanhoi/shared';
import type { MiddlewareHandler } from 'hono';
import type { Actor, AppEnv } from '../lib/context';
import { forbidden, unauthorized } from '../lib/errors';

/** 403 unless the caller holds at least one of the codes somewhere (the service scopes the rows). */
export function requireAnyPermission(codes: string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const actor = c.get('actor');
    if (!actor) unauthorized();
    if (!codes.some((code) => holdsAnywhere(actor.roles, code))) forbidden();
    await next();
  };
}

export const MANAGE_ROLES = 'users.roles.manage';

export type GrantRefusal = { reason: 'manage' } | { reason: 'escalation'; missing: string[] } | null;

/**
 * May the caller create (or remove) a link to a role with these permission codes in this context
 * (null = a global link)? They need users.roles.manage there and every code of the role there too,
 * so no one hands out more than they hold; a super admin may do anything. Removal uses the same
 * rule, so an organization admin cannot strip a global role or one stronger than their own.
 */
export function grantRefusal(actor: Actor, roleCodes: readonly string[], ctx: OrgContext | null): GrantRefusal {
  if (actor.isSuperAdmin) return null;
  if (!hasPermission(actor.roles, MANAGE_ROLES, ctx)) return { reason: 'manage' };
  const missing = roleCodes.filter((code) => !hasPermission(actor.roles, code, ctx));
  return missing.length ? { reason: 'escalation', missing } : null;
}
