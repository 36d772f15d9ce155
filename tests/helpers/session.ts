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

/** Signs in through the API and returns the access token (for arranging data around a browser test). */
export async function apiLogin(baseURL: string, account: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (!res.ok) throw new Error(`login failed ${res.status}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}
