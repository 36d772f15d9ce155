import { expect as baseExpect, test } from '../helpers/test';
import { ADMIN, MEMBER } from '../helpers/accounts';
import { signIn } from '../helpers/session';
import { watchApi } from '../helpers/api-watch';

// The shared 2-core machine stalls the browser for seconds at a time: generous waits, same assertions.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

test.describe('a browser set to English', () => {
  test.use({ locale: 'en-US' });
  test('still opens the app in Vietnamese (item 9d)', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByTestId('login-form')).toContainText('Mật khẩu');
    await expect(page.locator('html')).toHaveAttribute('lang', 'vi');
  });
});

test('switching language re-translates the screen already open, both ways (item 12)', async ({ page }) => {
  await signIn(page, ADMIN, '/organizations');
  const tree = page.getByTestId('org-tree');
  await expect(tree).toContainText('Cây tổ chức');
  await page.getByTestId('language-switcher').click();
  await page.locator('.ant-dropdown:visible').getByText('English').click();
  await expect(tree).toContainText('Organization tree');
  await expect(page.getByRole('navigation').first()).toContainText('Organizations');
  await page.getByTestId('language-switcher').click();
  await page.locator('.ant-dropdown:visible').getByText('Tiếng Việt').click();
  await expect(tree).toContainText('Cây tổ chức');
  await expect(page.getByRole('navigation').first()).toContainText('Tổ chức');
  await expect(page.locator('body')).not.toContainText('Organization tree');
});

test('a member walks their screens without error toasts (item 13)', async ({ page }) => {
  const api = watchApi(page);
  await signIn(page, MEMBER);
  await expect(page.getByTestId('user-menu')).toBeVisible();
  // Once every request the first screen started has been answered: none failed, and no error toast.
  await api.settled();
  expect(api.errorsSince()).toEqual([]);
  await expect(page.locator('.ant-notification-notice-error')).toHaveCount(0);
});

// The header's organization picker asks /organizations/accessible only of holders of organizations.access.
test('a member never calls what they may not read (item 13: no 403)', async ({ page }) => {
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() === 403) refused.push(r.url());
  });
  const api = watchApi(page);
  await signIn(page, MEMBER);
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await api.settled();
  expect(refused).toEqual([]);
  await expect(page.getByTestId('organization-switcher')).toHaveCount(0);
});

test('the sign-in page offers Google only when the server has it configured (item 9c)', async ({ page }) => {
  const providers = page.waitForResponse((r) => r.url().endsWith('/api/auth/providers'));
  await page.goto('/login');
  // The e2e server has no Google client: the answer says so and no button (nor its divider) is drawn.
  expect(await (await providers).json()).toEqual({ google: false });
  await expect(page.getByTestId('login-form')).toContainText('Mật khẩu');
  await expect(page.getByRole('button', { name: /Google/ })).toHaveCount(0);
});
