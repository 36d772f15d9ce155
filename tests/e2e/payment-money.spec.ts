/**
 * Every đồng on screen (issue 11): in the sandbox a member underpays, pays the rest, pays twice, and
 * pays into a cancelled campaign; the member sees balances and notices, the treasurer sees the
 * attention rows, resolves them, and the statistics reconcile. Campaigns are set up through the API.
 */
import { expect, test, type Page } from '../helpers/test';
import { ADMIN, MEMBER } from '../helpers/accounts';
import { apiLogin, signIn, navigate } from '../helpers/session';
import { feeRow } from '../helpers/my-fees';
import { call } from '../helpers/fees';

const stamp = Date.now() % 100000;
const MAIN = `Quỹ tiền E2E ${stamp}`;
const CLOSED = `Quỹ hủy E2E ${stamp}`;
const ids: Record<string, { campaign: number; assignment: number }> = {};
/** The first (underpaid) sandbox link, as the member's browser had it; test 2 transfers on it again. */
let firstCheckout = '';
/** Money shown the vi-VN way: "30.000 ₫" (the space is a no-break space). */
const vnd = (amount: string) => new RegExp(`${amount.replace('.', '\\.')}\\s₫`);

test.describe.configure({ mode: 'serial' });

async function setUpCampaign(baseURL: string, token: string, name: string) {
  const orgs = await call<{ data: { id: number; code: string }[] }>(baseURL, token, 'GET', '/payment-campaigns/accessible-organizations');
  const org = orgs.data.find((o) => o.code === 'DCS-CNTT')!;
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  const campaign = await call<{ id: number }>(baseURL, token, 'POST', '/payment-campaigns', {
    organizationId: org.id,
    name,
    startDate: `${day(-1)}T00:00:00`,
    endDate: `${day(30)}T23:59:00`,
  });
  const level = await call<{ id: number }>(baseURL, token, 'POST', '/payment-fee-levels', {
    campaignId: campaign.id,
    levelName: 'Mức chuẩn',
    amount: 60_000,
  });
  const members = await call<{ users: { id: number }[] }>(baseURL, token, 'GET', `/users?search=${encodeURIComponent(MEMBER.email)}`);
  const created = await call<{ data: { id: number } }>(baseURL, token, 'POST', '/payment/assignments', {
    campaignId: campaign.id,
    userId: members.users[0].id,
    feeLevelId: level.id,
  });
  await call(baseURL, token, 'POST', `/payment-campaigns/${campaign.id}/payos-config`, {
    clientId: `money-${stamp}`,
    apiKey: `money-api-${stamp}`,
    checksumKey: `money-checksum-${stamp}`,
    isActive: true,
  });
  await call(baseURL, token, 'POST', `/payment-campaigns/${campaign.id}/activate`);
  return { campaign: campaign.id, assignment: created.data.id };
}

test.beforeAll(async ({ baseURL }) => {
  const token = await apiLogin(baseURL!, ADMIN);
  ids.main = await setUpCampaign(baseURL!, token, MAIN);
  ids.closed = await setUpCampaign(baseURL!, token, CLOSED);
});

async function portal(page: Page) {
  await page.goto('/payment/login?to=%2Fpayment%2Fmy-campaigns');
  const form = page.getByTestId('portal-login-form');
  await form.getByLabel('Email').fill(MEMBER.email);
  await form.getByLabel('Mật khẩu').fill(MEMBER.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page.getByTestId('my-campaigns')).toBeVisible();
}

test('an underpaid fee stays payable for its balance, and paying the rest marks it paid (a test payment)', async ({ page }) => {
  test.setTimeout(240_000);
  await portal(page);

  // Underpay: half of 60.000 arrives; the fee stays payable for the other half.
  await (await feeRow(page, MAIN)).getByTestId('pay-button').click();
  await expect(page).toHaveURL(/\/sandbox\/payos\/checkout\//);
  firstCheckout = page.url();
  await page.getByRole('button', { name: 'Mô phỏng: chuyển thiếu' }).click();
  await expect(page).toHaveURL(/\/payment-result\/\d+/);
  await expect(page.getByTestId('order-attention')).toHaveAttribute('data-attention', 'BALANCE_DUE', { timeout: 20_000 });
  await expect(page.getByTestId('order-attention')).toContainText('30.000');
  await page.goto('/payment/my-campaigns');
  await expect(await feeRow(page, MAIN)).toHaveAttribute('data-status', 'PENDING');
  await expect((await feeRow(page, MAIN)).getByTestId('assignment-remaining')).toContainText('30.000');
  await expect((await feeRow(page, MAIN)).getByTestId('pay-button')).toHaveText('Trả phần còn lại');

  // The rest: the fee is paid (with sandbox money, so marked as a test payment).
  await (await feeRow(page, MAIN)).getByTestId('pay-button').click();
  await expect(page).toHaveURL(/\/sandbox\/payos\/checkout\//);
  await page
    .getByRole('button', { name: /^Thanh toán/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/payment-result\/\d+/);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'PAID', { timeout: 20_000 });
  await page.goto('/payment/my-campaigns');
  await expect(await feeRow(page, MAIN)).toHaveAttribute('data-status', 'PAID', { timeout: 20_000 });
  await expect((await feeRow(page, MAIN)).getByTestId('test-payment-badge')).toBeVisible();
});

// A paid order's history row carries no checkout URL (only PENDING ones do, so the portal never invites a
// second payment): the member reaches the old link the way a bank app repeats a transfer, from what the
// browser saw in test 1.
test('a second transfer and a payment after cancel are flagged for refund and resolved by the treasurer', async ({ page, baseURL }) => {
  test.setTimeout(240_000);
  expect(firstCheckout, 'test 1 opened the first link').toMatch(/\/sandbox\/payos\/checkout\//);
  await portal(page);
  const memberToken = await apiLogin(baseURL!, MEMBER);

  // A second transfer on the first link (the rest went through a new one): the fee is already paid, so it is a duplicate to refund.
  await page.goto(firstCheckout);
  await page
    .getByRole('button', { name: /^(Thanh toán phần còn thiếu|Mô phỏng: chuyển khoản thêm một lần)$/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/payment-result\/\d+/);
  // The webhook that flags it follows the redirect by about a second: the page keeps checking after PAID, no reload.
  await expect(page.getByTestId('order-attention')).toHaveAttribute('data-attention', 'REFUND_DUE', { timeout: 15_000 });
  await expect(page.getByTestId('order-attention')).toContainText(vnd('30.000'));

  // A payment after cancel: the member opens a link, the campaign is cancelled, the money still arrives.
  const link = await call<{ data: { checkoutUrl: string } }>(baseURL!, memberToken, 'POST', '/payment/create-payment-link', {
    assignmentId: ids.closed.assignment,
  });
  await call(baseURL!, await apiLogin(baseURL!, ADMIN), 'POST', `/payment-campaigns/${ids.closed.campaign}/cancel`);
  await page.goto(link.data.checkoutUrl);
  await expect(page.getByText('Đơn này đã bị hủy.')).toBeVisible();
  await page.getByRole('button', { name: 'Mô phỏng: chuyển khoản thêm một lần' }).click();
  await expect(page).toHaveURL(/\/payment-result\/\d+/);
  await expect(page.getByTestId('order-attention')).toHaveAttribute('data-attention', 'REFUND_DUE', { timeout: 15_000 });
  await expect(page.getByTestId('order-attention')).toContainText(vnd('60.000'));

  // The treasurer: statistics show the flag. Sandbox money is test money (decisions: statistics), so the real
  // figures stay expected 60.000 = collected 0 + uncollected 60.000; the test tile holds 90.000 with 30.000 to refund.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signIn(page, ADMIN, `/admin/payment-campaigns/${ids.main.campaign}`);
  const stats = page.getByTestId('campaign-statistics');
  await expect(stats).toBeVisible({ timeout: 30_000 });
  await expect(stats.getByTestId('stat-expected')).toContainText(vnd('60.000'));
  await expect(stats.getByTestId('stat-collected').locator('.ant-statistic-content')).toHaveText(/^0\s₫$/);
  await expect(stats.getByTestId('stat-uncollected')).toContainText(vnd('60.000'));
  await expect(stats.getByTestId('tile-test')).toContainText(vnd('90.000'));
  await expect(stats.getByTestId('test-refund-due')).toContainText(vnd('30.000'));
  await expect(page.getByTestId('attention-banner')).toBeVisible();
  await expect(page.getByTestId('money-reconciliation')).toBeVisible();

  // The history lists the duplicate with its refund amount; resolving it clears the flag.
  await page.getByTestId('attention-open-history').click();
  await expect(page).toHaveURL(/tab=payment-history/);
  const open = page
    .getByTestId('history-table')
    .locator('tbody tr.ant-table-row')
    .filter({ has: page.getByTestId('attention-open') });
  await expect(open).toHaveCount(1, { timeout: 20_000 });
  await expect(open).toContainText('Thanh toán trùng');
  await expect(open).toContainText(new RegExp(`Cần hoàn ${vnd('30.000').source}`));
  await expect(open.getByTestId('test-badge')).toBeVisible();
  await open.getByTestId('attention-resolve').click();
  await page.getByTestId('resolve-form').getByLabel('Đã hoàn tiền cho người nộp').check();
  await page.getByTestId('resolve-form').getByLabel('Ghi chú').fill('Đã chuyển trả');
  await page.getByTestId('resolve-confirm').click();
  await expect(page.getByTestId('history-table').getByTestId('attention-open')).toHaveCount(0, { timeout: 20_000 });

  // After resolving: no banner, nothing left to refund, and the figures still add up.
  await navigate(page, `/admin/payment-campaigns/${ids.main.campaign}?tab=statistics`);
  await expect(stats).toBeVisible({ timeout: 30_000 });
  await expect(stats.getByTestId('tile-test')).toContainText(vnd('90.000'));
  await expect(stats.getByTestId('test-refund-due')).toHaveCount(0);
  await expect(page.getByTestId('attention-banner')).toHaveCount(0);
  await expect(stats.getByTestId('stat-expected')).toContainText(vnd('60.000'));
  await expect(stats.getByTestId('stat-uncollected')).toContainText(vnd('60.000'));

  // The cancelled campaign shows its refund due too: the whole 60.000 that came after the cancel.
  await navigate(page, `/admin/payment-campaigns/${ids.closed.campaign}`);
  await expect(stats).toBeVisible({ timeout: 30_000 });
  await expect(stats.getByTestId('test-refund-due')).toContainText(vnd('60.000'));
  await navigate(
    page,
    `/admin/payment-campaigns/${ids.closed.campaign}?tab=payment-history&filters[0][field]=status&filters[0][operator]=eq&filters[0][value]=ALL&filters[1][field]=attention&filters[1][operator]=eq&filters[1][value]=OPEN`,
  );
  const afterCancel = page
    .getByTestId('history-table')
    .locator('tbody tr.ant-table-row')
    .filter({ has: page.getByTestId('attention-open') });
  await expect(afterCancel).toHaveCount(1, { timeout: 30_000 });
  await expect(afterCancel).toContainText('Thanh toán sau khi đợt thu đóng');
  await expect(afterCancel).toContainText(new RegExp(`Cần hoàn ${vnd('60.000').source}`));
});
