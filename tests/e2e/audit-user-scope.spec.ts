/**
 * Issue 15.4, changes to users: the faculty admin (audit.access in DCS-CNTT) finds in the audit log
 * the edit of a member of their faculty, with its before/after, and not the edit of another
 * faculty's member, which the super admin sees. SHOTS_DIR=… saves the list in vi/en, light/dark.
 */
import { expect, test } from '../helpers/test';
import { ADMIN, FACULTY_ADMIN } from '../helpers/accounts';
import { call } from '../helpers/fees';
import { looks } from '../helpers/looks';
import { apiLogin, signIn } from '../helpers/session';

const USER_ROWS =
  '/audit-logs?filters[0][field]=entity&filters[0][operator]=eq&filters[0][value]=user&filters[1][field]=action&filters[1][operator]=eq&filters[1][value]=user.update';
const edited: Record<'inside' | 'outside', number> = { inside: 0, outside: 0 };
// Issue 26: a row names the edited member ("… đã sửa thông tin của Nguyễn Văn An"), no longer "#297".
const names: Record<'inside' | 'outside', string> = { inside: '', outside: '' };

// Its journeys share what beforeAll sets up once: in order, in one worker (the suite runs fully parallel).
test.describe.configure({ mode: 'default' });

test.beforeAll(async ({ baseURL }) => {
  const token = await apiLogin(baseURL!, ADMIN);
  for (const [key, code, phone] of [
    ['inside', 'DCS-CNTT', '0911000111'],
    ['outside', 'DCS-DDT', '0911000222'],
  ] as const) {
    const org = await call<{ id: number }>(baseURL!, token, 'GET', `/organizations/by-type-code/doan_co_so/${code}`);
    const { users } = await call<{ users: { id: number; code: string; familyName: string; givenName: string }[] }>(
      baseURL!,
      token,
      'GET',
      `/users?organizationId=${org.id}&isActive=true&limit=20`,
    );
    const user = users.find((u) => /^\d+$/.test(u.code))!;
    await call(baseURL!, token, 'PATCH', `/users/${user.id}`, { phone });
    edited[key] = user.id;
    names[key] = `${user.familyName} ${user.givenName}`;
  }
});

test('a faculty auditor reads the edits of its own members only', async ({ page, browser }) => {
  test.setTimeout(process.env.SHOTS_DIR ? 300_000 : 120_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, FACULTY_ADMIN, USER_ROWS);
  const table = page.getByTestId('audit-table');
  const inside = table.locator('tbody tr.ant-table-row', { hasText: `đã sửa thông tin của ${names.inside}` });
  await expect(inside).toHaveCount(1, { timeout: 30_000 });
  await expect(table.locator('tbody tr.ant-table-row', { hasText: `đã sửa thông tin của ${names.outside}` })).toHaveCount(0);
  await inside.getByRole('button', { name: 'Xem thay đổi' }).click();
  const diff = page.getByTestId('audit-change').getByTestId('audit-diff');
  await expect(diff.locator('tr', { hasText: 'Số điện thoại' })).toContainText('0911000111');
  await page.keyboard.press('Escape');
  await looks(page, 'audit-user-changes', () =>
    expect(page.getByTestId('audit-table').locator('tbody tr.ant-table-row').first()).toBeVisible({ timeout: 30_000 }),
  );

  // The super admin reads both.
  const admin = await (await browser.newContext({ locale: 'vi-VN', timezoneId: 'Asia/Ho_Chi_Minh' })).newPage();
  await signIn(admin, ADMIN);
  await admin.goto(USER_ROWS);
  await expect(
    admin.getByTestId('audit-table').locator('tbody tr.ant-table-row', { hasText: `đã sửa thông tin của ${names.outside}` }),
  ).toHaveCount(1, { timeout: 30_000 });
  await admin.context().close();
});
