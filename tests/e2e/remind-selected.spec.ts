/**
 * Issue 15.2, "remind selected" and the outbox screen: the faculty treasurer ticks two of three
 * unpaid members and reminds them; the history lists those two only, the outbox screen (no SMTP on
 * the test server) holds their e-mails with the whole text, and the demo member sees the notice in
 * the portal. A member has no outbox. SHOTS_DIR=… saves the screens in vi/en, light/dark.
 */
import { expect, test, type Page } from '../helpers/test';
import { FACULTY_ADMIN, MEMBER } from '../helpers/accounts';
import { feeCampaign } from '../helpers/fees';
import { looks } from '../helpers/looks';
import { signIn, navigate } from '../helpers/session';

const row = (page: Page, assignmentId: number) => page.getByTestId('assignments-table').locator(`tr[data-row-key="${assignmentId}"]`);

test('a treasurer reminds two ticked members; history, outbox screen and the member’s notice show it', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(process.env.SHOTS_DIR ? 600_000 : 240_000);
  const name = `Nhắc người đã chọn ${Date.now()}`;
  const fee = await feeCampaign(baseURL!, name, 60_000, 2);
  const [member, picked, left] = fee.assignments as [number, number, number];

  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, FACULTY_ADMIN, `/admin/payment-campaigns/${fee.campaignId}?tab=member-assignments`);
  await expect(row(page, left)).toContainText('60.000', { timeout: 60_000 });
  for (const id of [member, picked]) {
    await row(page, id).locator('td.ant-table-selection-column .ant-checkbox-wrapper').click();
    await expect(row(page, id).locator('.ant-checkbox-input')).toBeChecked();
  }
  await expect(row(page, left).locator('.ant-checkbox-input')).not.toBeChecked();
  const sent = page.waitForResponse(
    (r) => r.url().endsWith(`/api/payment-campaigns/${fee.campaignId}/reminders`) && r.request().method() === 'POST',
  );
  await page.getByTestId('remind-selected').filter({ hasText: '(2)' }).click();
  expect((await sent).status()).toBe(200);
  await expect(page.getByTestId('remind-result')).toContainText('Đã gửi 2 nhắc nhở, bỏ qua 0 người vừa được nhắc');
  await expect(page.getByTestId('remind-result')).toContainText('hộp thư đi');

  // The history: the two ticked members, by the treasurer, and not the third.
  await page.getByRole('tab', { name: 'Nhắc nhở' }).click();
  const history = page.getByTestId('reminder-history');
  await expect(history.locator('tbody tr.ant-table-row')).toHaveCount(2, { timeout: 30_000 });
  await expect(history).toContainText(fee.codes[0]!);
  await expect(history).not.toContainText(fee.codes[1]!);
  await expect(history.locator('tbody tr.ant-table-row', { hasText: 'Thủ công' })).toHaveCount(2);

  // The outbox screen: both e-mails wait there, with the campaign and the whole message.
  await page.mouse.move(0, 0);
  await page.getByTestId('side-nav').getByRole('link', { name: 'Hộp thư đi' }).click();
  await expect(page).toHaveURL(/\/email-outbox/);
  const outbox = page.getByTestId('outbox-table');
  const ours = outbox.locator('tbody tr.ant-table-row', { hasText: name });
  await expect(ours).toHaveCount(2, { timeout: 30_000 });
  await expect(ours.filter({ hasText: MEMBER.email })).toHaveCount(1);
  await expect(ours.first()).toContainText('Trong hộp thư đi');
  await ours.filter({ hasText: MEMBER.email }).locator('.ant-table-row-expand-icon').click();
  await expect(outbox.locator('.outbox-text').first()).toContainText('Số tiền: 60.000');
  // Filtered to failed e-mails, none of ours is there.
  await page.getByTestId('outbox-status').click();
  await page.locator('.ant-select-item-option', { hasText: 'Gửi lỗi' }).click();
  await expect(page).toHaveURL(/status/);
  await expect(ours).toHaveCount(0);
  await navigate(page, '/email-outbox');
  await looks(page, 'outbox', () =>
    expect(page.getByTestId('outbox-table').locator('tbody tr.ant-table-row').first()).toBeVisible({ timeout: 30_000 }),
  );
  await looks(
    page,
    'outbox',
    () => expect(page.getByTestId('outbox-table').locator('tbody tr.ant-table-row').first()).toBeVisible({ timeout: 30_000 }),
    390,
  );

  // The demo member sees the notice in the portal.
  const context = await browser.newContext({ locale: 'vi-VN', timezoneId: 'Asia/Ho_Chi_Minh', viewport: { width: 1366, height: 900 } });
  const portal = await context.newPage();
  await portal.goto('/payment/my-campaigns');
  const form = portal.getByTestId('portal-login-form');
  await form.getByLabel('Email').fill(MEMBER.email);
  await form.getByLabel('Mật khẩu').fill(MEMBER.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  const notice = portal.getByTestId('reminder-notice').filter({ hasText: name });
  await expect(notice).toBeVisible({ timeout: 60_000 });
  await expect(notice).toContainText('60.000 ₫');

  // A member has no outbox: no menu entry, and the page is refused.
  await context.close();
  const admin = await (await browser.newContext({ locale: 'vi-VN', timezoneId: 'Asia/Ho_Chi_Minh' })).newPage();
  await signIn(admin, MEMBER);
  await expect(admin.getByTestId('side-nav')).toBeVisible();
  await expect(admin.getByTestId('side-nav').getByText('Hộp thư đi')).toHaveCount(0);
  await admin.goto('/email-outbox');
  await expect(admin.getByText('Không có quyền truy cập').first()).toBeVisible({ timeout: 30_000 });
  await admin.context().close();
});
