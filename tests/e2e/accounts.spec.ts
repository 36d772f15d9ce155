import { expect, test, type Page } from '../helpers/test';
import { SESSION_KEYS } from '@doanhoi/shared/client/session';
import { ADMIN } from '../helpers/accounts';
import { mailedCode } from '../helpers/password-code';
import { apiLogin, signIn } from '../helpers/session';

/**
 * Security issue item 4: an account on its default password (imported or created without one)
 * is led straight to the change form, in the admin and in the portal, and gets nothing else first.
 * Issue 25 item 7: that first change also needs a one-time code (e-mailed, or issued by an admin).
 */
async function newAccount(baseURL: string, code: string) {
  const token = await apiLogin(baseURL, ADMIN);
  const email = `${code.toLowerCase()}@sv.bachkhoa.edu.vn`;
  const res = await fetch(`${baseURL}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ code, familyName: 'Phan Văn', givenName: 'Mới', email, phone: '0912345678' }),
  });
  expect(res.status).toBe(201);
  return { email, password: code.toLowerCase(), id: ((await res.json()) as { id: number }).id };
}

async function fillChange(page: Page, scope: ReturnType<Page['locator']>, current: string, next: string) {
  await scope.getByLabel('Mật khẩu hiện tại').fill(current);
  await scope.getByLabel('Mật khẩu mới', { exact: true }).fill(next);
  await scope.getByLabel('Xác nhận mật khẩu mới').fill(next);
}

test('admin: a default password opens only the change dialog, then the app', async ({ page, baseURL }) => {
  const account = await newAccount(baseURL!, 'E2EPW01');
  await page.goto('/login');
  const form = page.getByTestId('login-form');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Mật khẩu').fill(account.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Đổi mật khẩu');
  await expect(page.getByTestId('side-nav')).toHaveCount(0);
  await fillChange(page, dialog, account.password, 'mat-khau-moi-1');
  // Without the code the public password is not enough.
  await dialog.getByLabel('Mã xác nhận').fill('000000');
  await dialog.getByRole('button', { name: 'Đổi mật khẩu' }).click();
  await expect(page.getByText('Mã xác nhận không đúng, đã hết hạn hoặc đã được dùng')).toBeVisible();
  await expect(page.getByTestId('side-nav')).toHaveCount(0);
  await dialog.getByTestId('send-password-code').click();
  await expect(page.getByText(`Đã gửi mã xác nhận đến ${account.email}`)).toBeVisible();
  await dialog.getByLabel('Mã xác nhận').fill(await mailedCode(baseURL!, account.email));
  await dialog.getByRole('button', { name: 'Đổi mật khẩu' }).click();
  await expect(page.getByTestId('side-nav')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('portal: a default password goes straight to the change page, then to my payments', async ({ page, baseURL }) => {
  const account = await newAccount(baseURL!, 'E2EPW02');
  await page.goto('/payment/login');
  const form = page.getByTestId('portal-login-form');
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Mật khẩu').fill(account.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page).toHaveURL(/\/payment\/change-password/);
  const change = page.getByTestId('portal-change-password-form');
  // Asking for another page first still ends on the form.
  await page.goto('/payment/my-campaigns');
  await expect(page).toHaveURL(/\/payment\/change-password/);
  await fillChange(page, change, account.password, 'mat-khau-moi-2');
  await change.getByRole('button', { name: 'Đổi mật khẩu' }).click();
  await expect(change.getByText('Vui lòng nhập mã xác nhận')).toBeVisible();
  await expect(change.getByTestId('send-password-code')).toBeVisible();
  // The owner went to the union office: an administrator issues the code, shown to them once.
  const adminToken = await apiLogin(baseURL!, ADMIN);
  const issued = await fetch(`${baseURL}/api/auth/password-codes`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
    body: JSON.stringify({ userId: account.id }),
  });
  expect(issued.status).toBe(201);
  await change.getByLabel('Mã xác nhận').fill(((await issued.json()) as { code: string }).code);
  await change.getByRole('button', { name: 'Đổi mật khẩu' }).click();
  await expect(page).toHaveURL(/\/payment\/my-campaigns/);
});

test('auth callback: tokens in the URL are refused, not stored (issue 25 item 9)', async ({ page, baseURL }) => {
  const res = await fetch(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const { accessToken, refreshToken } = (await res.json()) as { accessToken: string; refreshToken: string };
  await page.goto(`/auth/callback?token=${encodeURIComponent(accessToken)}&refresh_token=${encodeURIComponent(refreshToken)}`);
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText('Phản hồi đăng nhập không hợp lệ. Vui lòng thử lại.')).toBeVisible();
  expect(await page.evaluate((k) => localStorage.getItem(k), SESSION_KEYS.access)).toBeNull();
  await page.goto('/');
  await expect(page).toHaveURL(/\/login/);
  // A made-up one-time code is refused by the server the same way.
  await page.goto('/auth/callback?code=forged-code-forged-code-forged');
  await expect(page.getByText('Không thể hoàn tất đăng nhập. Vui lòng thử lại.')).toBeVisible();
  expect(await page.evaluate((k) => localStorage.getItem(k), SESSION_KEYS.access)).toBeNull();
});

test('admin: the user dialog issues a one-time password code for an account on its default password, shown once', async ({
  page,
  baseURL,
}) => {
  const account = await newAccount(baseURL!, 'E2EPW03');
  await signIn(page, ADMIN, '/users');
  await page.getByTestId('user-search').fill('E2EPW03');
  const row = page.getByTestId('users-table').locator('tbody tr.ant-table-row').filter({ hasText: 'E2EPW03' });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Xem' }).click();
  await page.getByTestId('issue-password-code').click();
  const shown = page.getByTestId('issued-password-code');
  await expect(shown).toContainText('chỉ hiển thị lần này');
  const code = (await shown.locator('.ant-typography').first().innerText()).trim();
  expect(code).toMatch(/^\d{6}$/);
  // The owner, signed in with the public default password, changes it with that code.
  const session = await fetch(`${baseURL}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  const { accessToken } = (await session.json()) as { accessToken: string };
  const changed = await fetch(`${baseURL}/api/auth/change-password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ currentPassword: account.password, newPassword: 'mat-khau-moi-3', code }),
  });
  expect(changed.status).toBe(200);
});
