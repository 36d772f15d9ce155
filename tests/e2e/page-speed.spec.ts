/**
 * What makes the users table and the portal's sign-in quick (issue 12), asserted as structure, never
 * as time (the times are `npm run bench`'s, tests/bench/pages.ts):
 * - admin: the users screen's code is already loaded when "Users" is clicked, and the click then
 *   waits for one API request only (the page of users), not for the form dialogs' pickers; a
 *   signed-in page load takes antd's component styles from a stylesheet instead of generating them;
 * - portal: after the page itself the sign-in needs one request, its script, with the styles and
 *   the Vietnamese strings inside the page and the script.
 */
import { expect, test, type Request } from '../helpers/test';
import { ADMIN } from '../helpers/accounts';
import { kb, recordTransfers } from '../helpers/transfer';

const path = (r: Request) => new URL(r.url()).pathname;

test('the users screen is preloaded after sign-in, and opening it waits only for the page of users', async ({ page }) => {
  const requests: Request[] = [];
  page.on('request', (r) => requests.push(r));
  // The users screen's chunk (users-<hash>.js) arrives on its own once the signed-in shell is idle.
  const preloaded = page.waitForResponse((r) => /\/assets\/users-[\w-]+\.js$/.test(path(r.request())));
  await page.goto('/login');
  const form = page.getByTestId('login-form');
  await form.getByLabel('Email').fill(ADMIN.email);
  await form.getByLabel('Mật khẩu').fill(ADMIN.password);
  await form.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await preloaded;
  await page.waitForLoadState('networkidle');

  const before = requests.length;
  await page.getByTestId('side-nav').getByText('Người dùng').click();
  await expect(page.getByTestId('users-table').locator('tbody tr.ant-table-row').first()).toBeVisible();
  const after = requests.slice(before);
  // The dashboard's charts chunk may still be arriving for the screen just left; nothing else is fetched.
  const scripts = after
    .filter((r) => r.resourceType() === 'script')
    .map(path)
    .filter((p) => !/\/assets\/charts-/.test(p));
  expect(scripts, 'no code of the users screen is fetched after the click').toEqual([]);
  // One request before the table can show: the page of users. The class and department pickers of
  // the (closed) create and edit dialogs no longer load with the table. The dashboard just left may
  // still ask for its weekly chart as its charts chunk lands (1 run in 6 on a loaded machine): that
  // request is the dashboard's, not the users screen's.
  expect(after.filter((r) => path(r).startsWith('/api/') && !path(r).startsWith('/api/dashboard/')).map(path)).toEqual(['/api/users']);

  // The dialogs still work when opened: the create form shows, with its class picker.
  await page.getByTestId('user-add').click();
  await page.getByRole('menuitem', { name: 'Tạo một người dùng' }).click();
  await expect(page.getByTestId('user-create-form')).toBeVisible();

  // Opened from the sign-in page, the shell generated antd's styles at run time (the table's among
  // them). A signed-in page load takes them from the build's stylesheet (admin/vite-antd-styles.ts).
  const generatedTableStyle = () =>
    page.evaluate(() => Array.from(document.querySelectorAll('style')).some((s) => s.textContent?.includes('.ant-table-wrapper')));
  expect(await generatedTableStyle()).toBe(true);
  const sheet = page.waitForResponse((r) => /\/assets\/antd-[\w-]+\.css$/.test(path(r.request())) && r.ok());
  await page.reload();
  await sheet;
  const firstRow = page.getByTestId('users-table').locator('tbody tr.ant-table-row').first();
  await expect(firstRow).toBeVisible();
  expect(await generatedTableStyle()).toBe(false);
  // Still antd's table: its cells have the theme's padding (16 px), not the browser's (1 px).
  await expect(firstRow.locator('td').nth(1)).toHaveCSS('padding-left', '16px');
});

test('the portal sign-in page needs one request after the page: its script, with the styles and Vietnamese strings built in', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const log = await recordTransfers(page);
  const requests: Request[] = [];
  page.on('request', (r) => requests.push(r));
  await page.goto('/payment/login');
  const form = page.getByTestId('portal-login-form');
  await expect(form.getByRole('button', { name: 'Đăng nhập', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');

  const fetched = requests.map(path).filter((p) => p !== '/favicon.ico');
  expect(fetched[0]).toBe('/payment/login');
  expect(fetched.slice(1), 'after the page: only the entry script').toEqual([
    expect.stringMatching(/^\/portal\/assets\/index-[\w-]+\.js$/),
  ]);
  const script = log.entries().find((e) => /\/portal\/assets\/index-/.test(e.url));
  // React's runtime alone used to be ~45 KB compressed: the entry now stays under 25 KB.
  expect(script?.bytes ?? Infinity, `entry script: ${kb(script?.bytes ?? 0)}`).toBeLessThanOrEqual(25 * 1024);
  // The labels are Vietnamese from the first paint (no translation file was fetched).
  await expect(form.getByLabel('Mật khẩu')).toBeVisible();
});
