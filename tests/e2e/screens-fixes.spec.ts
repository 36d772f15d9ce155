import { expect as baseExpect, test } from '../helpers/test';
import ExcelJS from 'exceljs';
import { ADMIN } from '../helpers/accounts';
import { signIn } from '../helpers/session';
import { watchApi } from '../helpers/api-watch';

// The shared 2-core machine stalls the browser for seconds at a time: generous waits, same assertions.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

async function usersFile(rows: string[][]) {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Users');
  sheet.addRow(['Mã số', 'Họ', 'Tên', 'Email', 'Số điện thoại']);
  for (const r of rows) sheet.addRow(r);
  const file = test.info().outputPath('users.xlsx');
  await book.xlsx.writeFile(file);
  return file;
}

test.use({ viewport: { width: 1366, height: 768 } });

test('a partly successful import says so, with counts, the failed rows and how to fix them (items 7, 9b) @pg', async ({ page }) => {
  await signIn(page, ADMIN, '/users');
  const file = await usersFile([
    ['IMP-E2E1', 'Phạm Văn', 'Một', 'imp.e2e1@sv.bachkhoa.edu.vn', '0912000001'],
    ['IMP-E2E2', 'Phạm Văn', 'Hai', 'imp.e2e2@sv.bachkhoa.edu.vn', '0912000002'],
    ['IMP-E2E3', 'Phạm Văn', 'Ba', 'khong-phai-email', '0912000003'],
  ]);
  await page.getByTestId('user-add').click();
  await page.getByText('Nhập từ file Excel').click();
  const wizard = page.getByTestId('import-wizard');
  await wizard.locator('input[type=file]').setInputFiles(file);
  const preview = page.getByTestId('import-preview');
  await expect(preview).toBeVisible();

  // One line per row, and the reason is on screen without scrolling sideways.
  const table = page.getByTestId('import-preview-table');
  const firstRow = table.locator('tbody tr.ant-table-row').first();
  expect((await firstRow.boundingBox())!.height).toBeLessThan(60);
  const reason = table.getByTestId('import-row-messages').first();
  await expect(reason).toBeVisible();
  const box = (await reason.boundingBox())!;
  expect(box.x + 20).toBeLessThan(1366);

  // Errors and no "skip errors": Start is disabled.
  await page.getByTestId('import-skipErrors').uncheck();
  await expect(page.getByTestId('import-run')).toBeDisabled();
  await page.getByTestId('import-skipErrors').check();

  // A dry run says what would be imported.
  await page.getByTestId('import-dryRun').check();
  await page.getByTestId('import-run').click();
  const result = page.getByTestId('import-result');
  await expect(result).toContainText('Chạy thử: sẽ nhập 2 dòng');
  await expect(result).not.toContainText('Đã nhập');
  await page.getByRole('button', { name: 'Nhập file khác' }).click();

  await wizard.locator('input[type=file]').setInputFiles(file);
  await expect(preview).toBeVisible();
  await page.getByTestId('import-run').click();
  await expect(result).toHaveAttribute('data-outcome', 'partial');
  await expect(result).toContainText('Nhập một phần: 2 dòng đã nhập, 1 dòng lỗi');
  await expect(result).toContainText('Sửa các dòng lỗi');
  await expect(result).toContainText('Dòng 4');
});

test('classes: a class with students cannot be deleted, and the year filter is a 10-year list (item 9c)', async ({ page }) => {
  await signIn(page, ADMIN, '/classes');
  await page.getByTestId('class-search').fill('22CNTT1');
  await page.getByRole('button', { name: 'Lọc', exact: true }).click();
  const row = page.getByTestId('classes-table').locator('tr', { hasText: '22CNTT1' }).first();
  await expect(row.getByTestId('class-delete')).toBeDisabled();
  await page.getByTestId('class-year').click();
  const years = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(years).toHaveCount(10);
  const now = new Date().getFullYear();
  await expect(years.first()).toHaveText(String(now));
  await page.getByTestId('class-clear-filters').click();
  await page.getByTestId('class-year').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '2022' }).click();
  await expect(page).toHaveURL(/2022/);
  for (const r of await page.getByTestId('classes-table').locator('tbody tr.ant-table-row').all()) await expect(r).toContainText('2022');
});

test('after deleting an edited department no error toast appears; a refusal is all Vietnamese (items 10, 11)', async ({ page }) => {
  await signIn(page, ADMIN, '/departments');
  await page.getByTestId('department-add').click();
  await page.getByText('Thêm một khoa/phòng ban').click();
  const create = page.getByTestId('department-create-form');
  await create.getByLabel('Tên khoa/phòng ban').fill('Khoa Xóa Thử');
  await create.getByLabel('Mã').fill('E2E-DEL');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(create).toBeHidden();
  const row = page.getByTestId('departments-table').locator('tr', { hasText: 'E2E-DEL' });
  await row.getByTestId('department-edit').click();
  const edit = page.getByTestId('department-edit-form');
  await edit.getByLabel('Mô tả').fill('Sửa trước khi xóa');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(edit).toBeHidden();
  const api = watchApi(page);
  await row.getByTestId('department-delete').click();
  await page.getByTestId('confirm-delete').click();
  await expect(page.getByTestId('departments-table')).not.toContainText('E2E-DEL');
  // Once every request the deletion set off has been answered: none failed, and no error toast.
  await api.settled();
  expect(api.errorsSince()).toEqual([]);
  await expect(page.locator('.ant-notification-notice-error')).toHaveCount(0);

  // A department with classes is not offered for deletion (issue 25 item 6): its button is disabled
  // and says why in Vietnamese, and it cannot be picked for a bulk delete.
  const busy = page.getByTestId('departments-table').locator('tr', { hasText: 'Khoa Công nghệ Thông tin' }).first();
  await expect(busy.getByTestId('department-delete')).toBeDisabled();
  await expect(busy.getByRole('checkbox')).toBeDisabled();
  await busy.getByTestId('department-delete').hover({ force: true });
  await expect(page.getByRole('tooltip')).toContainText('Không thể xóa khoa/phòng ban còn');
});
