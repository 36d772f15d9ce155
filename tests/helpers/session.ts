import { expect, type Page } from '@playwright/test';

/** Sign in through the admin's login page and wait for the dashboard. */
export async function signIn(page: Page, account: { email: string; password: string }, to = '/') {
  await page.goto(to === '/' ? '/login' : `/login?to=${encodeURIComponent(to)}`);
  const form = page.getByTestId('login-form');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Mật khẩu').fill(account.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
}
