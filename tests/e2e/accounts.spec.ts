import { expect, test, type Page } from '../helpers/test';
import { ADMIN } from '../helpers/accounts';
import { apiLogin } from '../helpers/session';

/**
 * Security issue item 4: an account on its default password (imported or created without one)
 * is led straight to the change form, in the admin and in the portal, and gets nothing else first.
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
  return { email, password: code.toLowerCase() };
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
  await expect(page).toHaveURL(/\/payment\/my-campaigns/);
});
