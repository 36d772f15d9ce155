/**
 * The campaign's "Trích nộp" tab is offered only to those the API answers (issue 25 item 6, "do not
 * offer what will be refused"; issue 30 item 5): view_remittance in the campaign's organization.
 */
import { expect, test } from '../helpers/test';
import { ADMIN } from '../helpers/accounts';
import { call } from '../helpers/fees';
import { apiLogin, signIn } from '../helpers/session';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test('an officer who may read a campaign but not its remittance sees no "Trích nộp" tab; one who may sees it', async ({
  page,
  browser,
  baseURL,
}) => {
  const url = baseURL!;
  const token = await apiLogin(url, ADMIN);
  const faculty = await call<{ id: number }>(url, token, 'GET', '/organizations/by-type-code/doan_co_so/DCS-CNTT');
  const campaign = await call<{ id: number }>(url, token, 'POST', '/payment-campaigns', {
    organizationId: faculty.id,
    name: `Trích nộp thử ${Date.now() % 1_000_000}`,
    startDate: `${day(-1)}T00:00:00`,
    endDate: `${day(30)}T23:59:00`,
  });
  const perms = await call<{ id: number; code: string }[]>(url, token, 'GET', '/roles/available-permissions');
  const ids = (codes: string[]) => perms.filter((p) => codes.includes(p.code)).map((p) => p.id);
  const reader = ['dashboard.access', 'payment-campaigns.access', 'payment-campaigns.read'];

  async function officer(tag: string, codes: string[]) {
    const code = `RT${tag}${Date.now() % 1_000_000}`;
    const email = `${code.toLowerCase()}@doanhoi.local`;
    const password = 'Tn-Thu-2026!';
    const user = await call<{ id: number }>(url, token, 'POST', '/users', {
      code,
      familyName: 'Lê',
      givenName: 'Thủ Quỹ',
      email,
      phone: '0912345671',
      password,
      organizationId: faculty.id,
    });
    const role = await call<{ id: number }>(url, token, 'POST', '/roles', {
      name: `tn_${code.toLowerCase()}`,
      displayName: `Đọc đợt thu ${tag}`,
      description: '',
      permissionIds: ids(codes),
    });
    await call(url, token, 'POST', `/users/${user.id}/roles`, {
      roleAssignments: [{ roleIds: [role.id], organizationIds: [faculty.id], isGlobal: false }],
    });
    return { email, password };
  }

  const plain = await officer('A', reader);
  await signIn(page, plain, `/admin/payment-campaigns/${campaign.id}`);
  await expect(page.getByRole('tab', { name: 'Thống kê' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Trích nộp' })).toHaveCount(0);
  const refused = await page.evaluate(
    async ([id, orgId]) =>
      (
        await fetch(`/api/payment-campaigns/${id}/remittance?organizationId=${orgId}`, {
          headers: { authorization: `Bearer ${localStorage.getItem('accessToken')}` },
        })
      ).status,
    [campaign.id, faculty.id],
  );
  expect(refused).toBe(403);

  const viewer = await officer('B', [...reader, 'payment-campaigns.view_remittance']);
  const context = await browser.newContext({ baseURL: url });
  const other = await context.newPage();
  await signIn(other, viewer, `/admin/payment-campaigns/${campaign.id}`);
  await expect(other.getByRole('tab', { name: 'Trích nộp' })).toBeVisible();
  await context.close();
});
