/**
 * Smoke walk against a server of two API processes (WEB_CONCURRENCY=2, issue 28): its requests are
 * shared out between both workers, so each screen below is read through either of them. The
 * admin signs in on the login page, finds users, opens a campaign; a member signs in on the portal.
 */
import { expect, test } from '../helpers/test';
import { ADMIN, MEMBER } from '../helpers/accounts';
import { navigate, signInThroughPage } from '../helpers/session';

test.use({ serverEnv: { WEB_CONCURRENCY: '2' } });

test('with two API processes the admin walks users and a campaign, and a member signs in on the portal', async ({ page }) => {
  test.setTimeout(120_000);
  await signInThroughPage(page, ADMIN, '/users');
  const rows = page.getByTestId('users-table').locator('tbody tr.ant-table-row');
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('user-search').fill('nguyen');
  await page.getByRole('button', { name: 'Lọc', exact: true }).click();
  await expect(rows.first()).toContainText('Nguyễn');
  await expect(page).toHaveURL(/nguyen/); // the list has written its filter before the menu moves on

  await navigate(page, '/admin/payment-campaigns');
  const draft = 'Quỹ Mùa hè xanh 2026';
  const row = page.getByTestId('campaigns-table').locator('tbody tr.ant-table-row').filter({ hasText: draft });
  await row.getByRole('link', { name: draft }).click({ timeout: 30_000 });
  await expect(page.getByTestId('campaign-page')).toContainText(draft);
  await page.getByRole('tab', { name: 'Mức phí' }).click();
  await expect(page).toHaveURL(/tab=fee-levels/);

  const member = await page
    .context()
    .browser()!
    .newPage({ baseURL: new URL(page.url()).origin });
  await member.goto('/payment/my-campaigns');
  await expect(member).toHaveURL(/\/payment\/login/);
  const form = member.getByTestId('portal-login-form');
  await form.getByLabel('Email').fill(MEMBER.email);
  await form.getByLabel('Mật khẩu').fill(MEMBER.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(member.getByTestId('my-campaigns')).toBeVisible();
  await expect(member.locator('[data-testid="assignment-row"]').first()).toContainText('₫');
  await member.close();
});
