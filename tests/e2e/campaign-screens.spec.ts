/**
 * Campaign screens of issue 11 (items 12–14, 16) on the seeded DRAFT campaign "Quỹ Mùa hè xanh 2026"
 * of DCS-CNTT: the edit dialog keeps what is typed while it loads, fee levels (dialog, set default),
 * the assign dialog (members of the campaign's organization only, due date, amounts), the payOS
 * keys (save disabled until complete, reveal), colours, the rights box, filters in the URL.
 */
import { expect, test, type Page } from '../helpers/test';
import { ADMIN, FACULTY_ADMIN } from '../helpers/accounts';
import { signIn } from '../helpers/session';

const DRAFT = 'Quỹ Mùa hè xanh 2026';

async function openDraft(page: Page, tab?: string) {
  const row = page.getByTestId('campaigns-table').locator('tbody tr.ant-table-row').filter({ hasText: DRAFT });
  await row.getByRole('link', { name: DRAFT }).click({ timeout: 30_000 });
  await expect(page.getByTestId('campaign-page')).toContainText(DRAFT);
  if (tab) await page.getByRole('tab', { name: tab }).click();
}

test('the edit dialog keeps what is typed while the campaign loads', async ({ page }) => {
  await signIn(page, ADMIN, '/admin/payment-campaigns');
  const row = page.getByTestId('campaigns-table').locator('tbody tr.ant-table-row').filter({ hasText: DRAFT });
  await expect(row).toBeVisible({ timeout: 30_000 });
  // A super admin sees no rights summary (001 §2).
  await expect(page.getByTestId('campaign-rights')).toHaveCount(0);
  // A slow answer: the form is filled only after the user could already type.
  await page.route(/\/api\/payment-campaigns\/\d+$/, async (route) => {
    if (route.request().method() === 'GET') await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  const loaded = page.waitForResponse((r) => /\/api\/payment-campaigns\/\d+$/.test(r.url()) && r.request().method() === 'GET');
  await row.getByTestId('campaign-edit').click({ timeout: 30_000 });
  const form = page.getByTestId('campaign-edit-form');
  await form.getByLabel('Tên đợt thu').fill('Quỹ Mùa hè xanh 2026 (đã sửa)');
  await form.getByLabel('Mô tả').fill('Mô tả mới');
  // The slow answer has arrived and filled what was not typed (the dates): only then are the typed values checked.
  await loaded;
  await expect(form.getByLabel('Ngày bắt đầu')).not.toHaveValue('');
  await expect(form.getByLabel('Tên đợt thu')).toHaveValue('Quỹ Mùa hè xanh 2026 (đã sửa)');
  await expect(form.getByLabel('Mô tả')).toHaveValue('Mô tả mới');
  await page.getByRole('dialog').getByRole('button', { name: 'Lưu' }).click();
  await expect(page.getByTestId('campaigns-table')).toContainText('Quỹ Mùa hè xanh 2026 (đã sửa)');
  await expect(page.getByTestId('campaigns-table')).toContainText('Mô tả mới');
});

test('fee levels, assignment from the organization, payOS keys and colours on a draft', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ADMIN, '/admin/payment-campaigns');
  await openDraft(page);

  // Statistics: a campaign ending in about 3 months is green; nothing collected is red.
  await expect(page.getByTestId('due-banner')).toHaveAttribute('data-level', 'ok');
  await expect(page.getByTestId('collection-progress')).toHaveAttribute('data-color', '#f5222d');

  // A second level, then made the default.
  await page.getByRole('tab', { name: 'Mức phí' }).click();
  await page.getByTestId('fee-level-add').click();
  const levelForm = page.getByTestId('fee-level-create-form');
  await levelForm.getByLabel('Tên mức phí').fill('Mức cao');
  await levelForm.getByLabel('Số tiền (VND)').fill('80000');
  await page.getByRole('dialog').getByRole('button', { name: 'Lưu' }).click();
  const levels = page.getByTestId('fee-level');
  await expect(levels).toHaveCount(2);
  const high = levels.filter({ hasText: 'Mức cao' });
  await high.getByTestId('fee-level-default').click();
  await expect(high.getByTestId('fee-level-default-tag')).toBeVisible();
  await expect(levels.filter({ hasText: 'Mức đóng góp' }).getByTestId('fee-level-default-tag')).toHaveCount(0);

  // Assign: the picker lists members of DCS-CNTT and its units only, searched by the server.
  await page.getByRole('tab', { name: 'Phân công thành viên' }).click();
  await expect(page.getByTestId('assignment-tiles')).toBeVisible();
  await page.getByTestId('assign-open').click();
  const assign = page.getByTestId('assign-modal');
  await expect(page.getByTestId('assign-submit')).toBeDisabled();
  // The dialog opens on its first field, the member search (000 keyboard use).
  await expect(assign.getByTestId('assign-search')).toBeFocused();
  // 22001073 is the first student of the next faculty (DDT): not a member here; 22001007 is a đoàn member of DCS-CNTT.
  await assign.getByTestId('assign-search').fill('22001073');
  await expect(assign.getByTestId('assign-member')).toHaveCount(0);
  await assign.getByTestId('assign-search').fill('22001007');
  await expect(assign.getByTestId('assign-member')).toHaveCount(1);
  await assign.getByTestId('assign-member').getByRole('checkbox').check();
  // The default level (now "Mức cao") with its amount; the due date is the campaign's end.
  await expect(assign.getByTestId('assign-fee-level')).toContainText('Mức cao — 80.000');
  const due = assign.getByLabel('Hạn nộp');
  await expect(due).not.toHaveValue('');
  const dueText = await due.inputValue();
  await page.getByTestId('assign-submit').click();
  const rows = page.getByTestId('assignments-table').locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('80.000');
  await expect(rows.first()).toContainText(dueText);
  await expect(page.getByTestId('assignment-tile-total')).toContainText('1');

  // Filters live in the URL: a reload keeps them.
  await page.getByTestId('assignments-status').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Đã thanh toán' }).click();
  await expect(page).toHaveURL(/filters.*status.*PAID/);
  await expect(rows).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('assignments-status')).toContainText('Đã thanh toán');
  await expect(page).toHaveURL(/tab=member-assignments/);

  // payOS: save waits for all three keys; stored keys come back masked and can be revealed.
  await page.getByRole('tab', { name: 'Cấu hình PayOS' }).click();
  const payos = page.getByTestId('payos-config');
  await expect(page.getByTestId('payos-save')).toBeDisabled();
  await payos.getByLabel('Client ID').fill('draft-client');
  await payos.getByLabel('API Key').fill('draft-api-key-7777');
  await expect(page.getByTestId('payos-save')).toBeDisabled();
  await payos.getByLabel('Checksum Key').fill('draft-checksum-key-8888');
  await expect(page.getByTestId('payos-save')).toBeEnabled();
  await page.getByTestId('payos-save').click();
  // Saving registers the channel's webhook at payOS: asked first (issue 26 item 9).
  await page.getByRole('dialog').getByRole('button', { name: 'Lưu và đăng ký webhook' }).click();
  await expect(payos.getByLabel('API Key')).toHaveValue(/^•+7777$/);
  await page.getByTestId('payos-reveal').click();
  await expect(payos.getByLabel('API Key')).toHaveValue('draft-api-key-7777');
  await expect(payos.getByLabel('Checksum Key')).toHaveValue('draft-checksum-key-8888');
});

test('a faculty officer sees what they may do, and row actions follow the campaign organization', async ({ page }) => {
  await signIn(page, FACULTY_ADMIN, '/admin/payment-campaigns');
  const box = page.getByTestId('campaign-rights');
  await expect(box).toBeVisible();
  await expect(box.locator('[data-right="create"]')).toBeVisible();
  await expect(box.locator('[data-right="manage_assignments"]')).toBeVisible();
  // Their organization's collecting campaign offers complete and cancel.
  const active = page
    .getByTestId('campaigns-table')
    .locator('tbody tr.ant-table-row')
    .filter({ has: page.locator('[data-status="ACTIVE"]') })
    .first();
  await expect(active.getByTestId('campaign-complete')).toBeVisible({ timeout: 30_000 });
  await expect(active.getByTestId('campaign-cancel')).toBeVisible();
});
