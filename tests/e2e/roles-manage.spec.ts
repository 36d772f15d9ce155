import { expect as baseExpect, test } from '../helpers/test';
import { ADMIN } from '../helpers/accounts';
import { signIn } from '../helpers/session';

// The shared 2-core machine stalls the browser for seconds at a time: generous waits, same assertions.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

test('unticking a category access with dependents ticked asks first (item 8)', async ({ page }) => {
  await signIn(page, ADMIN, '/permissions');
  await page.getByTestId('role-add').click();
  const matrix = page.getByTestId('role-create-form').getByTestId('permission-matrix');
  await matrix.getByText('Người dùng', { exact: true }).click();
  const users = matrix.getByTestId('matrix-users');
  // A dependent permission brings its category's access.
  await users.getByText('users.export', { exact: true }).click();
  await expect(matrix.getByTestId('matrix-count-users')).toHaveText(/^2\//);
  await users.getByText('users.access', { exact: true }).click();
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm).toContainText('Bỏ quyền truy cập nhóm');
  await confirm.getByRole('button', { name: 'Hủy' }).click();
  await expect(matrix.getByTestId('matrix-count-users')).toHaveText(/^2\//);
  await users.getByText('users.access', { exact: true }).click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Bỏ cả nhóm' }).click();
  await expect(matrix.getByTestId('matrix-count-users')).toHaveText(/^0\//);
});

test('the role delete and bulk-delete dialogs are translated (item 9)', async ({ page }) => {
  await signIn(page, ADMIN, '/permissions');
  await page.getByTestId('role-add').click();
  const form = page.getByTestId('role-create-form');
  await form.getByLabel('Mã vai trò').fill('e2e_delete_me');
  await form.getByLabel('Tên hiển thị').fill('Vai trò để xóa');
  await page.getByRole('button', { name: 'Lưu' }).click();
  await expect(form).toBeHidden();
  const row = page.getByTestId('roles-table').locator('tr', { hasText: 'e2e_delete_me' });
  await row.getByTestId('role-delete').click();
  const confirm = page.locator('.ant-modal-confirm');
  await expect(confirm).toContainText('Xóa vai trò');
  await expect(confirm).not.toContainText('delete.title');
  await confirm.getByRole('button', { name: 'Hủy' }).click();
  await row.locator('input[type=checkbox]').check();
  await page.getByRole('button', { name: /Xóa 1 mục/ }).click();
  await expect(page.locator('.ant-modal-confirm')).toContainText('Xóa 1 vai trò');
  await expect(page.locator('.ant-modal-confirm')).not.toContainText('bulkDelete');
  await page.getByTestId('confirm-delete').click();
  await expect(page.getByTestId('roles-table')).not.toContainText('e2e_delete_me');
  await expect(page.locator('.ant-notification-notice-error')).toHaveCount(0);
});
