/**
 * Issue 15 part 4: the audit log screen. A faculty admin (org_admin of DCS-CNTT, audit.access)
 * sees the changes of their faculty only, filters them, opens one change's before/after view
 * (payOS keys masked) and exports the list; a member has no menu entry and is refused the page.
 */
import { expect, test, type Page } from '../helpers/test';
import { mkdirSync } from 'node:fs';
import { ADMIN, FACULTY_ADMIN, MEMBER } from '../helpers/accounts';
import { memberFeeCampaign } from '../helpers/campaign';
import { apiLogin, signIn, navigate } from '../helpers/session';

const SHOTS = process.env.SHOTS_DIR;
const stamp = Date.now();

async function patchOrganization(baseURL: string, token: string, code: string, description: string) {
  const org = await fetch(`${baseURL}/api/organizations/by-type-code/doan_co_so/${code}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { id } = (await org.json()) as { id: number };
  const res = await fetch(`${baseURL}/api/organizations/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ description }),
  });
  expect(res.status).toBe(200);
}

async function look(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const lng of ['vi', 'en'] as const) {
    for (const mode of ['light', 'dark'] as const) {
      await page.evaluate(
        ([l, m]) => {
          localStorage.setItem('i18nextLng', l);
          localStorage.setItem('colorMode', m);
        },
        [lng, mode],
      );
      await page.reload();
      await expect(page.getByTestId('audit-table').locator('tbody tr.ant-table-row').first()).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/${name}-${lng}-${mode}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => {
    localStorage.setItem('i18nextLng', 'vi');
    localStorage.setItem('colorMode', 'light');
  });
}

// Its journeys share what beforeAll sets up once: in order, in one worker (the suite runs fully parallel).
test.describe.configure({ mode: 'default' });

test.describe('audit log screen', () => {
  test.beforeAll(async ({ baseURL }) => {
    const token = await apiLogin(baseURL!, ADMIN);
    await patchOrganization(baseURL!, token, 'DCS-CNTT', `Ghi chú CNTT ${stamp}`);
    await patchOrganization(baseURL!, token, 'DCS-DDT', `Ghi chú ĐĐT ${stamp}`);
    await memberFeeCampaign(baseURL!, `Đợt thu nhật ký ${stamp}`);
  });

  test('a faculty admin sees only their faculty, filters, opens a change with its keys masked, and exports', async ({ page }) => {
    test.setTimeout(SHOTS ? 240_000 : 90_000);
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page, FACULTY_ADMIN);
    await page.getByTestId('side-nav').getByRole('link', { name: 'Nhật ký thay đổi' }).click();
    await expect(page).toHaveURL(/\/audit-logs/);
    const table = page.getByTestId('audit-table');
    // Issue 26: rows read as sentences, not action codes.
    await expect(table.getByText(/đã sửa tổ chức/).first()).toBeVisible({ timeout: 30_000 });
    await expect(table.getByText('organization.update')).toHaveCount(0);
    // Their faculty's change is listed; the other faculty's is not (organization column).
    await expect(table.getByText(/Đoàn khoa Công nghệ Thông tin|DCS-CNTT/).first()).toBeVisible();
    await expect(table.getByText('DCS-DDT')).toHaveCount(0);

    // Filter by record type: the payOS settings of the new campaign.
    await page.getByTestId('audit-filter-entity').click();
    await page.keyboard.type('payOS');
    await page.locator('.ant-select-item-option', { hasText: 'Cấu hình payOS' }).click();
    await expect(page).toHaveURL(/entity/);
    const row = table.locator('tbody tr', { hasText: 'đã thiết lập payOS cho đợt thu' }).first();
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: 'Xem thay đổi' }).click();
    const drawer = page.getByTestId('audit-change');
    await expect(drawer.getByText('Chi tiết thay đổi')).toBeVisible();
    const diff = drawer.getByTestId('audit-diff');
    await expect(diff.locator('tr', { hasText: 'Khóa API (che bớt)' })).toContainText('***');
    await expect(drawer).not.toContainText('csp-api-');
    await expect(drawer).not.toContainText('csp-checksum-');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/audit-change-vi-light.png` });
    await page.keyboard.press('Escape');

    // Export the filtered rows as xlsx.
    const download = page.waitForEvent('download');
    await page.getByTestId('audit-export').click();
    expect((await download).suggestedFilename()).toMatch(/^audit_.*\.xlsx$/);

    // Clearing the filter brings back every row of the scope.
    await navigate(page, '/audit-logs');
    await look(page, 'audit-list');
  });

  test('a global reader sees the other faculty too; a member has no menu entry and is refused', async ({ page, browser }) => {
    test.setTimeout(120_000);
    await signIn(page, ADMIN, '/audit-logs?filters[0][field]=action&filters[0][operator]=eq&filters[0][value]=organization.update');
    await expect(page.getByTestId('audit-table').locator('tbody tr', { hasText: 'DCS-DDT' }).first()).toBeVisible({ timeout: 30_000 });

    const memberPage = await (await browser.newContext()).newPage();
    await signIn(memberPage, MEMBER);
    await expect(memberPage.getByTestId('side-nav')).toBeVisible();
    await expect(memberPage.getByTestId('side-nav').getByText('Nhật ký thay đổi')).toHaveCount(0);
    await memberPage.goto('/audit-logs');
    await expect(memberPage.getByText('Không có quyền truy cập').first()).toBeVisible({ timeout: 30_000 });
    await memberPage.close();
  });
});
