/**
 * The portal's only HTTP client. Adds the bearer token, refreshes it once on a 401 (concurrent
 * requests wait for the same refresh and are replayed), and turns error bodies into messages
 * (001 §7 "Client conventions"). Pages call the small endpoint functions at the bottom.
 */
import type { Assignment, AssignmentStatus, CampaignStatus, LoginInput, LoginResponse, PaymentOrder } from '@doanhoi/shared';
import { navigate } from './router';
import { loginUrl } from './rules';
import { session } from './session';

export const API_URL = '/api';

export class ApiError extends Error {
  constructor(
    message: string,
    public status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The server's JSON `message`, else the raw text, else 'HTTP error! status: N'. */
export function errorMessage(status: number, body: unknown): string {
  const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  if (typeof message === 'string' && message) return message;
  if (typeof body === 'string' && body.trim()) return body;
  return `HTTP error! status: ${status}`;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

let refreshing: Promise<string> | null = null;

async function refreshAccessToken(): Promise<string> {
  const refreshToken = session.refreshToken();
  if (!refreshToken) throw new Error('No refresh token available');
  const res = await fetch(`${API_URL}/auth/refresh`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refreshToken }),
  });
  const body = await readBody(res);
  if (!res.ok) throw new ApiError(errorMessage(res.status, body), res.status);
  const tokens = body as { accessToken?: string; refreshToken?: string } | null;
  if (!tokens?.accessToken) throw new Error('No access token in the refresh response');
  // Refresh tokens rotate: the old one is spent, so both must be stored.
  session.setTokens(tokens.accessToken, tokens.refreshToken ?? refreshToken);
  return tokens.accessToken;
}

/** One refresh at a time; every 401 arriving meanwhile waits for the same promise. */
function refreshOnce(): Promise<string> {
  refreshing ??= refreshAccessToken().finally(() => {
    refreshing = null;
  });
  return refreshing;
}

/** Clears the session and goes to the portal sign-in, remembering where the user was. */
export function redirectToLogin() {
  session.clear();
  const { pathname, search } = window.location;
  if (pathname === '/payment/login') return;
  navigate(loginUrl(`${pathname}${search}`), { replace: true });
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** false: no bearer and no refresh (sign-in). */
  auth?: boolean;
  /** false: send the bearer but never refresh or redirect on 401 (sign-out). */
  refresh?: boolean;
}

function send(path: string, method: string, body: unknown, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(`${API_URL}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

/** A JSON call; an empty (204) or non-JSON success body gives null. Failures throw ApiError. */
export async function request<T>(path: string, { method = 'GET', body, auth = true, refresh = true }: RequestOptions = {}): Promise<T> {
  const token = auth ? session.accessToken() : null;
  let res = await send(path, method, body, token);
  if (res.status === 401 && auth && refresh) {
    try {
      if (!token) throw new Error('Not signed in');
      // Another request may have refreshed while this one was in flight: reuse its token.
      const current = session.accessToken();
      const fresh = current && current !== token ? current : await refreshOnce();
      res = await send(path, method, body, fresh);
      if (res.status === 401) throw new Error('Still unauthorized after refresh');
    } catch (err) {
      console.warn('[auth] session ended:', err instanceof Error ? err.message : err);
      redirectToLogin();
      const data = await readBody(res);
      throw new ApiError(errorMessage(res.status, data), res.status);
    }
  }
  const data = await readBody(res);
  if (!res.ok) throw new ApiError(errorMessage(res.status, data), res.status);
  return (typeof data === 'string' ? null : data) as T;
}

// ---- Response types ----
// shared/src/schemas/payments.ts has the full response schemas (Assignment, PaymentOrder). The portal
// reads them through these lenient structural subsets, so older or partial payloads (no `amount`,
// no transactions, an unknown order status) still render. The checks below keep them compatible.

export interface MyAssignment {
  id: number;
  status: AssignmentStatus;
  amount?: number | null;
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
  /** Any string: unknown values are shown as pending (001 §4). */
  status: string;
  createdAt?: string | null;
  transactions?: OrderTransaction[] | null;
}

// Compile-time only: the shared response types must fit the portal's reading of them.
type Assert<T extends true> = T;
export type SharedShapesFit = Assert<Assignment extends MyAssignment ? true : false> | Assert<PaymentOrder extends ResultOrder ? true : false>;

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
