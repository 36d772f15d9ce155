/**
 * A campaign of its own with one fee for the demo member, set up through the API, so a journey that
 * pays does not depend on which demo fees earlier journeys already paid.
 */
import { apiLogin } from './session';
import { ADMIN, MEMBER } from './accounts';

async function api<T>(baseURL: string, token: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseURL}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** An ACTIVE campaign named `name` in DCS-CNTT (sandbox payOS keys) with a 50.000 ₫ fee for the member. */
export async function memberFeeCampaign(baseURL: string, name: string): Promise<void> {
  const token = await apiLogin(baseURL, ADMIN);
  const stamp = `${Date.now()}`;
  const orgs = await api<{ data: { id: number; code: string }[] }>(baseURL, token, '/payment-campaigns/accessible-organizations');
  const org = orgs.data.find((o) => o.code === 'DCS-CNTT')!;
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  const campaign = await api<{ id: number }>(baseURL, token, '/payment-campaigns', {
    organizationId: org.id,
    name,
    startDate: `${day(-1)}T00:00:00`,
    endDate: `${day(30)}T23:59:00`,
  });
  const level = await api<{ id: number }>(baseURL, token, '/payment-fee-levels', {
    campaignId: campaign.id,
    levelName: 'Mức chuẩn',
    amount: 50_000,
  });
  const members = await api<{ users: { id: number }[] }>(baseURL, token, `/users?search=${encodeURIComponent(MEMBER.email)}`);
  await api(baseURL, token, '/payment/assignments', { campaignId: campaign.id, userId: members.users[0]!.id, feeLevelId: level.id });
  await api(baseURL, token, `/payment-campaigns/${campaign.id}/payos-config`, {
    clientId: `csp-${stamp}`,
    apiKey: `csp-api-${stamp}`,
    checksumKey: `csp-checksum-${stamp}`,
    isActive: true,
  });
  await api(baseURL, token, `/payment-campaigns/${campaign.id}/activate`, {});
}
