import { expect, test } from '../helpers/test';
import ExcelJS from 'exceljs';
import { ADMIN, FACULTY_ADMIN } from '../helpers/accounts';
import { signIn } from '../helpers/session';
import { watchApi } from '../helpers/api-watch';

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

  const api = watchApi(page);
  await table.getByTestId('department-delete').click();
  await page.getByTestId('confirm-delete').click();
  await expect(table).not.toContainText('E2E-K1');
  await expect(page.locator('.ant-notification')).toContainText('Xóa khoa/phòng ban thành công');
  // The row edited before is gone: nothing asks for it again (no "not found" answer, no toast), once
  // every request the deletion set off has been answered.
  await api.settled();
  expect(api.errorsSince()).toEqual([]);
  await expect(page.getByText('Không tìm thấy khoa/phòng ban', { exact: true })).toHaveCount(0);

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

test('the admin imports departments from an Excel file: template, preview with errors, import of the valid rows', async ({ page }) => {
  await signIn(page, ADMIN, '/departments');
  await page.getByTestId('department-add').click();
  await page.getByText('Nhập từ file Excel').click();
  const wizard = page.getByTestId('import-wizard');
  await expect(wizard).toBeVisible();

  const download = page.waitForEvent('download');
  await wizard.getByTestId('import-template').click();
  expect((await download).suggestedFilename()).toBe('departments_import_template.xlsx');

  // One good row, one name too short, one code that already exists.
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Khoa');
  sheet.addRow(['Tên khoa/phòng ban', 'Mã', 'Mô tả']);
  sheet.addRow(['Phòng Nhập Thử E2E', 'E2E-IMP', 'Từ file Excel']);
  sheet.addRow(['X', 'E2E-BAD', '']);
  sheet.addRow(['Khoa trùng mã', 'CNTT', '']);
  const file = test.info().outputPath('khoa.xlsx');
  await book.xlsx.writeFile(file);
  await wizard.locator('input[type=file]').setInputFiles(file);

  const preview = page.getByTestId('import-preview');
  await expect(preview).toBeVisible();
  await expect(preview.locator('.ant-statistic').nth(0)).toContainText('3');
  // The existing code is a warning (updated only on request), the short name an error.
  await expect(preview.locator('.ant-statistic').nth(1)).toContainText('2');
  await expect(preview.locator('.ant-statistic').nth(2)).toContainText('1');
  await expect(preview.locator('.ant-statistic').nth(3)).toContainText('1');
  await expect(preview).toContainText('Dòng 3: Tên phải có ít nhất 2 ký tự');
  await expect(page.getByTestId('import-skipErrors')).toBeChecked();

  await page.getByTestId('import-run').click();
  const result = page.getByTestId('import-result');
  await expect(result).toBeVisible();
  await expect(result.locator('.ant-statistic').nth(0)).toContainText('1');
  // The existing code was skipped (no update asked), the short name failed.
  await expect(result.locator('.ant-statistic').nth(1)).toContainText('1');
  await expect(result.locator('.ant-statistic').nth(2)).toContainText('1');
  await page.getByTestId('import-done').click();
  await expect(wizard).toBeHidden();
  await expect(page.getByTestId('departments-table')).toContainText('E2E-IMP');
  await expect(page.getByTestId('departments-table')).not.toContainText('Khoa trùng mã');
});
