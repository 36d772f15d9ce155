/**
 * Import repair (issue 15 part 5): a file with its own headers is mapped to our columns, the rows
 * with errors are downloaded, fixed in the file and uploaded again; the mapping is remembered.
 */
import { expect as baseExpect, test, type Page } from '../helpers/test';
import ExcelJS from 'exceljs';
import { join } from 'node:path';
import { ADMIN } from '../helpers/accounts';
import { signIn } from '../helpers/session';

// The shared 2-core machine stalls the browser for seconds at a time: generous waits, same assertions.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

/** Screenshots for review when SHOTS_DIR is set (vi/en, light/dark); nothing otherwise. */
async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: join(process.env.SHOTS_DIR, `${name}.png`) });
}

async function writeBook(rows: (string | number | null)[][]): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Danh sách');
  for (const r of rows) sheet.addRow(r);
  const file = test.info().outputPath('don-vi.xlsx');
  await book.xlsx.writeFile(file);
  return file;
}

async function openWizard(page: Page) {
  // Seen in full runs: right after a language switch the page re-renders its header (the rights are
  // re-checked) and the just-opened menu closes with it; a user clicks "Add" again, and so does this.
  const fromFile = page.locator('.ant-dropdown:visible').getByRole('menuitem').nth(1);
  await expect(async () => {
    if (!(await fromFile.isVisible())) await page.getByTestId('department-add').click();
    await baseExpect(fromFile).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await fromFile.click();
  const wizard = page.getByTestId('import-wizard');
  await expect(wizard).toBeVisible();
  return wizard;
}

/** Picks a header of the file for one of our columns in the mapping step. */
async function mapColumn(page: Page, key: string, header: string) {
  await page.getByTestId(`import-map-${key}`).click();
  await page.locator('.ant-select-dropdown:visible').getByTitle(header, { exact: true }).click();
}

test('a file with other headers: map, validate, download the rows with errors, fix them, import', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, ADMIN, '/departments');
  const file = await writeBook([
    ['STT', 'Đơn vị', 'Ký hiệu', 'Diễn giải'],
    [1, 'Phòng Ghép Cột E2E', 'MAP-E2E1', 'Từ file có tiêu đề khác'],
    [2, 'P', 'MAP-E2E2', 'tên quá ngắn'],
    [3, 'Phòng Mã Ngắn E2E', 'M', ''],
  ]);
  let wizard = await openWizard(page);
  await wizard.locator('input[type=file]').setInputFiles(file);

  // The mapping step: "Diễn giải" is not suggested for anything; the user picks the rest.
  const mapping = page.getByTestId('import-mapping');
  await expect(mapping).toBeVisible();
  await expect(page.getByTestId('import-mapping-missing')).toContainText('Tên khoa/phòng ban');
  await expect(page.getByTestId('import-mapping-continue')).toBeDisabled();
  await mapColumn(page, 'name', 'Đơn vị');
  await mapColumn(page, 'code', 'Ký hiệu');
  await mapColumn(page, 'description', 'Diễn giải');
  await shot(page, 'mapping-vi-light');
  await page.getByTestId('import-mapping-continue').click();

  const preview = page.getByTestId('import-preview');
  await expect(preview).toBeVisible();
  await expect(preview.locator('.ant-statistic').nth(1)).toContainText('1');
  await expect(preview.locator('.ant-statistic').nth(2)).toContainText('2');
  await expect(preview).toContainText('Dòng 3: Tên phải có ít nhất 2 ký tự (cột Tên khoa/phòng ban)');
  await shot(page, 'preview-vi-light');

  // The rows with errors, with their reasons, in the template's columns.
  const download = page.waitForEvent('download');
  await page.getByTestId('import-error-rows').click();
  const saved = test.info().outputPath('errors.xlsx');
  const got = await download;
  expect(got.suggestedFilename()).toBe('departments_import_errors.xlsx');
  await got.saveAs(saved);
  const errors = new ExcelJS.Workbook();
  await errors.xlsx.readFile(saved);
  const sheet = errors.worksheets[0]!;
  const header = (sheet.getRow(1).values as string[]).slice(1);
  expect(header).toEqual(['Tên khoa/phòng ban*', 'Mã', 'Mô tả', 'Dòng gốc', 'Lỗi']);
  expect(sheet.actualRowCount).toBe(3);
  expect(String(sheet.getRow(2).getCell(5).value)).toContain('Tên phải có ít nhất 2 ký tự');
  expect(String(sheet.getRow(3).getCell(5).value)).toContain('Mã phải có ít nhất 2 ký tự');

  // Import the valid row now.
  await page.getByTestId('import-run').click();
  await expect(page.getByTestId('import-result')).toBeVisible();
  await page.getByTestId('import-done').click();
  await expect(wizard).toBeHidden();

  // Fix the two rows in the downloaded file and upload it: no mapping step, both import.
  sheet.getRow(2).getCell(1).value = 'Phòng Sửa Tên E2E';
  sheet.getRow(3).getCell(2).value = 'MAP-E2E3';
  await errors.xlsx.writeFile(saved);
  wizard = await openWizard(page);
  await wizard.locator('input[type=file]').setInputFiles(saved);
  await expect(preview).toBeVisible();
  await expect(page.getByTestId('import-mapping')).toHaveCount(0);
  await expect(preview.locator('.ant-statistic').nth(1)).toContainText('2');
  await expect(preview.locator('.ant-statistic').nth(2)).toContainText('0');
  await page.getByTestId('import-run').click();
  await expect(page.getByTestId('import-result')).toHaveAttribute('data-outcome', 'success');
  await page.getByTestId('import-done').click();
  await page.getByTestId('department-search').fill('e2e');
  await page.getByRole('button', { name: 'Lọc', exact: true }).click();
  const table = page.getByTestId('departments-table');
  for (const code of ['MAP-E2E1', 'MAP-E2E2', 'MAP-E2E3']) await expect(table).toContainText(code);

  // The same kind of file again: the mapping is filled in from last time.
  wizard = await openWizard(page);
  await wizard.locator('input[type=file]').setInputFiles(file);
  await expect(mapping).toContainText('Đã điền sẵn theo lần ghép trước');
  await expect(page.getByTestId('import-map-name')).toContainText('Đơn vị');
  await expect(page.getByTestId('import-mapping-continue')).toBeEnabled();
});

test('the mapping step and the error download in English, light and dark', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await signIn(page, ADMIN, '/departments');
  const file = await writeBook([
    ['Unit name', 'Unit code'],
    ['X', 'EN-E2E1'],
  ]);
  for (const theme of ['light', 'dark'] as const) {
    if (theme === 'dark') await page.getByTestId('theme-toggle').click();
    else {
      await page.getByTestId('language-switcher').click();
      await page.locator('.ant-dropdown:visible').getByText('English').click();
      await expect(page.getByRole('heading', { name: 'Departments' })).toBeVisible();
    }
    const wizard = await openWizard(page);
    await wizard.locator('input[type=file]').setInputFiles(file);
    await expect(page.getByTestId('import-mapping')).toContainText('Choose the file');
    await expect(wizard).toContainText('Map columns');
    await mapColumn(page, 'name', 'Unit name');
    await mapColumn(page, 'code', 'Unit code');
    await shot(page, `mapping-en-${theme}`);
    await page.getByTestId('import-mapping-continue').click();
    // The row's reason comes in the screen's language, with its column.
    await expect(page.getByTestId('import-preview')).toContainText('(column Name)');
    await expect(page.getByTestId('import-error-rows')).toContainText('Download the rows with errors');
    await shot(page, `preview-en-${theme}`);
    await page.locator('.ant-modal-close:visible').click();
    await expect(wizard).toBeHidden();
  }
  // Back to Vietnamese in dark: the mapping step's words follow.
  await page.getByTestId('language-switcher').click();
  await page.locator('.ant-dropdown:visible').getByText('Tiếng Việt').click();
  const wizard = await openWizard(page);
  await wizard.locator('input[type=file]').setInputFiles(file);
  await expect(wizard).toContainText('Ghép cột');
  await shot(page, 'mapping-vi-dark');
});
