import { hasPermission, holdsAnywhere } from '@doanhoi/shared';
import type { Context, MiddlewareHandler } from 'hono';
import { isFamilyRevoked, loadActor } from './actor';
import { loadRevokedFamilies } from './revocation';
import { verifyAccessToken } from './tokens';
import { orgContext } from './organization-context';
import type { AppEnv } from '../lib/context';
import { requestHeader } from '../lib/headers';
import { fail, forbidden, unauthorized } from '../lib/errors';

/** Bearer access token → c.var.actor; 401 otherwise. */
async function authenticate(c: Context<AppEnv>) {
  const header = requestHeader(c, 'authorization');
  const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : null;
  if (!token) unauthorized();
  const { db, env } = c.get('deps');
  await loadRevokedFamilies(db, env.ACCESS_TOKEN_TTL_SECONDS);
  const claims = await verifyAccessToken(env.jwtSecret, token!);
  if (!claims || isFamilyRevoked(claims.fid)) unauthorized();
  const actor = await loadActor(db, claims!.sub);
  if (!actor) unauthorized();
  c.set('actor', actor!);
  c.set('familyId', claims!.fid);
  return actor!;
}

export const MUST_CHANGE_PASSWORD = 'Bạn cần đổi mật khẩu trước khi tiếp tục sử dụng hệ thống';

/**
 * A signed-in caller with a full session. An account still on its default (or reset) password
 * gets 403 here: until it picks a new one it may only use the routes behind requireSession.
 */
export const requireAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const actor = await authenticate(c);
  if (actor.mustChangePassword) fail(403, MUST_CHANGE_PASSWORD, { code: 'MUST_CHANGE_PASSWORD' });
  await next();
};

/** Any signed-in caller, even one who must change their password: profile, change-password, logout. */
export const requireSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  await authenticate(c);
  await next();
};

/**
 * Where the check is made. Return an organization id to check in that organization (its
 * ancestors' roles count too); return null when the target is unknown (then only a global
 * or super-admin grant passes, and the handler answers 404 if it does not exist).
 */
export type OrganizationFrom = (c: Context<AppEnv>) => number | null | undefined | Promise<number | null | undefined>;

/**
 * 403 unless the caller holds `code`: in the organization `organizationFrom` names, or, without
 * it, in at least one context (the service then scopes rows to where it is held).
 */
export function requirePermission(code: string, organizationFrom?: OrganizationFrom): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const actor = c.get('actor');
    if (!actor) unauthorized();
    if (organizationFrom) {
      const orgId = await organizationFrom(c);
      const ctx = orgId == null ? null : await orgContext(c.get('deps').db, orgId);
      if (!hasPermission(actor.roles, code, ctx)) forbidden();
    } else if (!holdsAnywhere(actor.roles, code)) {
      forbidden();
    }
    await next();
  };
}

/** Organization id from a path parameter, e.g. `/organizations/:id`. */
export const fromParam =
  (name = 'id'): OrganizationFrom =>
  (c) => {
    const v = Number(c.req.param(name));
    return Number.isInteger(v) && v > 0 ? v : null;
  };
