/**
 * Issue 15.3 from both ends: the faculty treasurer exempts the demo member's fee with a reason and
 * reverses a colleague's mistaken cash payment from the payment history tab (not only from the
 * assignments tab); the member sees the exempted fee as not payable in the portal, and a reduced
 * fee of another campaign at its reduced amount with the pay button. SHOTS_DIR=… saves the screens.
 */
import { expect, test, type Page } from '../helpers/test';
import { FACULTY_ADMIN, MEMBER } from '../helpers/accounts';
import { call, feeCampaign } from '../helpers/fees';
import { looks } from '../helpers/looks';
import { signIn } from '../helpers/session';
import { feeRow } from '../helpers/my-fees';

const row = (page: Page, assignmentId: number) => page.getByTestId('assignments-table').locator(`tr[data-row-key="${assignmentId}"]`);

test('a treasurer exempts a member and reverses a payment from the history; the member sees exempt and reduced fees', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(process.env.SHOTS_DIR ? 600_000 : 240_000);
  const stamp = Date.now();
  const exemptName = `Miễn phí e2e ${stamp}`;
  const reducedName = `Giảm phí e2e ${stamp}`;
  const a = await feeCampaign(baseURL!, exemptName, 100_000, 1);
  const [member, colleague] = a.assignments as [number, number];
  await call(baseURL!, a.token, 'PATCH', `/payment/assignments/${colleague}/mark-paid`, { method: 'cash' });
  const b = await feeCampaign(baseURL!, reducedName, 100_000, 0);
  await call(baseURL!, b.token, 'POST', `/payment/assignments/${b.assignments[0]}/reduce`, {
    amount: 40_000,
    reason: 'Gia đình chính sách',
  });

  // Exempt the member: a reason is required.
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, FACULTY_ADMIN, `/admin/payment-campaigns/${a.campaignId}?tab=member-assignments`);
  await row(page, member).getByTestId('assignment-adjust').click({ timeout: 60_000 });
  // The dialog opens on its first field, the exempt/reduce choice (000 keyboard use).
  await expect(page.getByTestId('adjust-form').getByRole('radio').first()).toBeFocused();
  await page.getByTestId('adjust-confirm').click();
  await expect(page.getByTestId('adjust-form')).toContainText('Vui lòng nhập lý do');
  await page.getByTestId('adjust-form').getByTestId('adjust-reason').fill('Hoàn cảnh khó khăn');
  await page.getByTestId('adjust-confirm').click();
  await expect(row(page, member)).toContainText('Được miễn');

  // Reverse the colleague's cash payment from the payment history, with a reason.
  await page.getByRole('tab', { name: 'Lịch sử thanh toán' }).click();
  const history = page.getByTestId('history-table');
  const paid = history.locator('tbody tr.ant-table-row', { hasText: a.codes[0]! });
  await expect(paid).toHaveCount(1, { timeout: 30_000 });
  await looks(page, 'history-reverse-action', () => expect(page.getByTestId('history-reverse')).toBeVisible({ timeout: 30_000 }));
  await paid.getByTestId('history-reverse').click();
  const form = page.getByTestId('reverse-order-form');
  await expect(page.getByRole('dialog')).toContainText('100.000');
  await expect(form.getByTestId('reverse-order-reason')).toBeFocused();
  await page.getByTestId('reverse-order-confirm').click();
  await expect(form).toContainText('Vui lòng nhập lý do');
  await form.getByTestId('reverse-order-reason').fill('Ghi nhầm người nộp');
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/history-reverse-modal-vi-light.png` });
  const reversed = page.waitForResponse((r) => r.url().endsWith(`/payment/assignments/${colleague}/reverse-payment`));
  await page.getByTestId('reverse-order-confirm').click();
  expect((await reversed).status()).toBe(200);
  await expect(page.getByText('Đã hủy xác nhận thanh toán').first()).toBeVisible();
  // The payment stays, marked reversed, beside its reversing entry; neither can be reversed again.
  await expect(history.getByTestId('history-reversed')).toHaveCount(1);
  await expect(history.getByTestId('history-reversal')).toHaveCount(1);
  await expect(history.getByTestId('history-reverse')).toHaveCount(0);
  await looks(page, 'history-reversed', () => expect(page.getByTestId('history-reversed')).toBeVisible({ timeout: 30_000 }));
  // The fee is unpaid again on the assignments tab.
  await page.getByRole('tab', { name: 'Phân công thành viên' }).click();
  await expect(row(page, colleague)).toContainText('Chờ thanh toán');
  await expect(row(page, colleague).getByTestId('assignment-mark-paid')).toBeVisible();

  // The member: the exempted fee is not payable, the reduced one is payable at its reduced amount.
  const portal = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await portal.goto('/payment/my-campaigns');
  const login = portal.getByTestId('portal-login-form');
  await login.getByLabel('Email').fill(MEMBER.email);
  await login.getByLabel('Mật khẩu').fill(MEMBER.password);
  await login.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  const exempt = await feeRow(portal, exemptName);
  await expect(exempt).toHaveAttribute('data-status', 'EXEMPTED', { timeout: 60_000 });
  await expect(exempt.getByTestId('assignment-amount')).toHaveText(/^0\s₫$/);
  await expect(exempt.getByTestId('assignment-original')).toHaveText(/100\.000/);
  await expect(exempt.getByTestId('assignment-adjustment')).toContainText('Hoàn cảnh khó khăn');
  await expect(exempt.locator('[data-action="exempted"]')).toBeDisabled();
  await expect(exempt.getByTestId('pay-button')).toHaveCount(0);
  const reduced = await feeRow(portal, reducedName);
  await expect(reduced.getByTestId('assignment-amount')).toHaveText(/40\.000/);
  await expect(reduced.getByTestId('assignment-original')).toHaveText(/100\.000/);
  await expect(reduced.getByTestId('pay-button')).toBeVisible();
  const ready = async () => expect(await feeRow(portal, exemptName)).toBeVisible({ timeout: 30_000 });
  await looks(portal, 'portal-exempt-reduced', ready);
  await looks(portal, 'portal-exempt-reduced', ready, 390);
  await portal.close();
});
