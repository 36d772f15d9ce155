import { expect, test, type Page } from '../helpers/test';
import { MEMBER } from '../helpers/accounts';

async function startPayment(page: Page) {
  // A pending fee that can be paid now (other journeys leave fees of cancelled campaigns behind, without a pay button).
  const pending = page
    .locator('[data-testid="assignment-row"][data-status="PENDING"]')
    .filter({ has: page.getByTestId('pay-button') })
    .first();
  await expect(pending).toBeVisible();
  await expect(pending).toContainText('₫');
  await pending.getByTestId('pay-button').click();
  // The checkout page of the local payOS sandbox.
  await expect(page).toHaveURL(/\/sandbox\/payos\/checkout\//);
  await expect(page.locator('body')).toContainText('₫');
}

test('a member cancels at the payOS checkout, retries, pays and sees the fee paid @pg', async ({ page }) => {
  await page.goto('/payment/my-campaigns');
  await expect(page).toHaveURL(/\/payment\/login/);
  const form = page.getByTestId('portal-login-form');
  await form.getByLabel('Email').fill(MEMBER.email);
  await form.getByLabel('Mật khẩu').fill(MEMBER.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page.getByTestId('my-campaigns')).toBeVisible();
  await expect(page.locator('[data-testid="assignment-row"]').first()).toBeVisible();
  // The paid tile counts every page: after other journeys a member has more than a page of fees, pending ones first.
  const paidCount = async () => Number((await page.getByTestId('stat-paid').locator('.tile-count').innerText()).replace(/\D/g, ''));
  const paidBefore = await paidCount();

  // Until checkout.js has taken the forms over, a click would post them without the member's token (a raw 401 page).
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/checkout.js', async (route) => {
    await held;
    await route.continue();
  });
  await startPayment(page);
  await expect(page.getByRole('button', { name: 'Hủy' })).toBeDisabled();
  release();
  await page.getByRole('button', { name: 'Hủy' }).click();
  await expect(page).toHaveURL(/\/payment-result\/\d+/);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'CANCELLED');
  await page.unroute('**/checkout.js');

  await page.goto('/payment/my-campaigns');
  await startPayment(page);
  await page.getByRole('button', { name: 'Thanh toán' }).click();
  await expect(page).toHaveURL(/\/payment-result\/\d+/);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'PAID');
  await expect(page.getByTestId('payment-result')).toContainText('₫');

  // The fee is settled by payOS's webhook, which comes after the buyer is sent back (as with real
  // payOS): the member reloads the list until it shows, as they would.
  await expect(async () => {
    await page.goto('/payment/my-campaigns');
    await expect(page.getByTestId('stat-paid')).toBeVisible({ timeout: 2_000 });
    expect(await paidCount()).toBe(paidBefore + 1);
  }).toPass({ timeout: 20_000 });
});
