/**
 * Issue 26 items 5 and 7: every list search follows the typing (no Enter, no "Lọc") and starts
 * again from page 1; a taken code or e-mail is said under its field, not in a corner toast.
 */
import { expect as baseExpect, test, type Page } from '../helpers/test';
import { ADMIN } from '../helpers/accounts';
import { apiLogin, signIn } from '../helpers/session';

// The shared 2-core machine stalls the browser for seconds at a time: generous waits, same assertions.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const rows = (page: Page, table: string) => page.getByTestId(table).locator('tbody tr.ant-table-row');
const activePage = (page: Page) => page.locator('.ant-pagination-item-active');
const errorToasts = (page: Page) => page.locator('.ant-notification-notice-error');

test('typing in the departments, classes and members searches filters the list without Enter and goes back to page 1', async ({
  page,
  baseURL,
}) => {
  // Six more departments make a second page (10 a page).
  const token = await apiLogin(baseURL!, ADMIN);
  for (let i = 1; i <= 6; i++) {
    const res = await fetch(`${baseURL}/api/departments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: `Phòng Tìm kiếm ${i}`, code: `TK-${i}` }),
    });
    expect(res.status).toBe(201);
  }

  await signIn(page, ADMIN, '/departments');
  await page.locator('.ant-pagination-item-2').click();
  await expect(activePage(page)).toHaveText('2');
  await page.getByPlaceholder('Tìm theo tên hoặc mã').fill('cong nghe thong tin');
  await expect(rows(page, 'departments-table')).toHaveCount(1);
  await expect(rows(page, 'departments-table')).toContainText('Khoa Công nghệ Thông tin');
  await expect(page).toHaveURL(/currentPage=1/);
  // Emptying the box brings every department back, from the first page.
  await page.getByPlaceholder('Tìm theo tên hoặc mã').fill('');
  await expect(rows(page, 'departments-table')).toHaveCount(10);
  await expect(activePage(page)).toHaveText('1');

  // Classes: 16 in the demo, two pages.
  await page.goto('/classes?currentPage=2&pageSize=10');
  await expect(activePage(page)).toHaveText('2');
  await page.getByRole('searchbox', { name: /Tìm/ }).fill('22CNTT1');
  await expect(rows(page, 'classes-table')).toHaveCount(1);
  await expect(rows(page, 'classes-table')).toContainText('22CNTT1');
  await expect(page).toHaveURL(/currentPage=1/);

  // Members of a chi đoàn: 18 students and more, two pages.
  await page.goto('/organizations/doan_co_so/DCS-CNTT/chi_doan/CD-22CNTT1/members');
  const members = rows(page, 'members-table');
  await expect(members.first()).toBeVisible();
  const firstCode = (await members.first().locator('.ant-typography-secondary').innerText()).trim();
  await page.locator('.ant-pagination-item-2').click();
  await expect(activePage(page)).toHaveText('2');
  await expect(page.getByTestId('members-table')).not.toContainText(firstCode);
  await page.getByRole('searchbox', { name: /Tìm/ }).pressSequentially(firstCode, { delay: 30 });
  await expect(members).toHaveCount(1);
  await expect(members).toContainText(firstCode);
});

test('a taken organization code is said under the code field, a taken e-mail under the e-mail field, with no corner toast', async ({
  page,
}) => {
  await signIn(page, ADMIN, '/organizations');
  await page.getByTestId('organization-add').click();
  const create = page.getByTestId('organization-create-form');
  await create.getByTestId('organization-form-type').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Đoàn cơ sở' }).first().click();
  await create.getByLabel('Mã', { exact: true }).fill('DCS-CNTT');
  await create.getByLabel('Tên tổ chức').fill('Đoàn khoa trùng mã');
  await page.getByRole('button', { name: 'Lưu' }).click();
  const codeItem = create.locator('.ant-form-item').filter({ has: page.getByLabel('Mã', { exact: true }) });
  await expect(codeItem.locator('.ant-form-item-explain-error')).toHaveText('Mã tổ chức "DCS-CNTT" đã tồn tại');
  await expect(create).toBeVisible();
  await expect(errorToasts(page)).toHaveCount(0);
  await expect(page.getByText('(mã: 409)')).toHaveCount(0);
  await page.mouse.move(0, 0);
  // SHOTS_DIR keeps a picture of the dialog with its field error, to look at.
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/organization-code-taken.png` });
  // A code that is free saves.
  await create.getByLabel('Mã', { exact: true }).fill('DCS-MOI-E2E');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(create).toBeHidden();

  await page.goto('/users');
  await page.getByTestId('user-add').click();
  await page.getByText('Tạo một người dùng').click();
  const user = page.getByTestId('user-create-form');
  await user.getByLabel('Mã số').fill('E2E-TRUNG');
  await user.getByLabel('Họ và tên đệm').fill('Trần Thị');
  await user.getByLabel('Tên', { exact: true }).fill('Trùng');
  await user.getByLabel('Email').fill('member@doanhoi.local');
  await user.getByLabel('Số điện thoại').fill('091 234 5679');
  await page.getByRole('button', { name: 'Lưu' }).click();
  const emailItem = user.locator('.ant-form-item').filter({ has: page.getByLabel('Email') });
  await expect(emailItem.locator('.ant-form-item-explain-error')).toHaveText('Email "member@doanhoi.local" đã tồn tại');
  await expect(errorToasts(page)).toHaveCount(0);
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/user-email-taken.png` });
  // Changing the e-mail takes the message away with the rule check.
  await user.getByLabel('Email').fill('e2e.trung@sv.bachkhoa.edu.vn');
  await expect(emailItem.locator('.ant-form-item-explain-error')).toHaveCount(0);
});
