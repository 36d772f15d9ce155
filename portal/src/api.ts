/**
 * The portal's HTTP: the shared client (bearer token, one queued refresh on a 401, error messages;
 * shared/src/client/http.ts, 001 §7 "Client conventions") pointed at /api. Pages call the small
 * endpoint functions at the bottom.
 */
import type {
  Assignment,
  AssignmentStatus,
  CampaignStatus,
  ChangePasswordInput,
  LoginInput,
  LoginResponse,
  MyReminder,
  OrderOutcome,
  PaymentOrder,
} from '@doanhoi/shared';
import { createApiClient } from '@doanhoi/shared/client/http';
import { session } from '@doanhoi/shared/client/session';
import { navigate } from './router';
import { LOGIN_PATH, loginUrl } from './rules';

export { ApiError } from '@doanhoi/shared/client/http';
export const API_URL = '/api';

/** Goes to the portal sign-in (the client has cleared the session), remembering where the user was. */
function redirectToLogin() {
  const { pathname, search } = window.location;
  if (pathname === LOGIN_PATH) return;
  navigate(loginUrl(`${pathname}${search}`), { replace: true });
}

// Every 401 the refresh cannot fix ends the session here: the portal has no outer handler for them.
export const { request } = createApiClient({ baseUrl: API_URL, onAuthFailure: redirectToLogin, endSessionOnAny401: true });

// ---- Response types ----
// shared/src/schemas/payments.ts has the full response schemas (Assignment, PaymentOrder). The portal
// reads them through these lenient structural subsets, so older or partial payloads (no `amount`,
// no transactions, an unknown order status) still render. The checks below keep them compatible.

export interface MyAssignment {
  id: number;
  status: AssignmentStatus;
  amount?: number | null;
  /** What is still to pay (an underpaid fee stays payable for this); absent from older APIs. */
  remainingAmount?: number | null;
  paidAmount?: number | null;
  /** PAID only by sandbox (test) money. */
  isTestPayment?: boolean | null;
  /** Exempted (miễn) or reduced (giảm): amount is then the adjusted fee, originalAmount the fee before it. */
  adjustment?: 'EXEMPTED' | 'REDUCED' | null;
  originalAmount?: number | null;
  adjustmentReason?: string | null;
  /** Whether "pay now" is offered; absent from older APIs (then the campaign's status decides). */
  canPay?: boolean | null;
  /** Why not: NO_ONLINE_PAYMENT means the unit collects by hand (pay its treasurer). */
  cannotPayReason?: Assignment['cannotPayReason'];
  /** Money received on this fee that is waiting to be refunded to the member. */
  refundDue?: number | null;
  user?: { familyName: string; givenName: string; code: string } | null;
  feeLevel: { levelName: string; amount: number };
  campaign: {
    id: number;
    name: string;
    description?: string | null;
    status: CampaignStatus;
    startDate?: string | null;
    endDate?: string | null;
    organization?: { id: number; name: string } | null;
  };
  dueDate?: string | null;
  paidAt?: string | null;
  createdAt?: string | null;
}

export interface OrderTransaction {
  accountNumber?: string | null;
  transactionDateTime?: string | null;
  description?: string | null;
}

export interface ResultOrder {
  orderCode: number | string;
  amount: number;
  assignmentId?: number | null;
  paymentMethod?: string | null;
  paidAt?: string | null;
  /** Money that actually arrived (payments API); may differ from amount. */
  receivedAmount?: number | null;
  /** Paid through the payOS sandbox: no real money. */
  isTest?: boolean | null;
  attention?: 'REFUND_DUE' | 'BALANCE_DUE' | null;
  attentionReason?: string | null;
  attentionAmount?: number | null;
  resolution?: string | null;
  /** Any string: unknown values are shown as pending (001 §4). */
  status: string;
  createdAt?: string | null;
  transactions?: OrderTransaction[] | null;
  /** What the order meant for the fee (member routes); absent from older APIs. */
  outcome?: OrderOutcome | null;
}

// Compile-time only: the shared response types must fit the portal's reading of them.
type Assert<T extends true> = T;
/** @public */
export type SharedShapesFit =
  Assert<Assignment extends MyAssignment ? true : false> | Assert<PaymentOrder extends ResultOrder ? true : false>;

export interface PaymentLinkResponse {
  success?: boolean;
  message?: string;
  data?: { checkoutUrl?: string | null; orderCode?: number } | null;
}

// ---- Endpoint functions ----

export async function login(input: LoginInput): Promise<LoginResponse> {
  const res = await request<LoginResponse>('/auth/login', { method: 'POST', body: input, auth: false });
  session.setTokens(res.accessToken, res.refreshToken);
  session.setUser(res.user);
  return res;
}

/** The first sign-in's new password; the same session then becomes a full one. */
export async function changePassword(input: ChangePasswordInput): Promise<void> {
  await request('/auth/change-password', { method: 'POST', body: input });
  const user = session.user();
  if (user) session.setUser({ ...user, mustChangePassword: false });
}

/** Tells the server (best effort), then always clears the session (000 §4). */
export async function logout(): Promise<void> {
  try {
    if (session.accessToken()) await request('/auth/logout', { method: 'POST', refresh: false });
  } catch {
    // The session ends locally whatever the server says.
  } finally {
    session.signOut();
  }
}

export async function isSuperAdmin(): Promise<boolean> {
  const res = await request<{ isSuperAdmin?: boolean } | null>('/auth/me/permissions');
  return Boolean(res?.isSuperAdmin);
}

type AssignmentsPage = { assignments?: MyAssignment[]; totalPages?: number };
type MyAssignmentsBody = MyAssignment[] | { data?: MyAssignment[] | AssignmentsPage } | AssignmentsPage | null;

/** Accepts an array, {data: [...]}, {data: {assignments, totalPages}} or {assignments, totalPages}. */
export function readAssignments(body: MyAssignmentsBody): { items: MyAssignment[]; totalPages: number } {
  if (Array.isArray(body)) return { items: body, totalPages: 1 };
  const inner = body && 'data' in body ? body.data : body;
  if (Array.isArray(inner)) return { items: inner, totalPages: 1 };
  const page = (inner ?? {}) as AssignmentsPage;
  return { items: Array.isArray(page.assignments) ? page.assignments : [], totalPages: Number(page.totalPages) || 1 };
}

const MY_PAGE_LIMIT = 100;
const MAX_PAGES = 50;

/** All of the member's assignments (the page filters, sorts and pages them client-side, 001 §9). */
export async function myAssignments(): Promise<MyAssignment[]> {
  const path = (page: number) => `/payment/assignments/my-assignments?page=${page}&limit=${MY_PAGE_LIMIT}`;
  const first = readAssignments(await request<MyAssignmentsBody>(path(1)));
  const items = [...first.items];
  for (let page = 2; page <= Math.min(first.totalPages, MAX_PAGES); page++) {
    items.push(...readAssignments(await request<MyAssignmentsBody>(path(page))).items);
  }
  return items;
}

/** Creates a payOS link for the assignment and returns its checkout URL (001 §3 "Payment link request"). */
export async function createPaymentLink(a: MyAssignment, amount: number, noUrlMessage: string): Promise<string> {
  const res = await request<PaymentLinkResponse & { checkoutUrl?: string }>('/payment/create-payment-link', {
    method: 'POST',
    body: {
      assignmentId: a.id,
      campaignId: a.campaign.id,
      amount,
      description: `Thanh toán: ${a.campaign.name}`,
      organizationId: a.campaign.organization?.id,
    },
  });
  if (res?.success === false) throw new Error(res.message || noUrlMessage);
  const url = res?.data?.checkoutUrl ?? res?.checkoutUrl;
  if (!url) throw new Error(noUrlMessage);
  return url;
}

/** The order, whether it comes inside `data` or at the top level. */
export function readOrder(body: unknown): ResultOrder | null {
  if (!body || typeof body !== 'object') return null;
  const b = body as { data?: unknown; status?: unknown; orderCode?: unknown };
  const inner = b.data && typeof b.data === 'object' ? (b.data as { status?: unknown }) : null;
  if (inner && 'status' in inner) return inner as ResultOrder;
  if ('status' in b && 'orderCode' in b) return b as ResultOrder;
  return null;
}

export async function checkPaymentStatus(orderCode: string): Promise<ResultOrder | null> {
  return readOrder(await request<unknown>(`/payment/check-status/${encodeURIComponent(orderCode)}`));
}

/** One assignment (the member's own, or one the caller may read): the receipt's payer, campaign and organization. */
export async function getAssignment(id: number): Promise<MyAssignment | null> {
  const body = await request<{ data?: MyAssignment } | MyAssignment | null>(`/payment/assignments/${id}`);
  if (!body) return null;
  return 'data' in body && body.data ? body.data : (body as MyAssignment);
}

/** The member's reminded, still unpaid fees (issue 15.2): a notice each on my-payments. */
export async function myReminders(): Promise<MyReminder[]> {
  const body = await request<{ data?: MyReminder[] } | null>('/reminders/mine');
  return Array.isArray(body?.data) ? body.data : [];
}
