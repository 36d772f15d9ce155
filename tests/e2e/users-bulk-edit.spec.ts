/**
 * Issue 30 item 6, as a faculty officer does it: a bulk edit across the users list's search
 * ("all filtered results"), previewed then applied; and one refused because a row reaches outside
 * the officer's faculty — the preview names the row and nothing is saved.
 */
import { expect as baseExpect, test, type Page } from '../helpers/test';
import { ADMIN, FACULTY_ADMIN } from '../helpers/accounts';
import { apiLogin, signIn } from '../helpers/session';
import { callAs } from '../helpers/fees';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

const orgId = async (baseURL: string, type: string, code: string) =>
  (await callAs<{ id: number }>(baseURL, ADMIN, 'GET', `/organizations/by-type-code/${type}/${code}`)).id;
const option = (page: Page, text: string) =>
  page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${text}$`) })
    .first();

let seq = Date.now() % 100_000;
/**
 * Students the CNTT officer adds to their chi đoàn (so they belong to no unit above the faculty),
 * sharing a family name nobody else has, so a search finds exactly them.
 */
async function cohort(baseURL: string, family: string, n: number) {
  const cd = await orgId(baseURL, 'chi_doan', 'CD-22CNTT1');
  const out: { id: number; code: string }[] = [];
  for (let i = 0; i < n; i++) {
    seq += 1;
    const body = {
      code: `BE${seq}`,
      familyName: family,
      givenName: `Sv${i}`,
      email: `bulk${seq}@doanhoi.local`,
      phone: '0912345670',
      organizationId: cd,
      membershipStatus: 'none',
    };
    out.push(await callAs<{ id: number; code: string }>(baseURL, FACULTY_ADMIN, 'POST', '/users', body));
  }
  return out;
}

async function openOnFilter(page: Page, family: string, count: number) {
  await page.getByTestId('user-search').fill(family);
  await expect(page.getByTestId('users-table').locator('tbody tr.ant-table-row')).toHaveCount(count);
  await page.getByTestId('user-bulk-edit').click();
  await page.getByRole('menuitem', { name: `Tất cả kết quả lọc (${count})` }).click();
  const dialog = page.getByTestId('bulk-edit-dialog');
  await expect(dialog).toContainText(`Áp dụng cho tất cả ${count} người dùng khớp bộ lọc và tìm kiếm hiện tại.`);
  return dialog;
}

test('a faculty officer sets the Đoàn/Hội status of every user the search finds, after a preview', async ({ page, baseURL }) => {
  const family = `Bùi Hàngloạt${seq}`;
  const users = await cohort(baseURL!, family, 3);
  await signIn(page, FACULTY_ADMIN, '/users');
  const dialog = await openOnFilter(page, family, 3);
  await dialog.getByTestId('bulk-edit-change-membershipStatus').click();
  await dialog.getByTestId('bulk-edit-membershipStatus').click();
  await option(page, 'Đoàn viên').click();
  await dialog.getByTestId('bulk-edit-preview').click();
  await expect(dialog.getByTestId('bulk-edit-summary')).toContainText('3 người dùng khớp, 3 người sẽ thay đổi.');
  await expect(dialog.getByTestId('bulk-edit-sample')).toContainText(users[0]!.code);
  await dialog.getByTestId('bulk-edit-confirm').click();
  await expect(page.getByText('Đã cập nhật 3 người dùng (trong 3 người được chọn)')).toBeVisible();
  await expect(dialog).toBeHidden();
  const rows = page.getByTestId('users-table').locator('tbody tr.ant-table-row');
  for (let i = 0; i < 3; i++) await expect(rows.nth(i)).toContainText('Đoàn viên');
  for (const u of users)
    expect((await callAs<{ membershipStatus: string }>(baseURL!, ADMIN, 'GET', `/users/${u.id}`)).membershipStatus).toBe('doan_vien');
});

test('a bulk deactivation is refused for a user who also belongs to another faculty: the preview names them, nothing is saved', async ({
  page,
  baseURL,
}) => {
  const family = `Đỗ Hàngloạt${seq}`;
  const users = await cohort(baseURL!, family, 3);
  // The last one is also a member of the Điện - Điện tử faculty, outside the CNTT officer's reach.
  const other = await orgId(baseURL!, 'doan_co_so', 'DCS-DDT');
  const cd = await orgId(baseURL!, 'chi_doan', 'CD-22CNTT1');
  const dual = users[2]!;
  await callAs(baseURL!, ADMIN, 'PUT', `/users/${dual.id}/organizations`, { organizationIds: [cd, other] });

  await signIn(page, FACULTY_ADMIN, '/users');
  const dialog = await openOnFilter(page, family, 3);
  await dialog.getByTestId('bulk-edit-change-isActive').click();
  await dialog.getByTestId('bulk-edit-isActive').click();
  await option(page, 'Ngừng hoạt động').click();
  await dialog.getByTestId('bulk-edit-preview').click();
  const refusals = dialog.getByTestId('bulk-edit-refusals');
  await expect(refusals).toContainText('Không thể áp dụng: 1 người dùng nằm ngoài quyền của bạn');
  await expect(refusals).toContainText(`${dual.code} — ${family} Sv2: thuộc đơn vị hoặc giữ vai trò ngoài phạm vi quản lý của bạn`);
  await expect(refusals).toContainText('Thay đổi chỉ được lưu khi mọi người trong lựa chọn đều thuộc quyền của bạn.');
  await expect(dialog.getByTestId('bulk-edit-confirm')).toBeDisabled();
  // Sent anyway (as a script would), the API refuses the whole change with the code.
  const token = await apiLogin(baseURL!, FACULTY_ADMIN);
  const res = await fetch(`${baseURL}/api/users/bulk-update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ filter: { search: family }, set: { isActive: false } }),
  });
  expect(res.status).toBe(403);
  expect(((await res.json()) as { message: string }).message).toContain(dual.code);
  for (const u of users) expect((await callAs<{ isActive: boolean }>(baseURL!, ADMIN, 'GET', `/users/${u.id}`)).isActive).toBe(true);
});
