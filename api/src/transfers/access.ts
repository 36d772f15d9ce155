/**
 * Who may do what with a transfer (issue 30 item 1): the requesting side's admins ask (or the
 * member, for themself), the other side's admins decide. organizations.manage_members stands in
 * for the transfer codes, as it does for adding and removing members, so roles edited before the
 * codes existed keep working (docs/decisions.md).
 */
import { hasPermission } from '@doanhoi/shared';
import type { Db } from '../db/client';
import type { Actor } from '../lib/context';
import { orgContext } from '../access/organization-context';
import { userScope, type UserScope } from '../access/scope';
import { mapInOrder } from '../lib/in-order';

export const REQUEST_CODES = ['transfers.request', 'organizations.manage_members'];
export const DECIDE_CODES = ['transfers.decide', 'organizations.manage_members'];
export const ACCESS_CODES = ['transfers.access', 'transfers.request', 'transfers.decide', 'organizations.manage_members'];

export async function holdsIn(db: Db, actor: Actor, codes: string[], organizationId: number): Promise<boolean> {
  const ctx = await orgContext(db, organizationId);
  return !!ctx && codes.some((code) => hasPermission(actor.roles, code, ctx));
}

/** The subtrees where the caller sees transfers (from or to a unit there). */
export async function transferScope(db: Db, actor: Actor): Promise<UserScope> {
  const scopes = await mapInOrder(ACCESS_CODES, (code) => userScope(db, actor, code));
  if (scopes.some((s) => s.all)) return { all: true };
  const paths = [...new Set(scopes.flatMap((s) => (s.all ? [] : s.paths)))];
  return { all: false, paths: paths.filter((p) => !paths.some((q) => q !== p && p.startsWith(q))) };
}

/** The organization whose admins decide: the receiving unit when the sending side asked, else the sending unit. */
export const decidingOrg = (t: { requestedSide: 'from' | 'to'; fromOrganizationId: number; toOrganizationId: number }) =>
  t.requestedSide === 'from' ? t.toOrganizationId : t.fromOrganizationId;
export const requestingOrg = (t: { requestedSide: 'from' | 'to'; fromOrganizationId: number; toOrganizationId: number }) =>
  t.requestedSide === 'from' ? t.fromOrganizationId : t.toOrganizationId;
