/**
 * Page-weight budgets of issue 12, asserted on bytes (compressed bodies plus headers, as Chromium
 * counts them), never on time: the admin's sign-in page ≤ 400 KB on a cold visit, the member
 * portal's first load ≤ 60 KB, sign-in to dashboard ≤ 100 KB of API data for the super admin.
 * Times (users table, portal on Fast 3G) are reported by `npm run bench`, not tested here.
 */
import { expect, test } from '../helpers/test';
import { ADMIN, MEMBER } from '../helpers/accounts';
import { kb, recordTransfers } from '../helpers/transfer';

const api = (url: string) => new URL(url).pathname.startsWith('/api/');

test('the admin sign-in page downloads at most 400 KB, and signing in still validates and reaches the dashboard with at most 100 KB of API data', async ({
  page,
}) => {
  const log = await recordTransfers(page);
  await page.goto('/login');
  const form = page.getByTestId('login-form');
  await expect(form.getByLabel('Email')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const first = log.total();
  expect(
    first,
    `sign-in page: ${kb(first)}\n${log
      .entries()
      .map((e) => `${kb(e.bytes)} ${e.url}`)
      .join('\n')}`,
  ).toBeLessThanOrEqual(400 * 1024);
  // Nothing from the signed-in shell came with it.
  expect(log.entries().some((e) => /\/api\/(users|organizations)/.test(e.url))).toBe(false);

  // The sign-in schema now loads on the first submit: its translated messages still show.
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(form).toContainText('Vui lòng nhập email');

  log.reset();
  await form.getByLabel('Email').fill(ADMIN.email);
  await form.getByLabel('Mật khẩu').fill(ADMIN.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const data = log.total(api);
  expect(data, `API data to the dashboard: ${kb(data)}`).toBeLessThanOrEqual(100 * 1024);
});

test('the member portal first load downloads at most 60 KB, and its sign-in form validates and signs in', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const log = await recordTransfers(page);
  await page.goto('/payment/login');
  const form = page.getByTestId('portal-login-form');
  await expect(form.getByLabel('Email')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const first = log.total();
  expect(
    first,
    `portal first load: ${kb(first)}\n${log
      .entries()
      .map((e) => `${kb(e.bytes)} ${e.url}`)
      .join('\n')}`,
  ).toBeLessThanOrEqual(60 * 1024);

  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(form).toContainText('Vui lòng nhập email');
  await form.getByLabel('Email').fill(MEMBER.email);
  await form.getByLabel('Mật khẩu').fill(MEMBER.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page.getByTestId('my-campaigns')).toBeVisible();

  // The screens loaded later still translate, in both languages.
  await page.getByTestId('language-switcher').selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('my-campaigns')).toContainText('My payments');
});
