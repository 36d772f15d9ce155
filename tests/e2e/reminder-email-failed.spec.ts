/**
 * Issue 15.2, an e-mail that cannot be sent: on a server whose SMTP refuses every connection, the
 * treasurer's reminder still reaches the member's portal notice, the result says the e-mail failed,
 * and the outbox screen shows it as failed with the server's reason, also under its "failed" filter.
 */
import { expect, journeyPort, startServer, test, type Page } from '../helpers/test';
import { FACULTY_ADMIN, MEMBER } from '../helpers/accounts';
import { memberFeeCampaign } from '../helpers/campaign';
import { apiLogin, signIn } from '../helpers/session';

test('a reminder whose e-mail fails shows as failed, with the reason, in the result and the outbox', async ({ browser }, testInfo) => {
  test.setTimeout(240_000);
  // A server of its own, started here rather than as a worker of its own: a worker for one journey
  // was started after every other journey and ran alone on the machine. Port 9 (discard) is closed
  // here: every SMTP connection is refused at once.
  const server = await startServer(journeyPort(testInfo.parallelIndex), { SMTP_URL: 'smtp://127.0.0.1:9', SMTP_FROM: 'doanhoi@test.vn' });
  const context = await browser.newContext({
    baseURL: server.url,
    locale: 'vi-VN',
    timezoneId: 'Asia/Ho_Chi_Minh',
    reducedMotion: 'reduce',
  });
  try {
    await remindAndCheck(server.url, await context.newPage());
  } finally {
    await context.close();
    await server.stop();
  }
});

async function remindAndCheck(baseURL: string, page: Page) {
  const name = `Nhắc lỗi e2e ${Date.now()}`;
  await memberFeeCampaign(baseURL, name);
  const token = await apiLogin(baseURL, FACULTY_ADMIN);
  const list = (await (
    await fetch(`${baseURL}/api/payment-campaigns?search=${encodeURIComponent(name)}`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { campaigns: { id: number; name: string }[] };
  const id = list.campaigns.find((c) => c.name === name)!.id;

  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, FACULTY_ADMIN, `/admin/payment-campaigns/${id}?tab=member-assignments`);
  await expect(page.getByTestId('assignments-table')).toContainText('50.000', { timeout: 60_000 });
  await page.getByTestId('remind-all').click();
  await page.getByRole('button', { name: 'Gửi nhắc nhở' }).click();
  const result = page.getByTestId('remind-result');
  await expect(result).toContainText('Đã gửi 1 nhắc nhở');
  await expect(result).toContainText('1 e-mail gửi không thành công');

  await page.mouse.move(0, 0);
  await page.getByTestId('side-nav').getByRole('link', { name: 'Hộp thư đi' }).click();
  await expect(page).toHaveURL(/\/email-outbox/);
  const ours = page.getByTestId('outbox-table').locator('tbody tr.ant-table-row', { hasText: name });
  await expect(ours).toHaveCount(1, { timeout: 30_000 });
  await expect(ours).toContainText(MEMBER.email);
  await expect(ours).toContainText('Gửi lỗi');
  await expect(ours.getByTestId('outbox-failure')).toContainText(/ECONNREFUSED|connect/i);
  // The "failed" filter keeps it.
  await page.getByTestId('outbox-status').click();
  await page.locator('.ant-select-item-option', { hasText: 'Gửi lỗi' }).click();
  await expect(page).toHaveURL(/status/);
  await expect(ours).toHaveCount(1);
}
