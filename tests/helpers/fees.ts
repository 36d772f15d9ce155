/**
 * A campaign of its own in DCS-CNTT, ACTIVE with sandbox payOS keys, whose fee is assigned to the
 * demo member and to `others` more members of the faculty (student accounts), set up through the API.
 */
import { ADMIN, MEMBER } from './accounts';
import { apiLogin } from './session';

/** One API call with a bearer token: the answer's JSON (null when it has no body), or an error naming the call. */
export async function call<T>(baseURL: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseURL}/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** call() as `account`, signed in for this one call (journeys that act as several people). */
export async function callAs<T>(
  baseURL: string,
  account: { email: string; password: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  return call<T>(baseURL, await apiLogin(baseURL, account), method, path, body);
}

export interface FeeCampaign {
  campaignId: number;
  /** Assignment ids: the demo member's first, then the others'. */
  assignments: number[];
  /** The others' student codes, in the same order. */
  codes: string[];
  /** The super admin's token, for further setup. */
  token: string;
}

export async function feeCampaign(baseURL: string, name: string, amount: number, others: number): Promise<FeeCampaign> {
  const token = await apiLogin(baseURL, ADMIN);
  const get = <T>(path: string) => call<T>(baseURL, token, 'GET', path);
  const post = <T>(path: string, body: unknown) => call<T>(baseURL, token, 'POST', path, body);
  const org = (await get<{ data: { id: number; code: string }[] }>('/payment-campaigns/accessible-organizations')).data.find(
    (o) => o.code === 'DCS-CNTT',
  )!;
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  const campaign = await post<{ id: number }>('/payment-campaigns', {
    organizationId: org.id,
    name,
    startDate: `${day(-1)}T00:00:00`,
    endDate: `${day(30)}T23:59:00`,
  });
  const level = await post<{ id: number }>('/payment-fee-levels', { campaignId: campaign.id, levelName: 'Mức chuẩn', amount });
  const member = (await get<{ users: { id: number }[] }>(`/users?search=${encodeURIComponent(MEMBER.email)}`)).users[0]!;
  const rest = (await get<{ users: { id: number; code: string }[] }>(`/users?organizationId=${org.id}&isActive=true&limit=20`)).users
    .filter((u) => u.id !== member.id && /^\d+$/.test(u.code))
    .slice(0, others);
  const assignments: number[] = [];
  for (const userId of [member.id, ...rest.map((u) => u.id)]) {
    assignments.push(
      (await post<{ data: { id: number } }>('/payment/assignments', { campaignId: campaign.id, userId, feeLevelId: level.id })).data.id,
    );
  }
  const stamp = `${Date.now()}`;
  await post(`/payment-campaigns/${campaign.id}/payos-config`, {
    clientId: `fee-${stamp}`,
    apiKey: `fee-api-${stamp}`,
    checksumKey: `fee-checksum-${stamp}`,
    isActive: true,
  });
  await post(`/payment-campaigns/${campaign.id}/activate`, {});
  return { campaignId: campaign.id, assignments, codes: rest.map((u) => u.code), token };
}
