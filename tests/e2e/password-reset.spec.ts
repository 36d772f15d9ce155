/**
 * Issue 30 item 7: a forgotten password, reset through the e-mail. The request page says the same
 * thing for any e-mail; the link is read from the admin's Outbox screen (the e2e server has no
 * SMTP); after the reset the old session is dead, the new password signs in and the link is dead.
 * Fresh accounts: the worker's other journeys keep the seeded passwords.
 */
import { expect, test, type Browser, type Page } from '../helpers/test';
import { ADMIN } from '../helpers/accounts';
import { apiLogin, navigate, signIn, signInThroughPage } from '../helpers/session';

const SENT_VI = 'Nếu email này thuộc một tài khoản đang hoạt động, một liên kết đặt lại mật khẩu đã được gửi đến đó.';

async function createAccount(baseURL: string, code: string, password: string, staff: boolean) {
  const token = await apiLogin(baseURL, ADMIN);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const email = `${code.toLowerCase()}@e2e.edu.vn`;
  const res = await fetch(`${baseURL}/api/users`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ code, familyName: 'Phạm Thu', givenName: 'Quên', email, phone: '0912345678', password }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const { id } = (await res.json()) as { id: number };
  if (staff) {
    const roles = (await (await fetch(`${baseURL}/api/users/available-roles`, { headers })).json()) as {
      id: number;
      name: string;
      grantableIn: { global: boolean };
    }[];
    const role = roles.find((r) => r.grantableIn.global && r.name !== 'super_admin')!;
    const granted = await fetch(`${baseURL}/api/users/${id}/assign-role`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ roleId: role.id }),
    });
    expect(granted.status).toBeLessThan(300);
  }
  return { email, password };
}

/** The reset link last e-mailed to `email`, read as the administrator reads it on the Outbox screen. */
async function linkFromOutbox(browser: Browser, email: string): Promise<string> {
  const context = await browser.newContext({ locale: 'vi-VN' });
  try {
    const page = await context.newPage();
    await signIn(page, ADMIN, '/email-outbox');
    const row = page.getByTestId('outbox-table').locator('tbody tr.ant-table-row', { hasText: email }).first();
    await expect(row).toBeVisible({ timeout: 30_000 });
    await row.getByRole('button').first().click();
    const text = await page.locator('pre.outbox-text').first().innerText();
    const link = text.match(/https?:\/\/\S+reset-password\?token=[A-Za-z0-9_-]+/)?.[0];
    expect(link, text).toBeTruthy();
    return link!;
  } finally {
    await context.close();
  }
}

async function choose(page: Page, password: string, confirm = password) {
  const form = page.getByTestId(/reset-form$/);
  await form.getByLabel('Mật khẩu mới', { exact: true }).fill(password);
  await form.getByLabel('Xác nhận mật khẩu mới', { exact: true }).fill(confirm);
  await form.getByRole('button', { name: 'Đặt mật khẩu mới' }).click();
}

test('a member resets a forgotten password from the portal through the e-mailed link; the old session dies', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const account = await createAccount(baseURL!, `RST${Date.now() % 1_000_000}`, 'old-pass-1', false);

  // The member's old session, in another browser.
  const old = await browser.newContext({ locale: 'vi-VN' });
  const oldPage = await old.newPage();
  await oldPage.goto('/payment/login');
  await oldPage.getByLabel('Email').fill(account.email);
  await oldPage.getByLabel('Mật khẩu', { exact: true }).fill(account.password);
  await oldPage.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(oldPage.getByTestId('my-campaigns')).toBeVisible();
  const oldRefresh = await oldPage.evaluate(() => localStorage.getItem('refreshToken'));

  const context = await browser.newContext({ locale: 'vi-VN' });
  const page = await context.newPage();
  await page.goto('/payment/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByTestId('forgot-password-link').click();
  await expect(page).toHaveURL(/\/payment\/forgot-password/);
  await expect(page.getByLabel('Email')).toHaveValue(account.email);
  await page.getByRole('button', { name: 'Gửi liên kết đặt lại mật khẩu' }).click();
  const sent = await page.getByTestId('forgot-sent').innerText();
  expect(sent).toContain(SENT_VI);

  // An unknown e-mail reads exactly the same.
  await page.goto('/payment/forgot-password');
  await page.getByLabel('Email').fill(`nobody-${Date.now()}@e2e.edu.vn`);
  await page.getByRole('button', { name: 'Gửi liên kết đặt lại mật khẩu' }).click();
  expect(await page.getByTestId('forgot-sent').innerText()).toBe(sent);

  const link = await linkFromOutbox(browser, account.email);
  expect(new URL(link).pathname).toBe('/payment/reset-password');
  await page.goto(link);
  await expect(page.getByTestId('portal-reset-form')).toBeVisible();
  await expect(page).not.toHaveURL(/token=/);
  await choose(page, 'new-pass-2', 'other-pass-2');
  await expect(page.getByText('Mật khẩu xác nhận không khớp')).toBeVisible();
  await choose(page, '123');
  await expect(page.getByText('Mật khẩu phải có ít nhất 6 ký tự')).toBeVisible();
  await choose(page, 'new-pass-2');
  await expect(page.getByTestId('reset-done')).toBeVisible();

  // The old session is dead: its page goes back to the sign-in, its refresh token is refused.
  expect(
    (
      await fetch(`${baseURL}/api/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken: oldRefresh }),
      })
    ).status,
  ).toBe(401);
  await oldPage.reload();
  await expect(oldPage).toHaveURL(/\/payment\/login/, { timeout: 15_000 });
  await old.close();

  // The new password signs in; the old one does not.
  await page.getByRole('link', { name: 'Đăng nhập' }).click();
  await expect(page).toHaveURL(/\/payment\/login/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Mật khẩu', { exact: true }).fill('old-pass-1');
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page.getByTestId('login-error')).toBeVisible();
  await page.getByLabel('Mật khẩu', { exact: true }).fill('new-pass-2');
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page.getByTestId('my-campaigns')).toBeVisible();

  // The link is spent.
  await page.goto(link);
  await expect(page.getByTestId('reset-dead')).toContainText('đã hết hạn');
  await context.close();
});

test('a staff member resets a forgotten password from the admin sign-in; the old admin session dies', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const account = await createAccount(baseURL!, `RSS${Date.now() % 1_000_000}`, 'old-pass-1', true);

  const old = await browser.newContext({ locale: 'vi-VN' });
  const oldPage = await old.newPage();
  await signIn(oldPage, account, '/');

  const context = await browser.newContext({ locale: 'vi-VN' });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByTestId('forgot-password-link').click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByTestId('forgot-form').getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Gửi liên kết đặt lại mật khẩu' }).click();
  await expect(page.getByTestId('forgot-sent')).toContainText(SENT_VI);

  const link = await linkFromOutbox(browser, account.email);
  expect(new URL(link).pathname).toBe('/reset-password');
  await page.goto(link);
  await expect(page).not.toHaveURL(/token=/);
  await choose(page, 'new-pass-3');
  await expect(page.getByTestId('reset-done')).toBeVisible();

  // The old admin session is refused on its next request.
  await navigate(oldPage, '/users');
  await oldPage.reload();
  await expect(oldPage).toHaveURL(/\/login/, { timeout: 20_000 });
  await old.close();

  await page.getByRole('link', { name: 'Đăng nhập' }).click();
  await expect(page).toHaveURL(/\/login/);
  await signInThroughPage(page, { email: account.email, password: 'new-pass-3' });

  // A spent or made-up link says so and offers a new one.
  await page.goto(link);
  await expect(page.getByTestId('reset-dead')).toBeVisible();
  await page.goto('/reset-password?token=not-a-real-token-0000000000');
  await expect(page.getByTestId('reset-dead')).toContainText('Liên kết không còn dùng được');
  await page.getByRole('button', { name: 'Yêu cầu liên kết mới' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await context.close();
});
