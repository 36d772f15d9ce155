import { expect, test, type Locator, type Page } from '../helpers/test';
import { ADMIN } from '../helpers/accounts';
import { signIn } from '../helpers/session';

const rows = (page: Page) => page.getByTestId('classes-table').locator('tbody tr.ant-table-row');

async function pick(page: Page, select: Locator, option: string) {
  await select.click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
}

test('the admin filters classes, sees a class with its students, cannot delete it, and manages a new class', async ({ page }) => {
  await signIn(page, ADMIN, '/classes');
  await expect(page.getByTestId('classes-table')).toContainText('24CNTT1');

  // Department and year filters narrow the list and stay in the address; clearing restores it.
  await pick(page, page.getByTestId('class-department-filter'), 'Khoa Công nghệ Thông tin');
  await pick(page, page.getByTestId('class-year'), '2022');
  await expect(rows(page)).toHaveCount(2);
  await expect(page).toHaveURL(/departmentId/);
  await page.getByTestId('class-clear-filters').click();
  await expect(rows(page)).toHaveCount(10);
  await expect(page.locator('.ant-pagination')).toBeVisible();

  // The view lists five students and counts the rest.
  await page.getByTestId('class-search').fill('22CNTT1');
  await page.getByRole('button', { name: 'Lọc', exact: true }).click();
  await expect(rows(page)).toHaveCount(1);
  const students = Number(await rows(page).locator('td').nth(4).innerText());
  expect(students).toBeGreaterThan(5);
  await rows(page).getByRole('button', { name: 'Xem' }).click();
  const show = page.getByTestId('class-show');
  await expect(show).toContainText(`Sinh viên (${students})`);
  await expect(show.locator('.ant-list-item')).toHaveCount(5);
  await expect(show).toContainText(`và ${students - 5} sinh viên khác`);
  await page.getByRole('dialog').locator('.ant-modal-close').click();

  // A class with students cannot be deleted (000 §9): its delete button is disabled.
  await expect(rows(page).getByTestId('class-delete')).toBeDisabled();
  await expect(rows(page)).toHaveCount(1);

  // A new class: created with its department, its year edited, then deleted.
  await page.getByTestId('class-add').click();
  await page.getByText('Thêm một lớp').click();
  const create = page.getByTestId('class-create-form');
  await create.getByLabel('Tên lớp').fill('E2E Lớp thử');
  await create.getByLabel('Năm').fill('2025');
  await pick(page, create.getByLabel('Khoa/Phòng ban'), 'Khoa Cơ khí');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(create).toBeHidden();
  await page.getByTestId('class-search').fill('e2e lop');
  await page.getByRole('button', { name: 'Lọc', exact: true }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Khoa Cơ khí');
  await expect(rows(page)).toContainText('2025');

  await rows(page).getByTestId('class-edit').click();
  const edit = page.getByTestId('class-edit-form');
  await expect(edit.getByLabel('Tên lớp')).toHaveValue('E2E Lớp thử');
  await expect(edit).toContainText('Khoa Cơ khí');
  await edit.getByLabel('Năm').fill('2026');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(edit).toBeHidden();
  await expect(rows(page)).toContainText('2026');
  await expect(rows(page)).toContainText('Khoa Cơ khí');

  await rows(page).getByTestId('class-delete').click();
  await page.getByTestId('confirm-delete').click();
  await expect(page.getByTestId('classes-table')).toContainText('Không tìm thấy lớp phù hợp');
});
