import { expect, test, type Page } from '../helpers/test';
import { ADMIN } from '../helpers/accounts';
import { signIn } from '../helpers/session';

const rows = (page: Page) => page.getByTestId('roles-table').locator('tbody tr.ant-table-row');

test('the admin builds a role from the permission matrix, edits it, views it and deletes it; system roles stay untouchable', async ({
  page,
}) => {
  await signIn(page, ADMIN, '/permissions');
  const superAdmin = rows(page).filter({ hasText: 'super_admin' });
  await expect(superAdmin).toContainText('Hệ thống');
  await expect(superAdmin.getByTestId('role-edit')).toHaveCount(0);
  await expect(superAdmin.getByTestId('role-delete')).toHaveCount(0);

  // The search applies itself after a pause in typing.
  await page.getByTestId('role-search').fill('org_admin');
  await expect(rows(page)).toHaveCount(1);
  await page.getByTestId('role-search').fill('khong-co-vai-tro-nay');
  await expect(page.getByTestId('roles-table')).toContainText('Không có vai trò nào khớp');
  await page.getByText('Xóa tìm kiếm').click();
  await expect(superAdmin).toBeVisible();

  await page.getByTestId('role-add').click();
  const create = page.getByTestId('role-create-form');
  await create.getByLabel('Mã vai trò').fill('Bad Name');
  await create.getByLabel('Tên hiển thị').fill('Người xem E2E');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(create).toContainText('chỉ gồm chữ thường');
  await create.getByLabel('Mã vai trò').fill('e2e_viewer');

  // A dependent permission brings its category's basic permission with it.
  const matrix = create.getByTestId('permission-matrix');
  await matrix.getByText('Người dùng', { exact: true }).click();
  await matrix.getByTestId('matrix-users').getByText('Xem chi tiết người dùng').click();
  await expect(matrix.getByTestId('matrix-count-users')).toHaveText('2/7');
  await expect(matrix.getByTestId('matrix-users').getByRole('checkbox').first()).toBeChecked();
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(create).toBeHidden();

  await page.getByTestId('role-search').fill('e2e_viewer');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page)).toContainText('Người xem E2E');
  await expect(rows(page).locator('td').nth(3)).toHaveText('2');

  // Removing the basic permission removes its dependents; a whole category is one click.
  await rows(page).getByTestId('role-edit').click();
  const edit = page.getByTestId('role-edit-form');
  await expect(edit.getByLabel('Mã vai trò')).toBeDisabled();
  const editMatrix = edit.getByTestId('permission-matrix');
  await editMatrix.getByText('Người dùng', { exact: true }).click();
  await expect(editMatrix.getByTestId('matrix-count-users')).toHaveText('2/7');
  await editMatrix.getByTestId('matrix-users').getByText('Truy cập quản lý người dùng').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Bỏ cả nhóm' }).click();
  await expect(editMatrix.getByTestId('matrix-count-users')).toHaveText('0/7');
  await editMatrix.getByRole('checkbox', { name: 'Lớp' }).check();
  await expect(editMatrix.getByTestId('matrix-count-classes')).toHaveText('6/6');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(edit).toBeHidden();
  await expect(rows(page).locator('td').nth(3)).toHaveText('6');

  await rows(page).getByRole('button', { name: 'Xem' }).click();
  await expect(page.getByTestId('role-show')).toContainText('Lớp (6)');
  await page.getByRole('dialog').locator('.ant-modal-close').click();

  await rows(page).getByTestId('role-delete').click();
  await expect(page.getByRole('dialog')).toContainText('xóa vĩnh viễn');
  await page.getByTestId('confirm-delete').click();
  await expect(page.getByTestId('roles-table')).toContainText('Không có vai trò nào khớp');
});
