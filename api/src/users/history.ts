/**
 * A member's history (issue 30 item 3): one timeline of their memberships, transfers, roles and
 * fees, newest first. Seen by whoever may view the user (GET /users/:id's rule: outside the
 * users.access reach 404, outside users.view_details 403); fee events only for campaigns whose
 * payments the caller may see. One member's events are few (tens to hundreds), so they are built
 * in memory from indexed reads on the user's id and paged there.
 */
import type { UserHistoryEvent, UserHistoryQuery, UserHistoryResponse } from '@doanhoi/shared/schemas/user-history';
import { eq } from 'drizzle-orm';
import type { Actor, Deps } from '../lib/context';
import { forbidden, notFound } from '../lib/errors';
import { totalPages } from '../lib/totals';
import { membershipEvents } from './history-memberships';
import { feeEvents, roleEvents } from './history-roles-fees';
import { auditRowsOf, nameBook, type Event } from './history-sources';
import { users } from '../db/tables/users';
import { userScope, usersInScope } from '../access/scope';
import { firstRow } from '../db/engine';

const FEE_KINDS = new Set<string>([
  'fee_assigned',
  'fee_paid',
  'fee_exempted',
  'fee_reduced',
  'fee_adjustment_revoked',
  'fee_reversed',
  'fee_refunded',
]);
const ROLE_KINDS = new Set<string>(['role_granted', 'role_revoked']);
/** Tie order at one instant: a unit is joined before its roles, a fee assigned before it is paid, a transfer asked before it is decided. */
const ORDER: string[] = [
  'joined',
  'role_granted',
  'fee_assigned',
  'fee_exempted',
  'fee_reduced',
  'fee_paid',
  'fee_adjustment_revoked',
  'fee_reversed',
  'fee_refunded',
  'role_revoked',
  'transfer_requested',
  'transfer_refused',
  'transfer_cancelled',
  'transferred',
  'removed',
  'left',
];

export async function userHistory({ db }: Deps, actor: Actor, userId: number, q: UserHistoryQuery): Promise<UserHistoryResponse> {
  const exists = await firstRow(db.select({ id: users.id }).from(users).where(eq(users.id, userId)));
  if (!exists || !(await usersInScope(db, await userScope(db, actor, 'users.access'), [userId])).has(userId))
    notFound('Không tìm thấy người dùng');
  if (!(await usersInScope(db, await userScope(db, actor, 'users.view_details'), [userId])).has(userId)) forbidden();

  const book = nameBook(db);
  const wants = (kinds: Set<string> | null) => !q.kind || (kinds ? kinds.has(q.kind) : !FEE_KINDS.has(q.kind) && !ROLE_KINDS.has(q.kind));
  let events: Event[] = [];
  if (wants(null) || wants(ROLE_KINDS)) {
    const rows = await auditRowsOf(db, userId);
    if (wants(null)) events.push(...(await membershipEvents(db, userId, book, rows)));
    if (wants(ROLE_KINDS)) events.push(...(await roleEvents(db, userId, book, rows)));
  }
  if (wants(FEE_KINDS)) events.push(...(await feeEvents(db, actor, userId, book)));
  if (q.kind) events = events.filter((e) => e.kind === q.kind);
  // Newest first (a day's event where it was recorded that day); at one instant, what follows in a life (USER_HISTORY_KINDS' order) first.
  const when = (e: Event) => e.sortAt ?? e.at;
  const rank = (e: Event) => ORDER.indexOf(e.kind);
  events.sort((a, b) => (when(a) < when(b) ? 1 : when(a) > when(b) ? -1 : rank(b) - rank(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)));
  const total = events.length;
  const start = (q.page - 1) * q.limit;
  return {
    data: events.slice(start, start + q.limit).map(clean),
    total,
    page: q.page,
    limit: q.limit,
    totalPages: totalPages(total, q.limit),
  };
}

/** Leaves out the keys an event does not have (no `actor: undefined` in the answer) and the sort key. */
const clean = ({ sortAt: _, ...e }: Event): UserHistoryEvent =>
  Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)) as UserHistoryEvent;
