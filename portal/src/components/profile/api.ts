/** The profile page's calls, kept in its own chunk (the portal's first load stays small). */
import type { MyProfile, MyProfileUpdate, OrderOutcome, OrderStatus } from '@doanhoi/shared';
import { request } from '../../api';

export function readProfile(): Promise<MyProfile> {
  return request<MyProfile>('/auth/me/profile');
}

export function updateContact(input: MyProfileUpdate): Promise<MyProfile> {
  return request<MyProfile>('/auth/me/profile', { method: 'PATCH', body: input });
}

export interface HistoryOrder {
  id: number;
  orderCode: number;
  amount: number;
  status: OrderStatus;
  paidAt: string | null;
  createdAt: string;
  campaign: { id: number; name: string };
  feeLevel: { levelName: string };
  /** What the order meant for the fee (absent from older APIs). */
  outcome?: OrderOutcome;
}

export interface HistoryPage {
  items: HistoryOrder[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

/** The caller's own payment orders, newest first (GET /payment/history, 001 §7). */
export async function readHistory(page: number, limit: number): Promise<HistoryPage> {
  const body = await request<{ data: HistoryPage }>(`/payment/history?page=${page}&limit=${limit}`);
  return body.data;
}
