/**
 * Pure rules of the member portal (001 §4 "Member view rules", §9 constants). No DOM, no fetch:
 * the pages call these and the unit tests pin them down.
 */
import type { AssignmentStatus, OrderStatus } from '@doanhoi/shared';
// Not the package barrel, which would put every zod schema on the first load (issue 12).
import { normalizeText, parseVnDateTime } from '@doanhoi/shared/format/index';

/** 001 §9: my payments are paged client-side, 10 per page. */
export const PAGE_SIZE = 10;
/** 001 §4/§9: a PENDING payment order is re-checked every 5 seconds (at first; see nextPollDelay). */
export const POLL_INTERVAL_MS = 5000;
/** Automatic checks stop this long after the page (or "check again") started them. */
export const POLL_GIVE_UP_MS = 10 * 60_000;

/**
 * The wait before the next automatic status check, `elapsed` ms after checking started: every 5 s
 * for the first minute (a member who just paid), every 10 s up to 3 minutes, every 30 s up to 10
 * minutes, then null: the page stops and offers "check again" (an abandoned tab no longer asks forever).
 */
export function nextPollDelay(elapsed: number): number | null {
  if (elapsed >= POLL_GIVE_UP_MS) return null;
  if (elapsed < 60_000) return POLL_INTERVAL_MS;
  if (elapsed < 3 * 60_000) return 10_000;
  return 30_000;
}
/**
 * After an order leaves PENDING, the checks that still follow it: payOS's webhook comes about a second
 * after the member is sent back, so a flag (second transfer, money after a cancel) lands just after
 * the page saw PAID or CANCELLED. Null when no further check is due.
 */
export const SETTLED_RECHECKS_MS: readonly number[] = [2500, 6000];
export function settledRecheckDelay(done: number): number | null {
  return SETTLED_RECHECKS_MS[done] ?? null;
}
/** 001 §9: the result page shows the last 4 words of a bank transaction's description. */
export const DESCRIPTION_WORDS = 4;
/** 001 §4: only assignments of these campaigns appear to the member. */
export const VISIBLE_CAMPAIGN_STATUSES: readonly string[] = ['ACTIVE', 'CANCELLED'];

export const MY_CAMPAIGNS_PATH = '/payment/my-campaigns';
export const PROFILE_PATH = '/payment/profile';
export const TRANSFER_PATH = '/payment/transfer';
export const LOGIN_PATH = '/payment/login';
export const CHANGE_PASSWORD_PATH = '/payment/change-password';

/** The fields the rules read; a structural subset of the assignment the API returns. */
export interface RuleAssignment {
  id: number;
  status: string;
  amount?: number | null;
  remainingAmount?: number | null;
  dueDate?: string | null;
  feeLevel?: { amount?: number | null } | null;
  campaign: { name?: string | null; status: string; endDate?: string | null };
  /** The API's answer (absent from older APIs): false with NO_ONLINE_PAYMENT means "pay the treasurer". */
  canPay?: boolean | null;
  cannotPayReason?: string | null;
}

export type MemberAction = 'pay' | 'treasurer' | 'expired' | 'paid' | 'exempted' | 'none';

function toTime(value: string | null | undefined, endOfDay = false): number | null {
  if (!value) return null;
  const d = parseVnDateTime(value, { endOfDay });
  return d ? d.getTime() : null;
}

/** The campaign's end as epoch ms (a bare date counts until the end of that day), or null. */
export function campaignEnd(a: RuleAssignment): number | null {
  return toTime(a.campaign.endDate, true);
}

/** Only assignments of ACTIVE or CANCELLED campaigns are shown. */
export function isVisible(a: RuleAssignment): boolean {
  return VISIBLE_CAMPAIGN_STATUSES.includes(a.campaign.status);
}

/** A PENDING assignment whose campaign has ended is displayed as OVERDUE; PAID stays PAID. */
export function displayStatus(a: RuleAssignment, now = Date.now()): AssignmentStatus {
  if (a.status === 'PAID') return 'PAID';
  if (a.status === 'OVERDUE') return 'OVERDUE';
  // An exempted fee (issue 15.3) is owed by no one: never overdue.
  if (a.status === 'EXEMPTED') return 'EXEMPTED';
  const end = campaignEnd(a);
  return end !== null && now > end ? 'OVERDUE' : 'PENDING';
}

/**
 * What the row's action cell offers: pay now for PENDING of an ACTIVE campaign, a disabled
 * 'payment expired' for PENDING of a CANCELLED campaign and for OVERDUE (including PENDING past
 * the campaign end), a disabled 'already paid' for PAID. The API's canPay is honoured: a campaign
 * without online payment sends the member to the unit's treasurer (issue 25.3), and no button is
 * offered that could only fail.
 */
export function memberAction(a: RuleAssignment, now = Date.now()): MemberAction {
  const shown = displayStatus(a, now);
  if (shown === 'PAID') return 'paid';
  if (shown === 'EXEMPTED') return 'exempted';
  if (shown === 'OVERDUE') return 'expired';
  if (a.canPay === false) {
    if (a.cannotPayReason === 'NO_ONLINE_PAYMENT') return 'treasurer';
    return a.cannotPayReason === 'CAMPAIGN_ENDED' || a.cannotPayReason === 'CAMPAIGN_CLOSED' ? 'expired' : 'none';
  }
  if (a.campaign.status === 'ACTIVE') return 'pay';
  if (a.campaign.status === 'CANCELLED') return 'expired';
  return 'none';
}

/** The amount owed: the assignment's own amount when given, else its fee level's. */
export function amountOf(a: RuleAssignment): number {
  const v = a.amount ?? a.feeLevel?.amount ?? 0;
  return Number.isFinite(v) ? Number(v) : 0;
}

/**
 * What the member still has to pay: the API's remainingAmount (an underpaid fee keeps only its
 * balance), else the whole amount; nothing once PAID.
 */
export function owedOf(a: RuleAssignment): number {
  if (a.status === 'PAID' || a.status === 'EXEMPTED') return 0;
  const rest = a.remainingAmount;
  return typeof rest === 'number' && Number.isFinite(rest) ? Math.max(0, rest) : amountOf(a);
}

/** Money already counted towards an unpaid fee (an underpayment), else 0. */
export function partlyPaidOf(a: RuleAssignment): number {
  return a.status === 'PAID' ? 0 : Math.max(0, amountOf(a) - owedOf(a));
}

/** The due date used for display and sorting: the assignment's, else the campaign's end. */
export function dueDateOf(a: RuleAssignment): string | null {
  return a.dueDate ?? a.campaign.endDate ?? null;
}

function dueTime(a: RuleAssignment): number | null {
  return toTime(a.dueDate, true) ?? campaignEnd(a);
}

/** PENDING (as displayed) first, then due date ascending (no date last), then id. Returns a new array. */
export function sortAssignments<T extends RuleAssignment>(list: readonly T[], now = Date.now()): T[] {
  return [...list].sort((x, y) => {
    const px = displayStatus(x, now) === 'PENDING' ? 0 : 1;
    const py = displayStatus(y, now) === 'PENDING' ? 0 : 1;
    if (px !== py) return px - py;
    const dx = dueTime(x);
    const dy = dueTime(y);
    if (dx !== dy) {
      if (dx === null) return 1;
      if (dy === null) return -1;
      return dx - dy;
    }
    return x.id - y.id;
  });
}

export interface Tile {
  count: number;
  amount: number;
}
export interface Summary {
  total: Tile;
  pending: Tile;
  paid: Tile;
  overdue: Tile;
}

/** Counts and VND sums for the four tiles, by displayed status: total and paid in full amounts, pending and overdue in what is still owed. */
export function summarize(list: readonly RuleAssignment[], now = Date.now()): Summary {
  const s: Summary = {
    total: { count: 0, amount: 0 },
    pending: { count: 0, amount: 0 },
    paid: { count: 0, amount: 0 },
    overdue: { count: 0, amount: 0 },
  };
  for (const a of list) {
    // An exempted fee is counted in the total (amount 0) but in no status tile.
    if (displayStatus(a, now) === 'EXEMPTED') {
      s.total.count += 1;
      continue;
    }
    const key = displayStatus(a, now) === 'PAID' ? 'paid' : displayStatus(a, now) === 'OVERDUE' ? 'overdue' : 'pending';
    s.total.count += 1;
    s.total.amount += amountOf(a);
    s[key].count += 1;
    // Unpaid tiles count what is still owed (an underpaid fee only its balance).
    s[key].amount += key === 'paid' ? amountOf(a) : owedOf(a);
  }
  return s;
}

export type StatusFilter = 'ALL' | AssignmentStatus;
export interface Filters {
  status: StatusFilter;
  search: string;
}

/** Status (as displayed) and campaign-name search, ignoring case and Vietnamese accents. */
export function filterAssignments<T extends RuleAssignment>(list: readonly T[], f: Filters, now = Date.now()): T[] {
  const needle = normalizeText(f.search);
  return list.filter(
    (a) => (f.status === 'ALL' || displayStatus(a, now) === f.status) && (!needle || normalizeText(a.campaign.name).includes(needle)),
  );
}

export interface Page<T> {
  items: T[];
  page: number;
  totalPages: number;
  total: number;
  /** 1-based index of the first and last item shown (0 when empty). */
  from: number;
  to: number;
}

/** One page of a list; the page is clamped into range. */
export function paginate<T>(list: readonly T[], page: number, size = PAGE_SIZE): Page<T> {
  const total = list.length;
  const totalPages = Math.max(1, Math.ceil(total / size));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), totalPages);
  const start = (current - 1) * size;
  const items = list.slice(start, start + size);
  return { items, page: current, totalPages, total, from: total ? start + 1 : 0, to: start + items.length };
}

const ORDER_STATUSES: readonly string[] = ['PENDING', 'PAID', 'CANCELLED', 'EXPIRED'];

/** 001 §4: a status the page does not know is treated as pending. */
export function normalizeOrderStatus(status: unknown): OrderStatus {
  const s = typeof status === 'string' ? status.toUpperCase() : '';
  return (ORDER_STATUSES.includes(s) ? s : 'PENDING') as OrderStatus;
}

/**
 * A date from the API or payOS: ISO with a zone is that instant; a zone-less value (payOS sends
 * '2026-11-23 14:30:58') is Vietnam time. Null when empty or unreadable.
 */
export function readDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  return parseVnDateTime(value);
}

/** The last `n` whitespace-separated words of a text (bank descriptions carry the reference last). */
export function lastWords(text: string | null | undefined, n = DESCRIPTION_WORDS): string {
  if (!text) return '';
  return text.trim().split(/\s+/).filter(Boolean).slice(-n).join(' ');
}

/** A same-site path to go to after sign-in; anything else (other hosts, '//x', '/\\x') gives the fallback. */
export function safeRedirect(to: string | null | undefined, fallback = MY_CAMPAIGNS_PATH): string {
  if (!to || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback;
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u001f]/.test(to)) return fallback;
  // The login and change-password pages themselves are never a destination.
  for (const page of [LOGIN_PATH, CHANGE_PASSWORD_PATH]) if (to === page || to.startsWith(`${page}?`)) return fallback;
  return to;
}

/** Whether a path belongs to this app (the rest of the origin is the admin, reached by a full load). */
export function isPortalPath(path: string): boolean {
  return /^\/(payment|payment-result)(\/|$|\?)/.test(path);
}

/** The login URL that brings the user back to `path` afterwards. */
/** Where an account on a temporary password is sent first, then on to `path`. */
export function changePasswordUrl(path: string): string {
  const to = safeRedirect(path, '');
  return to ? `${CHANGE_PASSWORD_PATH}?to=${encodeURIComponent(to)}` : CHANGE_PASSWORD_PATH;
}

export function loginUrl(path: string): string {
  const to = safeRedirect(path, '');
  return to ? `${LOGIN_PATH}?to=${encodeURIComponent(to)}` : LOGIN_PATH;
}
