/**
 * Unpaid-fee reminders (issue 15.2): the faculty treasurer reminds every unpaid member of a
 * campaign (a second click within the interval skips them), the history and the outbox show it,
 * and the member sees the notice with a pay button on my-payments. SHOTS_DIR=… also saves
 * screenshots of both screens in vi/en, light/dark.
 */
import { expect, test, type Page } from '../helpers/test';
import { FACULTY_ADMIN, MEMBER } from '../helpers/accounts';
import { memberFeeCampaign } from '../helpers/campaign';
import { apiLogin, signIn, navigate } from '../helpers/session';

const SHOTS = process.env.SHOTS_DIR;

async function campaignId(baseURL: string, name: string): Promise<number> {
  const token = await apiLogin(baseURL, FACULTY_ADMIN);
  const res = await fetch(`${baseURL}/api/payment-campaigns?search=${encodeURIComponent(name)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { campaigns: { id: number; name: string }[] };
  return body.campaigns.find((c) => c.name === name)!.id;
}

/** Screenshots in the four looks, returning to vi/light. */
async function shots(page: Page, name: string, ready: () => Promise<void>) {
  if (!SHOTS) return;
  for (const lang of ['vi', 'en']) {
    for (const mode of ['light', 'dark']) {
      await page.evaluate(([l, m]) => (localStorage.setItem('i18nextLng', l), localStorage.setItem('colorMode', m)), [lang, mode]);
      await page.reload();
      await ready();
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${SHOTS}/${name}-${lang}-${mode}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => (localStorage.setItem('i18nextLng', 'vi'), localStorage.setItem('colorMode', 'light')));
}

test('a treasurer reminds the unpaid members, and the member sees the notice with a pay button', async ({ page, browser, baseURL }) => {
  // The shared machine can be slow to render the campaign page the first time.
  test.setTimeout(SHOTS ? 600_000 : 240_000);
  const name = `Nhắc nhở e2e ${Date.now()}`;
  await memberFeeCampaign(baseURL!, name);
  const id = await campaignId(baseURL!, name);

  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, FACULTY_ADMIN, `/admin/payment-campaigns/${id}?tab=member-assignments`);
  await expect(page.getByTestId('assignments-table')).toContainText('50.000', { timeout: 60_000 });
  await page.getByTestId('remind-all').click();
  await page.getByRole('button', { name: 'Gửi nhắc nhở' }).click();
  await expect(page.getByTestId('remind-result')).toContainText('Đã gửi 1 nhắc nhở, bỏ qua 0 người vừa được nhắc');
  // No SMTP on the test server: the e-mail waits in the outbox.
  await expect(page.getByTestId('remind-result')).toContainText('hộp thư đi');

  // Within the interval the member is not reminded again.
  await page.getByTestId('remind-all').click();
  await page.getByRole('button', { name: 'Gửi nhắc nhở' }).click();
  await expect(page.getByTestId('remind-result')).toContainText('Đã gửi 0 nhắc nhở, bỏ qua 1 người vừa được nhắc');
  await shots(page, 'admin-assignments', () => expect(page.getByTestId('remind-all')).toBeVisible());

  await navigate(page, `/admin/payment-campaigns/${id}?tab=reminders`);
  const history = page.getByTestId('reminder-history');
  await expect(history.locator('tbody tr.ant-table-row')).toHaveCount(1, { timeout: 60_000 });
  await expect(history).toContainText('Thủ công');
  await expect(history).toContainText('50.000');
  const outbox = page.getByTestId('reminder-outbox');
  await expect(outbox).toContainText('member@doanhoi.local');
  await expect(outbox).toContainText('Trong hộp thư đi');
  await outbox.locator('.ant-table-row-expand-icon').first().click();
  await expect(outbox.locator('.outbox-text')).toContainText('Số tiền: 50.000');

  // The schedule: 3 days before the due date and on the overdue day.
  await page.getByTestId('schedule-before').click();
  await page.getByTestId('schedule-overdue').click();
  await page.getByTestId('schedule-save').click();
  await expect(page.getByText('Đã lưu lịch nhắc nhở')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('schedule-before')).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('schedule-overdue')).toHaveAttribute('aria-checked', 'true');
  await shots(page, 'admin-reminders', () => expect(page.getByTestId('reminder-history').locator('tbody tr.ant-table-row')).toHaveCount(1));

  const member = await browser.newContext({ locale: 'vi-VN', timezoneId: 'Asia/Ho_Chi_Minh', viewport: { width: 1366, height: 900 } });
  const portal = await member.newPage();
  await portal.goto('/payment/my-campaigns');
  const form = portal.getByTestId('portal-login-form');
  await form.getByLabel('Email').fill(MEMBER.email);
  await form.getByLabel('Mật khẩu').fill(MEMBER.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  const notice = portal.getByTestId('reminder-notice').filter({ hasText: name });
  await expect(notice).toBeVisible({ timeout: 60_000 });
  await expect(notice).toContainText('50.000 ₫');
  await expect(notice).toContainText(/hạn nộp \d{2}\/\d{2}\/\d{4}/);
  await shots(portal, 'portal-notice', () => expect(portal.getByTestId('reminder-notice').first()).toBeVisible());
  if (SHOTS) {
    await portal.setViewportSize({ width: 390, height: 844 });
    await portal.screenshot({ path: `${SHOTS}/portal-notice-390.png`, fullPage: true });
    await portal.setViewportSize({ width: 1366, height: 900 });
  }
  await notice.getByTestId('reminder-pay').click();
  await expect(portal).toHaveURL(/\/sandbox\/payos\/checkout\//);
  await expect(portal.locator('body')).toContainText('50.000');
  await member.close();
});
