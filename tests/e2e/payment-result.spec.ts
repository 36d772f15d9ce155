/**
 * The member's payment result page (issue 11 items 10 and 15): status checks back off and stop with
 * "check again"; a paid order shows a printable receipt; "back to home" stays in the portal.
 * Each run sets up its own campaign through the API so it does not depend on the seeded fee.
 */
import { expect, test, type Page } from '../helpers/test';
import { ADMIN, MEMBER } from '../helpers/accounts';
import { apiLogin } from '../helpers/session';
import { feeRow } from '../helpers/my-fees';
import { call } from '../helpers/fees';

const CAMPAIGN = `Quỹ biên nhận E2E ${Date.now() % 100000}`;
let assignmentId = 0;

// Its journeys share what beforeAll sets up once: in order, in one worker (the suite runs fully parallel).
test.describe.configure({ mode: 'default' });

test.beforeAll(async ({ baseURL }) => {
  const token = await apiLogin(baseURL!, ADMIN);
  const orgs = await call<{ data: { id: number; code: string }[] }>(baseURL!, token, 'GET', '/payment-campaigns/accessible-organizations');
  const org = orgs.data.find((o) => o.code === 'DCS-CNTT')!;
  const now = new Date();
  const day = (d: number) => new Date(now.getTime() + d * 86_400_000).toISOString().slice(0, 10);
  const campaign = await call<{ id: number }>(baseURL!, token, 'POST', '/payment-campaigns', {
    organizationId: org.id,
    name: CAMPAIGN,
    startDate: `${day(-1)}T00:00:00`,
    endDate: `${day(30)}T23:59:00`,
  });
  const level = await call<{ id: number }>(baseURL!, token, 'POST', '/payment-fee-levels', {
    campaignId: campaign.id,
    levelName: 'Mức chuẩn',
    amount: 60_000,
  });
  const members = await call<{ users: { id: number }[] }>(baseURL!, token, 'GET', `/users?search=${encodeURIComponent(MEMBER.email)}`);
  const created = await call<{ data: { id: number } }>(baseURL!, token, 'POST', '/payment/assignments', {
    campaignId: campaign.id,
    userId: members.users[0].id,
    feeLevelId: level.id,
  });
  assignmentId = created.data.id;
  await call(baseURL!, token, 'POST', `/payment-campaigns/${campaign.id}/payos-config`, {
    clientId: 'receipt-client',
    apiKey: 'receipt-api-key',
    checksumKey: 'receipt-checksum-key',
    isActive: true,
  });
  await call(baseURL!, token, 'POST', `/payment-campaigns/${campaign.id}/activate`);
});

async function portalSignIn(page: Page, to: string) {
  await page.goto(`/payment/login?to=${encodeURIComponent(to)}`);
  const form = page.getByTestId('portal-login-form');
  await form.getByLabel('Email').fill(MEMBER.email);
  await form.getByLabel('Mật khẩu').fill(MEMBER.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
}

test('a pending order is re-checked with a backoff, then the page stops and offers "check again"', async ({ page, baseURL }) => {
  const token = await apiLogin(baseURL!, MEMBER);
  const link = await call<{ data: { orderCode: number } }>(baseURL!, token, 'POST', '/payment/create-payment-link', { assignmentId });
  const orderCode = link.data.orderCode;
  let checks = 0;
  page.on('request', (r) => {
    if (r.url().includes(`/api/payment/check-status/${orderCode}`)) checks++;
  });
  await page.clock.install();
  await portalSignIn(page, `/payment-result/${orderCode}`);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'PENDING');
  const indicator = page.getByTestId('auto-refresh');
  await expect(indicator).toContainText('5 giây');

  // Ten minutes later the automatic checks have given up.
  await page.clock.fastForward('11:00');
  await expect(indicator).toHaveAttribute('data-stopped', 'true');
  await expect(indicator).toContainText('Đã ngừng tự động kiểm tra');
  const stoppedAt = checks;
  await page.clock.fastForward('05:00');

  // "Check again" asks once more and restarts the schedule. A check the five minutes had fired would
  // have been sent before this one: by the time this one is answered, the count holds only this one.
  const answered = page.waitForResponse((r) => r.url().includes(`/api/payment/check-status/${orderCode}`));
  await page.getByTestId('check-again').click();
  await answered;
  expect(checks).toBe(stoppedAt + 1);
  await expect(indicator).toHaveAttribute('data-stopped', 'false');
});

test('a paid order shows the receipt, prints on its own, and "back to home" is my payments', async ({ page }) => {
  await portalSignIn(page, '/payment/my-campaigns');
  const row = await feeRow(page, CAMPAIGN);
  await row.getByTestId('pay-button').click();
  await expect(page).toHaveURL(/\/sandbox\/payos\/checkout\//);
  await page.getByRole('button', { name: 'Thanh toán', exact: true }).click();
  await expect(page).toHaveURL(/\/payment-result\/\d+/);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'PAID');

  const receipt = page.getByTestId('receipt');
  const orderCode = new URL(page.url()).pathname.split('/').pop()!;
  await expect(receipt.getByTestId('receipt-number')).toHaveText(orderCode);
  await expect(receipt.getByTestId('receipt-payer')).toHaveText('Nguyễn Thị Lan');
  await expect(receipt.getByTestId('receipt-payer-code')).toHaveText('22CNTT1999');
  await expect(receipt.getByTestId('receipt-campaign')).toHaveText(CAMPAIGN);
  await expect(receipt.getByTestId('receipt-organization')).toHaveText('Đoàn khoa Công nghệ Thông tin');
  await expect(receipt.getByTestId('receipt-amount')).toContainText('60.000');
  await expect(receipt.getByTestId('receipt-words')).toHaveText('Sáu mươi nghìn đồng');
  await expect(receipt.getByTestId('receipt-time')).not.toHaveText('—');

  // Printing shows the receipt alone (no status block, no buttons).
  await page.emulateMedia({ media: 'print' });
  await expect(receipt).toBeVisible();
  await expect(page.getByTestId('payment-status')).toBeHidden();
  await expect(page.getByTestId('result-actions')).toBeHidden();
  await page.emulateMedia({ media: 'screen' });

  await expect(page.getByTestId('dashboard-button')).toHaveAttribute('href', '/payment/my-campaigns');
  await page.getByTestId('dashboard-button').click();
  await expect(page.getByTestId('my-campaigns')).toBeVisible();
  await expect(await feeRow(page, CAMPAIGN)).toHaveAttribute('data-status', 'PAID');
});
