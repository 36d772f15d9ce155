/**
 * Issue 15 part 6: the member's own profile in the portal: their record (class, Đoàn/Hội status),
 * a phone they can change (and nothing else), and their payments with links to the receipt page.
 */
import { expect, test, type Page } from '../helpers/test';
import { mkdirSync } from 'node:fs';
import { MEMBER } from '../helpers/accounts';
import { memberFeeCampaign } from '../helpers/campaign';
import { apiLogin } from '../helpers/session';

const SHOTS = process.env.SHOTS_DIR;
const campaignName = `Đợt thu hồ sơ ${Date.now()}`;

async function portalSignIn(page: Page) {
  await page.goto('/payment/login');
  await page.getByLabel('Email').fill(MEMBER.email);
  await page.getByLabel('Mật khẩu').fill(MEMBER.password);
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page.getByTestId('my-campaigns')).toBeVisible();
}

async function look(page: Page, width: number) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width, height: 900 });
  for (const lng of ['vi', 'en'] as const) {
    for (const mode of ['light', 'dark'] as const) {
      await page.evaluate(
        ([l, m]) => {
          localStorage.setItem('i18nextLng', l);
          localStorage.setItem('colorMode', m);
        },
        [lng, mode],
      );
      await page.reload();
      await expect(page.getByTestId('profile-history')).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/profile-${width}-${lng}-${mode}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => {
    localStorage.setItem('i18nextLng', 'vi');
    localStorage.setItem('colorMode', 'light');
  });
}

// Its journeys share what beforeAll sets up once: in order, in one worker (the suite runs fully parallel).
test.describe.configure({ mode: 'default' });

test.describe('member profile in the portal', () => {
  test.beforeAll(async ({ baseURL }) => {
    await memberFeeCampaign(baseURL!, campaignName);
    // The member opens a payment for it, so their history has an order with a receipt page.
    const token = await apiLogin(baseURL!, MEMBER);
    const list = await fetch(`${baseURL}/api/payment/assignments/my-assignments?page=1&limit=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await list.json()) as { data: { assignments: { id: number; campaign?: { name: string } }[] } };
    const a = body.data.assignments.find((x) => x.campaign?.name === campaignName)!;
    const link = await fetch(`${baseURL}/api/payment/create-payment-link`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ assignmentId: a.id }),
    });
    expect(link.status).toBe(200);
  });

  test('shows the record, changes the phone only, and links each payment to its page', async ({ page }) => {
    test.setTimeout(SHOTS ? 300_000 : 90_000);
    await page.setViewportSize({ width: 1366, height: 900 });
    await portalSignIn(page);
    await page.getByTestId('profile-link').click();
    await expect(page).toHaveURL(/\/payment\/profile$/);
    await expect(page.getByRole('heading', { name: 'Hồ sơ của tôi' })).toBeVisible();
    await expect(page.getByTestId('profile-name')).toHaveText('Nguyễn Thị Lan');
    await expect(page.getByTestId('profile-class')).toHaveText('22CNTT1');
    await expect(page.getByTestId('profile-membership')).not.toBeEmpty();

    // Only the phone, religion and hometown are inputs (issue 30 item 8); a bad phone is refused in place.
    const form = page.getByTestId('profile-contact-form');
    await expect(page.locator('input:not([type=hidden])')).toHaveCount(3);
    const phone = form.getByLabel('Số điện thoại');
    await phone.fill('12ab');
    await form.getByTestId('profile-save').click();
    await expect(form.getByRole('alert')).toHaveText('Số điện thoại phải có 10 hoặc 11 chữ số');
    await phone.fill('0987 654 321');
    await form.getByTestId('profile-save').click();
    await expect(page.getByText('Đã lưu thông tin liên hệ')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('profile-contact-form').getByLabel('Số điện thoại')).toHaveValue('0987654321');

    // The payment opened for the new campaign is listed, with a link to its result page.
    const history = page.getByTestId('profile-history');
    const row = history.locator('tr', { hasText: campaignName });
    await expect(row).toContainText('50.000');
    await expect(row).toContainText('Chờ thanh toán');
    await look(page, 1366);
    await look(page, 390);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByTestId('profile-history').locator('tr', { hasText: campaignName }).getByRole('link').click();
    await expect(page).toHaveURL(/\/payment-result\/\d+/);
  });
});
