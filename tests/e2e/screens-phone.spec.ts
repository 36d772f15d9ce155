/**
 * Issue 13's last items: the admin on a 390 × 844 phone (the roles table and every campaign screen
 * read without letters stacked in a column), at 1366 × 768, and by keyboard in the campaign dialogs
 * (focus on the first field, Enter submits, Esc closes).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN } from '../helpers/accounts';
import { apiLogin, signIn } from '../helpers/session';

const ACTIVE = 'Đoàn phí năm học 2025–2026';

/** The page itself never scrolls sideways; wide tables scroll in their own box. */
async function expectNoSidewaysPage(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what}: the page is ${overflow} px wider than the screen`).toBeLessThanOrEqual(0);
}

/** Text laid out a letter or a syllable per line is far taller than it is wide. */
async function expectReadable(cell: Locator, what: string, maxHeight: number) {
  const box = (await cell.boundingBox())!;
  expect(box.height, `${what}: ${Math.round(box.width)} × ${Math.round(box.height)} px`).toBeLessThanOrEqual(maxHeight);
}

const rows = (page: Page, testId: string) => page.getByTestId(testId).locator('tbody tr.ant-table-row');

test.describe('on a 390-wide phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the roles table keeps its keys and names readable', async ({ page }) => {
    await signIn(page, ADMIN, '/permissions');
    const row = rows(page, 'roles-table').filter({ hasText: 'super_admin' });
    await expect(row).toBeVisible();
    // The key on one line (it was s/up/er/_a/dm/in), the name in words (it was one letter per line).
    await expectReadable(row.locator('code'), 'role key', 30);
    await expectReadable(row.getByText('Quản trị hệ thống', { exact: true }), 'role name', 50);
    await expectReadable(row, 'role row', 110);
    await expectNoSidewaysPage(page, 'roles');
  });

  test('the campaign list, its record and every tab read on the phone', async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, ADMIN, '/admin/payment-campaigns');
    const row = rows(page, 'campaigns-table').filter({ hasText: ACTIVE });
    await expect(row).toBeVisible({ timeout: 30_000 });
    // Name and description wrap between words: the row was 560 px tall.
    await expectReadable(row, 'campaign row', 160);
    await expectNoSidewaysPage(page, 'campaign list');

    await row.getByRole('link', { name: ACTIVE }).click();
    const info = page.getByTestId('campaign-info');
    await expect(info).toContainText('canbo.cntt@doanhoi.local');
    // One column, label above value: the creator's name and e-mail take two lines, not twenty.
    await expectReadable(info.getByText(/Trần Minh Khoa \(CB0001/), 'creator', 60);
    await expectNoSidewaysPage(page, 'statistics');
    // The money tiles hold their figures.
    for (const id of ['stat-uncollected', 'stat-collected', 'stat-expected']) {
      const tile = (await page.getByTestId(id).boundingBox())!;
      const value = (await page.getByTestId(id).locator('.ant-statistic-content').boundingBox())!;
      expect(value.x + value.width, `${id} figure inside its card`).toBeLessThanOrEqual(tile.x + tile.width);
    }

    const tab = async (name: string) => {
      // Tabs beyond the screen are behind antd's "more" menu; the URL opens them the same way.
      await page.goto(`${page.url().split('?')[0]}?tab=${name}`);
    };
    await tab('payment-history');
    const paid = rows(page, 'payment-history').first();
    await expect(paid).toBeVisible();
    await expectReadable(paid, 'payment row', 110);
    await expectNoSidewaysPage(page, 'history');

    await tab('fee-levels');
    await expect(page.getByTestId('fee-level')).toHaveCount(2);
    for (const level of await page.getByTestId('fee-level').all()) {
      const box = (await level.boundingBox())!;
      const edit = (await level.getByTestId('fee-level-edit').boundingBox())!;
      expect(edit.x + edit.width, 'edit link on the screen').toBeLessThanOrEqual(box.x + box.width);
      await expectReadable(level, 'fee level', 140);
    }
    await expectNoSidewaysPage(page, 'fee levels');

    await tab('member-assignments');
    const assignment = rows(page, 'assignments-table').first();
    await expect(assignment).toBeVisible();
    await expectReadable(assignment, 'assignment row', 110);
    await expectNoSidewaysPage(page, 'assignments');

    await tab('payos-config');
    await expect(page.getByTestId('payos-webhook-url')).toBeVisible();
    await expectNoSidewaysPage(page, 'payOS');

    await tab('reminders');
    await expect(page.getByTestId('schedule-days')).toBeVisible();
    await expectNoSidewaysPage(page, 'reminders');
    const days = (await page.getByTestId('reminder-schedule').locator('.ant-input-number-group-wrapper').boundingBox())!;
    expect(days.x + days.width, 'days field on the screen').toBeLessThanOrEqual(390);
  });
});

test('at 1366 × 768 every screen fits the width and shows its main action without scrolling', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, ADMIN);
  const screens: [string, string][] = [
    ['/users', 'user-add'],
    ['/departments', 'department-add'],
    ['/classes', 'class-add'],
    ['/permissions', 'role-add'],
    ['/admin/payment-campaigns', 'campaign-add'],
  ];
  for (const [path, action] of screens) {
    await page.goto(path);
    await expect(page.getByTestId(action)).toBeInViewport();
    await expect(page.locator('tbody tr.ant-table-row').first()).toBeVisible({ timeout: 30_000 });
    await expectNoSidewaysPage(page, path);
  }
});

test('campaign dialogs by keyboard: first field focused, Enter submits, Esc closes', async ({ page, baseURL }) => {
  // A draft of its own, so other journeys' edits to the seeded draft do not matter.
  const token = await apiLogin(baseURL!, ADMIN);
  const call = async (path: string, body?: unknown) => {
    const res = await fetch(`${baseURL}/api${path}`, { method: body ? 'POST' : 'GET', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    expect(res.ok, path).toBe(true);
    return res.json();
  };
  const orgs = (await call('/payment-campaigns/accessible-organizations')) as { data: { id: number; code: string }[] };
  const campaign = (await call('/payment-campaigns', { organizationId: orgs.data.find((o) => o.code === 'DCS-CNTT')!.id, name: 'Quỹ bàn phím', startDate: '2027-01-01T00:00:00', endDate: '2027-02-01T23:59:00' })) as { id: number };

  await signIn(page, ADMIN, '/admin/payment-campaigns');
  await page.getByTestId('campaign-add').click();
  const create = page.getByTestId('campaign-create-form');
  await expect(create.getByLabel('Tổ chức')).toBeFocused();
  // Enter in the name field submits: the missing fields are then named.
  await create.getByLabel('Tên đợt thu').fill('Thử Enter');
  await create.getByLabel('Tên đợt thu').press('Enter');
  await expect(create).toContainText('Vui lòng chọn tổ chức');
  // Esc closes; with something typed, the browser first asks (in Vietnamese) whether to leave it.
  const asked = new Promise<string>((resolve) => page.once('dialog', (d) => { resolve(d.message()); void d.accept(); }));
  await page.keyboard.press('Escape');
  expect(await asked).toContain('Các thay đổi chưa được lưu');
  await expect(create).toBeHidden();

  await page.goto(`/admin/payment-campaigns/${campaign.id}?tab=fee-levels`);
  await page.getByTestId('fee-level-add').click();
  const level = page.getByTestId('fee-level-create-form');
  await expect(level.getByLabel('Tên mức phí')).toBeFocused();
  await page.keyboard.type('Mức bàn phím');
  await level.getByLabel('Số tiền (VND)').fill('45000');
  const saved = page.waitForResponse((r) => r.url().includes('/api/payment-fee-levels') && r.request().method() === 'POST');
  await level.getByLabel('Số tiền (VND)').press('Enter');
  expect((await saved).status()).toBe(201);
  await expect(page.getByTestId('fee-level').filter({ hasText: 'Mức bàn phím' })).toContainText('45.000');
  await expect(level).toBeHidden();
  // Opened again, the dialog is empty and focused again; Esc closes it.
  await page.getByTestId('fee-level-add').click();
  await expect(level.getByLabel('Tên mức phí')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(level).toBeHidden();
});
