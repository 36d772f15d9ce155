import { expect, test } from '@playwright/test';
import { ADMIN, FACULTY_ADMIN } from '../helpers/accounts';
import { signIn } from '../helpers/session';

test('the admin finds, creates, edits, views and deletes departments, one and several at a time', async ({ page }) => {
  await signIn(page, ADMIN, '/departments');
  const table = page.getByTestId('departments-table');
  await expect(table).toContainText('Khoa Công nghệ Thông tin');

  // Accent-insensitive search through the filter button, remembered in the address.
  await page.getByTestId('department-search').fill('cong nghe thong tin');
  await page.getByRole('button', { name: 'Lọc', exact: true }).click();
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(1);
  await expect(page).toHaveURL(/cong/);

  // The API's rules show in the form before anything is sent.
  await page.getByTestId('department-add').click();
  await page.getByText('Thêm một khoa/phòng ban').click();
  const create = page.getByTestId('department-create-form');
  await create.getByLabel('Tên khoa/phòng ban').fill('X');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(create).toContainText('ít nhất 2');
  await create.getByLabel('Tên khoa/phòng ban').fill('Khoa Thử Nghiệm E2E');
  await create.getByLabel('Mã').fill('E2E-K1');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(create).toBeHidden();

  await page.getByTestId('department-search').fill('e2e');
  await page.getByRole('button', { name: 'Lọc', exact: true }).click();
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(1);
  await expect(table).toContainText('E2E-K1');

  await table.getByTestId('department-edit').click();
  const edit = page.getByTestId('department-edit-form');
  await expect(edit.getByLabel('Tên khoa/phòng ban')).toHaveValue('Khoa Thử Nghiệm E2E');
  await edit.getByLabel('Mô tả').fill('Khoa tạm cho kiểm thử');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(edit).toBeHidden();
  await table.getByRole('button', { name: 'Xem' }).click();
  await expect(page.getByTestId('department-show')).toContainText('Khoa tạm cho kiểm thử');
  await page.getByRole('dialog').locator('.ant-modal-close').click();
  await expect(page.getByTestId('department-show')).toBeHidden();

  await table.getByTestId('department-delete').click();
  await page.getByTestId('confirm-delete').click();
  await expect(table).not.toContainText('E2E-K1');

  // Two new departments removed together from the selection bar.
  for (const code of ['E2E-B1', 'E2E-B2']) {
    await page.getByTestId('department-add').click();
    await page.getByText('Thêm một khoa/phòng ban').click();
    await page.getByTestId('department-create-form').getByLabel('Tên khoa/phòng ban').fill(`Phòng ${code}`);
    await page.getByTestId('department-create-form').getByLabel('Mã').fill(code);
    await page.getByRole('button', { name: 'Lưu' }).click();
    await expect(page.getByTestId('department-create-form')).toBeHidden();
  }
  await page.getByRole('button', { name: 'Lọc', exact: true }).click();
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(2);
  await table.locator('thead .ant-checkbox-input').check();
  await expect(page.getByTestId('bulk-bar')).toContainText('Đã chọn 2');
  await page.getByTestId('bulk-delete').click();
  await page.getByTestId('confirm-delete').click();
  await expect(page.getByTestId('bulk-bar')).toBeHidden();
  await expect(table).toContainText('Không tìm thấy khoa/phòng ban phù hợp');
});

test('a faculty admin may read departments but not change them: the catalogue is university-wide', async ({ page }) => {
  await signIn(page, FACULTY_ADMIN, '/departments');
  const table = page.getByTestId('departments-table');
  await expect(table).toContainText('Khoa Công nghệ Thông tin');
  await expect(table.getByRole('button', { name: 'Xem' }).first()).toBeVisible();
  await expect(page.getByTestId('department-add')).toHaveCount(0);
  await expect(table.getByTestId('department-edit')).toHaveCount(0);
  await expect(table.getByTestId('department-delete')).toHaveCount(0);
  await expect(table.locator('.ant-checkbox-input')).toHaveCount(0);
});
