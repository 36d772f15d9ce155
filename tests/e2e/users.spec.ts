import { expect, test, type Locator, type Page } from '../helpers/test';
import { ADMIN } from '../helpers/accounts';
import { signIn } from '../helpers/session';

const rows = (page: Page) => page.getByTestId('users-table').locator('tbody tr.ant-table-row');

async function pick(page: Page, select: Locator, type: string, option: string) {
  await select.click();
  await page.keyboard.type(type);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
}

async function search(page: Page, text: string) {
  await page.getByTestId('user-search').fill(text);
  await page.getByRole('button', { name: 'Lọc', exact: true }).click();
}

test('the admin finds users, creates one in an organization, edits, views, exports and deletes @pg', async ({ page }) => {
  await signIn(page, ADMIN, '/users');
  await expect(rows(page).first()).toBeVisible();
  await expect(page.locator('.ant-pagination-simple')).toBeVisible();

  await search(page, 'nguyen');
  await expect(rows(page).first()).toContainText('Nguyễn');
  await page.getByTestId('user-filter-userType').click();
  await page.locator('.ant-select-dropdown:visible').getByText('Cán bộ', { exact: true }).click();
  await expect(page).toHaveURL(/userType/);
  for (const row of await rows(page).all()) await expect(row).toContainText('Cán bộ');

  await page.getByTestId('user-add').click();
  await page.getByText('Tạo một người dùng').click();
  const create = page.getByTestId('user-create-form');
  await create.getByLabel('Mã số').fill('E2E0001');
  await create.getByLabel('Họ và tên đệm').fill('Trần Thị');
  await create.getByLabel('Tên', { exact: true }).fill('Thử');
  await create.getByLabel('Email').fill('e2e.thu@sv.bachkhoa.edu.vn');
  await create.getByLabel('Số điện thoại').fill('091 234 5678');
  await pick(page, create.getByLabel('Tổ chức'), '22CNTT1', '22CNTT1');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(create).toBeHidden();

  await page.getByTestId('user-filter-userType').click();
  await page.locator('.ant-select-dropdown:visible').getByText('Tất cả loại', { exact: true }).click();
  await search(page, 'E2E0001');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Trần Thị Thử');
  await expect(rows(page)).toContainText('0912345678');

  // The new member joined the chi đoàn and every organization above it.
  await rows(page).getByRole('button', { name: 'Xem' }).click();
  const show = page.getByTestId('user-show');
  await expect(show).toContainText('22CNTT1');
  await expect(show.locator('.ant-tag')).not.toHaveCount(1);
  await page.getByRole('dialog').locator('.ant-modal-close').click();

  await rows(page).getByTestId('user-edit').click();
  const edit = page.getByTestId('user-edit-form');
  await expect(edit.getByLabel('Email')).toHaveValue('e2e.thu@sv.bachkhoa.edu.vn');
  await edit.getByLabel('Tên', { exact: true }).fill('Thử Sửa');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(edit).toBeHidden();
  await expect(rows(page)).toContainText('Trần Thị Thử Sửa');

  // Export: no field, no export; all fields give an .xlsx named by the server.
  await page.getByTestId('user-add').click();
  await page.getByText('Xuất dữ liệu').click();
  const dialog = page.getByTestId('export-dialog');
  await dialog.getByRole('button', { name: 'Bỏ chọn tất cả', exact: true }).click();
  await expect(dialog).toContainText('Hãy chọn ít nhất một trường');
  await expect(page.getByTestId('export-run')).toBeDisabled();
  await dialog.getByRole('button', { name: 'Chọn tất cả', exact: true }).click();
  const download = page.waitForEvent('download');
  await page.getByTestId('export-run').click();
  expect((await download).suggestedFilename()).toMatch(/^users_.*\.xlsx$/);

  await rows(page).getByTestId('user-delete').click();
  await page.getByTestId('confirm-delete').click();
  await expect(page.getByTestId('users-table')).toContainText('Không tìm thấy người dùng phù hợp');
});

test('the admin gives a student the staff role in one faculty, and the role shows on the account', async ({ page }) => {
  await signIn(page, ADMIN, '/users');
  await search(page, '23001042');
  await expect(rows(page)).toHaveCount(1);
  await rows(page).getByTestId('user-roles').click();
  const dialog = page.getByTestId('role-assignments');
  await expect(dialog).toBeVisible();
  await page.getByTestId('assignment-add').click();
  const row = dialog.locator('.assignment-row').last();
  await row.locator('.assignment-role').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Cán bộ' }).click();
  // A new row starts empty ("global" as placeholder); choosing the faculty scopes it there.
  await row.locator('.assignment-orgs').click();
  await page.keyboard.type('DCS-CNTT');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '(DCS-CNTT)' }).first().click(); // options carry the code; units carry their parent's name
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(dialog).toBeHidden();

  await rows(page).getByRole('button', { name: 'Xem' }).click();
  await expect(page.getByTestId('user-show')).toContainText('Cán bộ');
  await page.getByRole('dialog').locator('.ant-modal-close').click();

  // Reopening shows the saved link; removing it and saving takes the role away again.
  await rows(page).getByTestId('user-roles').click();
  await expect(dialog.locator('.assignment-row').last()).toContainText('Đoàn khoa Công nghệ Thông tin');
  await dialog.locator('.assignment-row').last().getByRole('button', { name: 'Xóa' }).click();
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(dialog).toBeHidden();
  await rows(page).getByRole('button', { name: 'Xem' }).click();
  await expect(page.getByTestId('user-show')).not.toContainText('Cán bộ');
});
