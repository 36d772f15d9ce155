/**
 * Errors where the user looks (issue 26 item 7), on the forms the first journey did not walk: the
 * change-password dialog says a wrong current password under that field, in vi at 1440 px and in
 * en at 390 px, with no corner toast; a stored payOS configuration, shown masked, saves a changed
 * link length without asking for its keys again (the masked keys were refused on their fields).
 */
import { expect as baseExpect, test, type Page } from '../helpers/test';
import { ADMIN } from '../helpers/accounts';
import { feeCampaign } from '../helpers/fees';
import { apiLogin, signIn } from '../helpers/session';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

async function newAccount(baseURL: string, code: string) {
  const token = await apiLogin(baseURL, ADMIN);
  const email = `${code.toLowerCase()}@doanhoi.local`;
  const res = await fetch(`${baseURL}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ code, familyName: 'Lê', givenName: 'Sai Mật Khẩu', email, phone: '0912345670', password: 'right-pass1' }),
  });
  expect(res.status, await res.text()).toBe(201);
  return { email, password: 'right-pass1' };
}

async function wrongCurrentPassword(page: Page, labels: { current: string; next: string; confirm: string; wrong: string }) {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('change-password').click();
  const form = page.getByTestId('change-password-form');
  await form.getByLabel(labels.current).fill('not-my-password');
  await form.getByLabel(labels.next, { exact: true }).fill('new-pass-22');
  await form.getByLabel(labels.confirm).fill('new-pass-22');
  await page.keyboard.press('Enter');
  const current = form.locator('.ant-form-item').filter({ has: page.getByLabel(labels.current) });
  await expect(current.locator('.ant-form-item-explain-error')).toHaveText(labels.wrong);
  // Said once, under the field: no corner toast repeating it.
  await expect(page.locator('.ant-notification-notice')).toHaveCount(0);
  await expect(form).toBeVisible();
}

test('vi, 1440 px: a wrong current password is said under "Mật khẩu hiện tại"', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const account = await newAccount(baseURL!, 'FEM-VI');
  await signIn(page, account);
  await wrongCurrentPassword(page, {
    current: 'Mật khẩu hiện tại',
    next: 'Mật khẩu mới',
    confirm: 'Xác nhận mật khẩu mới',
    wrong: 'Mật khẩu hiện tại không đúng',
  });
  // Typing there again clears it.
  await page.getByTestId('change-password-form').getByLabel('Mật khẩu hiện tại').fill('right-pass1');
  await expect(page.getByTestId('change-password-form').locator('.ant-form-item-explain-error')).toHaveCount(0);
});

test('en, 390 px: the same refusal under "Current password" on a phone', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
  const account = await newAccount(baseURL!, 'FEM-EN');
  await signIn(page, account);
  // The API's words stay Vietnamese (its messages are); what matters here is where they stand.
  await wrongCurrentPassword(page, {
    current: 'Current password',
    next: 'New password',
    confirm: 'Confirm new password',
    wrong: 'Mật khẩu hiện tại không đúng',
  });
});

test('a stored payOS configuration saves a new link length with its keys left masked', async ({ page, baseURL }) => {
  const { campaignId, token } = await feeCampaign(baseURL!, `payOS giữ khóa ${Date.now()}`, 20_000, 0);
  await signIn(page, ADMIN, `/admin/payment-campaigns/${campaignId}?tab=payos-config`);
  const apiKey = page.getByLabel('API Key');
  await expect(apiKey).toHaveValue(/^••••/);
  await page.getByTestId('payos-description-length').fill('12');
  await page.getByTestId('payos-save').click();
  await expect(page.locator('.ant-notification-notice')).toContainText('Đã lưu cấu hình PayOS');
  // The masked keys were refused by the form itself ("không dán giá trị đã che"): nothing under them now.
  await expect(page.getByTestId('payos-config').locator('.ant-form-item-explain-error')).toHaveCount(0);
  const res = await fetch(`${baseURL}/api/payment-campaigns/${campaignId}/payos-config?reveal=true`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { data } = (await res.json()) as { data: { descriptionMaxLength: number; apiKey: string } };
  expect(data.descriptionMaxLength).toBe(12);
  expect(data.apiKey).toMatch(/^fee-api-/);
});
