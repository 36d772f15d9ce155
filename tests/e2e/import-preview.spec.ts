/**
 * What an officer reads before writing accounts (issue 26 items 1 and 6): an officer's own list
 * (MSSV, Họ và tên, SĐT, Ngày sinh…) goes straight to a preview whose names, e-mails and unit codes
 * are whole on screen at 1440 and 1366 px and on a phone, in Vietnamese and in English; an .xls or
 * an oversized file is refused in the browser, before anything is sent.
 */
import { expect as baseExpect, test, type Page } from '../helpers/test';
import ExcelJS from 'exceljs';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN } from '../helpers/accounts';
import { signIn } from '../helpers/session';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: join(process.env.SHOTS_DIR, `${name}.png`), fullPage: true });
}

const stamp = `${Date.now() % 1_000_000}`;

/** An officer's list: their headers, not the template's; one code twice (row 3 repeats row 2). */
async function officerList(): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Danh sách');
  sheet.addRow(['STT', 'MSSV', 'Họ và tên', 'Ngày sinh', 'Giới tính', 'E-mail', 'SĐT', 'Mã chi đoàn']);
  sheet.addRow([
    1,
    `PV${stamp}1`,
    'Nguyễn Thị Phương Thảo',
    '01/02/2004',
    'Nữ',
    `nguyen.thi.phuong.thao.${stamp}@sv.bachkhoa.edu.vn`,
    '912345678',
    'DCS-CNTT',
  ]);
  sheet.addRow([
    2,
    `PV${stamp}1`,
    'Trần Văn Bình',
    '03/04/2004',
    'Nam',
    `tran.van.binh.${stamp}@sv.bachkhoa.edu.vn`,
    '0912345679',
    'DCS-CNTT',
  ]);
  const file = test.info().outputPath('danh-sach-lop.xlsx');
  await book.xlsx.writeFile(file);
  return file;
}

async function openImport(page: Page, lang: 'vi' | 'en', width: number, height = 900) {
  await page.setViewportSize({ width, height });
  await page.addInitScript((l) => localStorage.setItem('i18nextLng', l), lang);
  await signIn(page, ADMIN, '/users');
  await page.getByTestId('user-add').click();
  await page.getByText(lang === 'en' ? 'Import from Excel file' : 'Nhập từ file Excel').click();
  const wizard = page.getByTestId('import-wizard');
  await expect(wizard).toBeVisible();
  return wizard;
}

/** Every data cell of the preview shows its whole text: nothing cut to "M…". */
async function expectNothingCut(page: Page) {
  const cut = await page.getByTestId('import-preview-table').evaluate((table) =>
    Array.from(table.querySelectorAll('thead th, tbody td'))
      .filter((c) => !c.classList.contains('ant-table-cell-ellipsis') && c.scrollWidth > c.clientWidth + 1)
      .map((c) => c.textContent),
  );
  expect(cut).toEqual([]);
}

for (const width of [1440, 1366]) {
  test(`vi, ${width} px: an officer's list is previewed with whole names, e-mails and unit codes, and every value in the row's detail`, async ({
    page,
  }) => {
    const wizard = await openImport(page, 'vi', width);
    await wizard.locator('input[type=file]').setInputFiles(await officerList());
    const preview = page.getByTestId('import-preview');
    await expect(preview).toBeVisible();
    // Their headers were recognised: no mapping step, and the one column we do not keep is named
    // (date of birth and gender are the member record's since issue 30 item 8).
    await expect(page.getByTestId('import-mapping')).toHaveCount(0);
    const skipped = preview.getByText('Các cột sau của file không được nhập', { exact: false });
    await expect(skipped).toContainText('STT');
    await expect(skipped).not.toContainText('Ngày sinh');

    const table = page.getByTestId('import-preview-table');
    for (const title of ['Mã số', 'Họ và tên', 'Email', 'Mã tổ chức'])
      await expect(table.getByRole('columnheader', { name: title, exact: true })).toBeVisible();
    const first = table.locator('tbody tr.ant-table-row').first();
    await expect(first.getByRole('cell', { name: 'Nguyễn Thị Phương Thảo', exact: true })).toBeVisible();
    await expect(first.getByRole('cell', { name: `nguyen.thi.phuong.thao.${stamp}@sv.bachkhoa.edu.vn`, exact: true })).toBeVisible();
    await expect(first.getByRole('cell', { name: 'DCS-CNTT', exact: true })).toBeVisible();
    await expectNothingCut(page);
    await expect(table.locator('tbody tr.ant-table-row').nth(1)).toContainText(`Mã số PV${stamp}1 trùng với dòng 2`);

    // The row's detail: every value, the name split as it will be stored, and the notes in full.
    await first.click();
    const detail = page.getByTestId('import-row-detail').first();
    await expect(detail).toBeVisible();
    await expect(detail).toContainText('Nguyễn Thị Phương');
    await expect(detail).toContainText('Thảo');
    await expect(detail).toContainText('0912345678');
    await expect(detail).toContainText('Đã thêm số 0 ở đầu số điện thoại: 0912345678');
    await expect(detail).toContainText('Ngày sinh');
    await expect(detail).toContainText('01/02/2004');
    await shot(page, `import-preview-vi-${width}`);
  });
}

test('en, 1440 px: the preview is English, column titles and row messages alike', async ({ page }) => {
  const wizard = await openImport(page, 'en', 1440);
  await wizard.locator('input[type=file]').setInputFiles(await officerList());
  const preview = page.getByTestId('import-preview');
  await expect(preview).toBeVisible();
  const table = page.getByTestId('import-preview-table');
  for (const title of ['Code', 'Full name', 'E-mail', 'Unit codes', 'Notes'])
    await expect(table.getByRole('columnheader', { name: title, exact: true })).toBeVisible();
  await expect(preview).toContainText('These columns of the file are not imported');
  await expect(preview).toContainText(`Row 3: Code PV${stamp}1 repeats row 2`);
  await table.locator('tbody tr.ant-table-row').first().click();
  const detail = page.getByTestId('import-row-detail').first();
  await expect(detail).toContainText('Added the leading 0 to the phone number: 0912345678');
  await expect(detail).toContainText('Family name');
  // None of the preview's own words is Vietnamese any more.
  for (const vi of ['trùng với dòng', 'Đã thêm số 0', 'Mật khẩu mặc định', 'Dòng', 'Họ và tên', 'Trạng thái'])
    await expect(preview).not.toContainText(vi);
  await expectNothingCut(page);
  await shot(page, 'import-preview-en-1440');
});

test('390 px phone: each row lists its name, code and e-mail one under the other, inside the screen', async ({ page }) => {
  const wizard = await openImport(page, 'vi', 390, 844);
  await wizard.locator('input[type=file]').setInputFiles(await officerList());
  const table = page.getByTestId('import-preview-table');
  await expect(table).toBeVisible();
  const first = table.locator('tbody tr.ant-table-row').first();
  // Inside the dialog, not cut at its edge nor behind a sideways scroll.
  const frame = (await table.boundingBox())!;
  expect(frame.x + frame.width).toBeLessThanOrEqual(390);
  expect(await table.locator('.ant-table-content').evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  for (const text of [`PV${stamp}1`, 'Nguyễn Thị Phương Thảo', `nguyen.thi.phuong.thao.${stamp}@sv.bachkhoa.edu.vn`]) {
    const el = first.getByText(text, { exact: true });
    await expect(el).toBeVisible();
    const box = (await el.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(frame.x);
    expect(box.x + box.width).toBeLessThanOrEqual(frame.x + frame.width);
  }
  await first.click();
  await expect(page.getByTestId('import-row-detail').first()).toContainText('DCS-CNTT');
  await shot(page, 'import-preview-vi-390');
});

test('an .xls and a file over 5 MB are refused in the browser, with what to do, before anything is sent', async ({ page }) => {
  const wizard = await openImport(page, 'vi', 1366);
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/import\/(upload|headers)/.test(r.url())) uploads.push(r.url());
  });
  const xls = test.info().outputPath('danh-sach-cu.xls');
  // An OLE compound file's signature: what Excel 97-2003 writes.
  writeFileSync(xls, Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(4096)]));
  await wizard.locator('input[type=file]').setInputFiles(xls);
  const refused = page.getByTestId('import-refused');
  await expect(refused).toContainText('File .xls (Excel 97–2003) chưa đọc được');
  await expect(refused).toContainText('Sổ làm việc Excel (*.xlsx)');
  await expect(refused).toContainText('LibreOffice Calc');
  await expect(refused).toContainText('Google Trang tính');
  await shot(page, 'import-refused-xls-vi');

  const big = test.info().outputPath('danh-sach-lon.xlsx');
  writeFileSync(big, Buffer.alloc(6 * 1024 * 1024 + 1000, 1));
  await wizard.locator('input[type=file]').setInputFiles(big);
  await expect(refused).toContainText('vượt giới hạn 5 MB');
  await expect(refused).toContainText('6 MB');
  await expect(page.getByTestId('import-preview')).toHaveCount(0);
  await shot(page, 'import-refused-size-vi');
  expect(uploads).toEqual([]);
});
