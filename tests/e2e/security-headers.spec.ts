import { expect, test, type Page } from '../helpers/test';
import { ADMIN, MEMBER } from '../helpers/accounts';
import { memberFeeCampaign } from '../helpers/campaign';
import { navigate, signInThroughPage } from '../helpers/session';
import { feeRow } from '../helpers/my-fees';

/** Every Content-Security-Policy violation the page reports, from the DOM event and the console. */
async function watchCsp(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  page.on('console', (m) => {
    if (/CSP violation|Content Security Policy/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}

function expectHeaders(headers: Record<string, string>) {
  expect(headers['content-security-policy']).toContain("script-src 'self'");
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('no-referrer');
}

test('admin screens work under the CSP, with no violation reported', async ({ page }) => {
  const violations = await watchCsp(page);
  const login = await page.goto('/login');
  expectHeaders(login!.headers());
  await signInThroughPage(page, ADMIN);
  await expect(page.getByTestId('dashboard')).toBeVisible();
  for (const [path, text] of [
    ['/users', 'Người dùng'],
    ['/organizations', 'Tổ chức'],
    ['/departments', 'Khoa'],
    ['/permissions', 'Phân quyền'],
    ['/admin/payment-campaigns', 'thu phí'],
  ] as const) {
    // Each screen's own address answers with the headers; the screen then renders under them, reached
    // as the menu reaches it (one document, so one policy, as a user's session has).
    expectHeaders((await page.request.get(path)).headers());
    await navigate(page, path);
    await expect(page.locator('.ant-table, .ant-tree, .ant-card').first()).toBeVisible();
    await expect(page.locator('body')).toContainText(text);
  }
  // antd's run-time styles apply (style-src 'unsafe-inline'): the layout has its theme background.
  const bg = await page
    .locator('.ant-layout')
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(bg).not.toBe('rgba(0, 0, 0, 0)');
  expect(violations).toEqual([]);
});

test('portal and the payOS sandbox checkout work under the CSP', async ({ page, baseURL }) => {
  const name = `Quỹ CSP E2E ${Date.now() % 100000}`;
  await memberFeeCampaign(baseURL!, name);
  const violations = await watchCsp(page);
  const portal = await page.goto('/payment/my-campaigns');
  expectHeaders(portal!.headers());
  const form = page.getByTestId('portal-login-form');
  await form.getByLabel('Email').fill(MEMBER.email);
  await form.getByLabel('Mật khẩu').fill(MEMBER.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page.getByTestId('my-campaigns')).toBeVisible();

  const checkout = page.waitForResponse((r) => /\/sandbox\/payos\/checkout\/[^/]+$/.test(r.url()) && r.request().method() === 'GET');
  await (await feeRow(page, name)).getByTestId('pay-button').click();
  const sandbox = await checkout;
  expectHeaders(sandbox.headers());
  expect(sandbox.headers()['content-security-policy']).not.toContain('form-action');
  // The page's own <style> applies: the Pay button is green.
  await expect(page.getByRole('button', { name: 'Thanh toán' })).toHaveCSS('background-color', 'rgb(22, 163, 74)');
  await page.getByRole('button', { name: 'Hủy' }).click();
  await expect(page).toHaveURL(/\/payment-result\/\d+/);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'CANCELLED');
  expect(violations).toEqual([]);
});
