/**
 * Issue 25 items 4, 6 and 12, as the officer reads them: an out-of-range value is refused on its
 * field and nothing is saved; a dialog refused once still closes with Hủy, × and Esc; what the
 * server would refuse (deleting a finished campaign with payments, a unit with members) is not
 * offered, or is disabled with the reason.
 */
import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { ADMIN } from '../helpers/accounts';
import { expect as baseExpect, test } from '../helpers/test';
import { apiLogin, signIn } from '../helpers/session';
import { call } from '../helpers/fees';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 150_000 });

/** A screenshot at 1440 px when SHOTS_DIR is set (nothing otherwise). */
async function shot(page: Page, name: string) {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}-1440.png` });
}

/** A campaign of its own in DCS-CNTT, as the API builds it. */
async function campaign(baseURL: string, token: string, name: string) {
  const orgs = await call<{ data: { id: number; code: string }[] }>(baseURL, token, 'GET', '/payment-campaigns/accessible-organizations');
  const org = orgs.data.find((o) => o.code === 'DCS-CNTT')!;
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  return call<{ id: number }>(baseURL, token, 'POST', '/payment-campaigns', {
    organizationId: org.id,
    name,
    startDate: `${day(-1)}T00:00:00`,
    endDate: `${day(30)}T23:59:00`,
  });
}

test.beforeEach(async ({ page }) => page.setViewportSize({ width: 1440, height: 900 }));

test('a 0 ₫ fee level is refused on its field, nothing is created, and the refused dialog closes with Hủy, × and Esc (items 4, 12)', async ({
  page,
  baseURL,
}) => {
  const token = await apiLogin(baseURL!, ADMIN);
  const c = await campaign(baseURL!, token, 'Quỹ mức 0');
  await signIn(page, ADMIN, `/admin/payment-campaigns/${c.id}?tab=fee-levels`);
  const dialog = page.getByRole('dialog');
  const form = page.getByTestId('fee-level-create-form');
  const ways: [string, () => Promise<void>][] = [
    ['Hủy', () => dialog.getByRole('button', { name: 'Hủy' }).click()],
    ['×', () => dialog.locator('.ant-modal-close').click()],
    ['Esc', () => form.getByLabel('Số tiền (VND)').press('Escape')],
  ];
  for (const [how, close] of ways) {
    await page.getByTestId('fee-level-add').click();
    await form.getByLabel('Tên mức phí').fill('Mức không đồng');
    await form.getByLabel('Số tiền (VND)').fill('0');
    await dialog.getByRole('button', { name: 'Lưu' }).click();
    // The field keeps the 0 the officer typed and says why (the input no longer turns it into 1 ₫).
    await expect(form).toContainText('Số tiền phải lớn hơn 0');
    await expect(form.getByLabel('Số tiền (VND)')).toHaveValue('0');
    if (how === 'Hủy') await shot(page, 'fee-level-zero');
    await close();
    await expect(form, `closed with ${how}`).toBeHidden();
  }
  await expect(page.getByTestId('fee-level')).toHaveCount(0);
  const levels = await call<{ feeLevels: unknown[] }>(baseURL!, token, 'GET', `/payment-fee-levels/campaign/${c.id}`);
  expect(levels.feeLevels).toHaveLength(0);

  // Opened again, the dialog is clean and a valid amount saves.
  await page.getByTestId('fee-level-add').click();
  await expect(form).not.toContainText('Số tiền phải lớn hơn 0');
  await form.getByLabel('Tên mức phí').fill('Mức chuẩn');
  await form.getByLabel('Số tiền (VND)').fill('45000');
  await dialog.getByRole('button', { name: 'Lưu' }).click();
  await expect(page.getByTestId('fee-level')).toContainText('45.000');
});

test('a class year of 1999 is refused on its field and nothing is saved (item 12)', async ({ page, baseURL }) => {
  await signIn(page, ADMIN, '/classes');
  await page.getByTestId('class-add').click();
  await page.getByRole('menuitem', { name: 'Thêm một lớp' }).click();
  const form = page.getByTestId('class-create-form');
  await form.getByLabel('Tên lớp').fill('Lớp Năm Sai');
  await form.getByLabel('Năm', { exact: true }).fill('1999');
  await page.getByRole('dialog').getByRole('button', { name: 'Lưu' }).click();
  await expect(form).toContainText('Năm phải từ 2000 đến 2100');
  // The year stays as typed (it was once turned into 2000 and saved with a success toast).
  await expect(form.getByLabel('Năm', { exact: true })).toHaveValue('1999');
  await expect(page.locator('.ant-notification-notice-success')).toHaveCount(0);
  await shot(page, 'class-year-1999');
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  const token = await apiLogin(baseURL!, ADMIN);
  const found = await call<{ classes: unknown[] }>(baseURL!, token, 'GET', `/classes?search=${encodeURIComponent('Lớp Năm Sai')}`);
  expect(found.classes).toHaveLength(0);
});

test('"Xóa" is not offered for a finished campaign holding payments, and is for one without (item 6)', async ({ page, baseURL }) => {
  const token = await apiLogin(baseURL!, ADMIN);
  const members = await call<{ users: { id: number }[] }>(
    baseURL!,
    token,
    'GET',
    `/users?search=${encodeURIComponent('member@doanhoi.local')}`,
  );
  const build = async (name: string, pay: boolean) => {
    const c = await campaign(baseURL!, token, name);
    const level = await call<{ id: number }>(baseURL!, token, 'POST', '/payment-fee-levels', {
      campaignId: c.id,
      levelName: 'Mức chuẩn',
      amount: 30_000,
    });
    const a = await call<{ data: { id: number } }>(baseURL!, token, 'POST', '/payment/assignments', {
      campaignId: c.id,
      userId: members.users[0]!.id,
      feeLevelId: level.id,
    });
    await call(baseURL!, token, 'POST', `/payment-campaigns/${c.id}/payos-config`, {
      clientId: `rf-${name.length}-${Date.now()}`,
      apiKey: `rf-api-${Date.now()}`,
      checksumKey: `rf-checksum-${Date.now()}`,
      isActive: true,
    });
    await call(baseURL!, token, 'POST', `/payment-campaigns/${c.id}/activate`, {});
    if (pay) await call(baseURL!, token, 'PATCH', `/payment/assignments/${a.data.id}/mark-paid`, { method: 'cash' });
    await call(baseURL!, token, 'POST', `/payment-campaigns/${c.id}/complete`, {});
    return c.id;
  };
  const paid = await build('Quỹ đã thu tiền', true);
  await build('Quỹ chưa thu đồng nào', false);

  await signIn(page, ADMIN, '/admin/payment-campaigns');
  const table = page.getByTestId('campaigns-table');
  const withMoney = table.locator('tbody tr.ant-table-row').filter({ hasText: 'Quỹ đã thu tiền' });
  const without = table.locator('tbody tr.ant-table-row').filter({ hasText: 'Quỹ chưa thu đồng nào' });
  // Row actions wait for the rights in the row's own organization.
  await expect(without.getByTestId('campaign-delete')).toBeVisible();
  await expect(withMoney.getByTestId('campaign-status')).toHaveAttribute('data-status', 'COMPLETED');
  await expect(withMoney.getByTestId('campaign-delete')).toHaveCount(0);
  await shot(page, 'campaign-list-delete');

  // Its page shows "Xóa" disabled, with the reason.
  await withMoney.getByRole('link', { name: 'Quỹ đã thu tiền' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/payment-campaigns/${paid}`));
  // The list may still be on screen a moment after the URL changed: read the campaign page's own button.
  await expect(page.getByTestId('campaign-page').getByTestId('campaign-delete')).toBeDisabled();
  await expect(page.getByTestId('campaign-delete-blocked')).toContainText('đã có 1 khoản thanh toán');
  await shot(page, 'campaign-page-delete-blocked');
});

test('the organization delete button is disabled with its reason for a unit with members (item 6)', async ({ page }) => {
  await signIn(page, ADMIN, '/organizations/doan_co_so/DCS-CNTT/chi_doan/CD-22CNTT1');
  await expect(page.getByTestId('organization-delete')).toBeDisabled();
  await expect(page.getByTestId('organization-delete-blocked')).toHaveText('Không thể xóa tổ chức còn thành viên');
  await page.getByTestId('organization-delete').hover({ force: true });
  await expect(page.getByRole('tooltip')).toContainText('Không thể xóa tổ chức còn thành viên');
  await shot(page, 'organization-delete-blocked');
});

test('the signed-in account is not offered for deletion: its delete is disabled with the reason (item 6)', async ({ page }) => {
  await signIn(page, ADMIN, '/users');
  await page.getByTestId('user-search').fill(ADMIN.email);
  const row = page.getByTestId('users-table').locator('tbody tr.ant-table-row').filter({ hasText: ADMIN.email });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('user-delete')).toBeDisabled();
  // Rows may be ticked for a bulk edit (issue 30 item 6): ticking the own account offers no bulk delete.
  await row.locator('td.ant-table-selection-column .ant-checkbox-wrapper').click();
  await expect(row.getByRole('checkbox')).toBeChecked();
  await expect(page.getByTestId('bulk-delete')).toHaveCount(0);
  await row.locator('td.ant-table-selection-column .ant-checkbox-wrapper').click();
  await row.getByTestId('user-delete').hover({ force: true });
  await expect(page.getByRole('tooltip')).toContainText('Không thể xóa tài khoản của chính bạn');
});
