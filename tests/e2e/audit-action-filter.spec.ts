/**
 * Issue 26 item 2: the audit log's action filter speaks the officer's language. Typing Vietnamese
 * without accents ("xoa thanh vien") offers "Xóa thành viên khỏi đơn vị"; choosing it leaves only
 * those rows, from page 1, and the choice stays in the address. Several actions can be chosen; in
 * English the same choice reads "Remove a member from a unit"; choosing a sign-in switches sign-ins
 * on. At 1440 px and 390 px. SHOTS_DIR=… saves the screens.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '../helpers/test';
import { ADMIN, FACULTY_ADMIN } from '../helpers/accounts';
import { call } from '../helpers/fees';
import { apiLogin, signIn } from '../helpers/session';

const stamp = Date.now() % 1_000_000;
const branch = `Chi đoàn Bộ lọc ${stamp}`;
const member = { familyName: 'Lê Thị', givenName: `Lọc${stamp}` };
const memberName = `${member.familyName} ${member.givenName}`;
const SHOTS = process.env.SHOTS_DIR;

async function shot(page: Page, name: string) {
  if (!SHOTS || !name) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function useLanguage(page: Page, lng: 'vi' | 'en') {
  await page.evaluate((l) => localStorage.setItem('i18nextLng', l), lng);
  await page.reload();
}

/** Types into the action filter and picks the action whose name is `name`. */
async function chooseAction(page: Page, label: string, typed: string, name: string, shotName?: string) {
  const input = page.getByRole('combobox', { name: label });
  await input.click();
  await input.pressSequentially(typed);
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: new RegExp(`^${name}$`) });
  await expect(option).toBeVisible();
  await shot(page, shotName ?? '');
  await option.click();
  await page.keyboard.press('Escape');
}

test.describe.configure({ mode: 'default' });

test.beforeAll(async ({ baseURL }) => {
  const admin = await apiLogin(baseURL!, ADMIN);
  const faculty = await call<{ id: number }>(baseURL!, admin, 'GET', '/organizations/by-type-code/doan_co_so/DCS-CNTT');
  const org = await call<{ id: number }>(baseURL!, admin, 'POST', '/organizations', {
    name: branch,
    code: `CD-BL-${stamp}`,
    type: 'chi_doan',
    parentId: faculty.id,
  });
  const user = await call<{ id: number }>(baseURL!, admin, 'POST', '/users', {
    code: `BL${stamp}`,
    ...member,
    email: `bl${stamp}@test.vn`,
    phone: '0901234567',
    organizationId: faculty.id,
  });
  const officer = await apiLogin(baseURL!, FACULTY_ADMIN);
  await call(baseURL!, officer, 'POST', `/organizations/${org.id}/members/${user.id}`, {});
  await call(baseURL!, officer, 'DELETE', `/organizations/${org.id}/members/${user.id}`);
  // Enough other changes for a second page, so choosing an action must bring the list back to page 1.
  for (let i = 0; i < 24; i++) await call(baseURL!, admin, 'PATCH', `/users/${user.id}`, { phone: `09012${String(i).padStart(5, '0')}` });
});

for (const width of [1440, 390]) {
  test(`an officer finds the removals by typing words without accents, in Vietnamese and English (${width} px)`, async ({ page }) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, ADMIN, '/audit-logs?currentPage=2&pageSize=20');
    const table = page.getByTestId('audit-table');
    const rows = table.locator('tbody tr.ant-table-row');
    await expect(rows.first()).toBeVisible({ timeout: 30_000 });

    await chooseAction(page, 'Hành động', 'xoa thanh vien', 'Xóa thành viên khỏi đơn vị', `audit-action-options-vi-${width}`);
    const removed = rows.filter({ hasText: `Trần Minh Khoa đã xóa ${memberName} khỏi ${branch}` });
    await expect(removed).toHaveCount(1, { timeout: 30_000 });
    // Only removals, and from the first page.
    await expect(rows.filter({ hasNotText: /đã xóa .+ khỏi/ })).toHaveCount(0);
    await expect(rows.filter({ hasText: `đã sửa thông tin của ${memberName}` })).toHaveCount(0);
    await expect(page).toHaveURL(/currentPage=1/);
    await expect(page).toHaveURL(/membership\.remove/);
    await expect(page.getByTestId('audit-filter-action')).toContainText('Xóa thành viên khỏi đơn vị');
    await shot(page, `audit-action-filter-vi-${width}`);

    // A second action: both kinds of rows.
    await chooseAction(page, 'Hành động', 'them thanh vien', 'Thêm thành viên vào đơn vị');
    await expect(rows.filter({ hasText: `Trần Minh Khoa đã thêm ${memberName} vào ${branch}` })).toHaveCount(1, { timeout: 30_000 });
    await expect(removed).toHaveCount(1);
    await expect(rows.filter({ hasNotText: /đã (xóa .+ khỏi|thêm .+ vào)/ })).toHaveCount(0);

    // The choice is in the address: a reload keeps it, and English names it in English.
    await useLanguage(page, 'en');
    await expect(rows.filter({ hasText: `Trần Minh Khoa removed ${memberName} from ${branch}` })).toHaveCount(1, { timeout: 30_000 });
    await expect(rows.filter({ hasText: `Trần Minh Khoa added ${memberName} to ${branch}` })).toHaveCount(1);
    await expect(rows.filter({ hasText: `edited ${memberName}` })).toHaveCount(0);
    const filter = page.getByTestId('audit-filter-action');
    await expect(filter).toContainText(/Remove a member from a unit|Add a member to a unit/);
    await expect(filter).not.toContainText('membership.');
    await shot(page, `audit-action-filter-en-${width}`);

    // Choosing a sign-in shows sign-ins: the switch turns on with it.
    await filter.locator('.ant-select-clear').click({ force: true });
    await expect(page).not.toHaveURL(/membership\.remove/);
    const signIns = page.getByTestId('audit-filter-sign-ins');
    await expect(signIns).not.toBeChecked();
    await chooseAction(page, 'Action', 'sign in', 'Sign in', `audit-action-options-en-${width}`);
    await expect(rows.filter({ hasText: / signed in/ }).first()).toBeVisible({ timeout: 30_000 });
    await expect(rows.filter({ hasNotText: /signed in/ })).toHaveCount(0);
    await expect(signIns).toBeChecked();
    // Leaving sign-ins out again drops the sign-in from the choice.
    await page.getByText('Show sign-ins and sign-outs').click();
    await expect(signIns).not.toBeChecked();
    await expect(filter).not.toContainText('Sign in');
    await expect(rows.filter({ hasText: /signed in/ })).toHaveCount(0, { timeout: 30_000 });
    await useLanguage(page, 'vi');
  });
}

test('an older link naming one action code still filters, and reads in words', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, FACULTY_ADMIN, '/audit-logs?filters[0][field]=action&filters[0][operator]=eq&filters[0][value]=membership.remove');
  const rows = page.getByTestId('audit-table').locator('tbody tr.ant-table-row');
  await expect(rows.filter({ hasText: `Trần Minh Khoa đã xóa ${memberName} khỏi ${branch}` })).toHaveCount(1, { timeout: 30_000 });
  await expect(rows.filter({ hasNotText: /đã xóa .+ khỏi/ })).toHaveCount(0);
  await expect(page.getByTestId('audit-filter-action')).toContainText('Xóa thành viên khỏi đơn vị');
});
