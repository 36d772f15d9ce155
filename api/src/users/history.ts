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
import { auditRowsOf, nameBook } from './history-sources';
import { users } from './schema';
import { userScope, usersInScope } from './scope';

const FEE_KINDS = new Set<string>(['fee_assigned', 'fee_paid', 'fee_exempted', 'fee_reduced', 'fee_adjustment_revoked', 'fee_reversed', 'fee_refunded']);
const ROLE_KINDS = new Set<string>(['role_granted', 'role_revoked']);

export function userHistory({ db }: Deps, actor: Actor, userId: number, q: UserHistoryQuery): UserHistoryResponse {
  const exists = db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get();
  if (!exists || !usersInScope(db, userScope(db, actor, 'users.access'), [userId]).has(userId)) notFound('Không tìm thấy người dùng');
  if (!usersInScope(db, userScope(db, actor, 'users.view_details'), [userId]).has(userId)) forbidden();

  const book = nameBook(db);
  const wants = (kinds: Set<string> | null) => !q.kind || (kinds ? kinds.has(q.kind) : !FEE_KINDS.has(q.kind) && !ROLE_KINDS.has(q.kind));
  let events: UserHistoryEvent[] = [];
  if (wants(null) || wants(ROLE_KINDS)) {
    const rows = auditRowsOf(db, userId);
    if (wants(null)) events.push(...membershipEvents(db, userId, book, rows));
    if (wants(ROLE_KINDS)) events.push(...roleEvents(db, userId, book, rows));
  }
  if (wants(FEE_KINDS)) events.push(...feeEvents(db, actor, userId, book));
  if (q.kind) events = events.filter((e) => e.kind === q.kind);
  // Newest first; one instant's events keep the order they happened in, reversed (a stable key breaks ties).
  events.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const total = events.length;
  const start = (q.page - 1) * q.limit;
  return { data: events.slice(start, start + q.limit).map(clean), total, page: q.page, limit: q.limit, totalPages: totalPages(total, q.limit) };
}

/** Leaves out the keys an event does not have (no `actor: undefined` in the answer). */
const clean = (e: UserHistoryEvent): UserHistoryEvent => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)) as UserHistoryEvent;
