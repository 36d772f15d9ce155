/**
 * Dashboard figures read at a glance (issue 26 item 8): the slowest units say what their amount is
 * ("Còn phải thu"), and a percentage is written the same vi-VN way on the card, in the table and
 * on the chart ("33,3%", never "33.3%"); in English the app's en-US numbers.
 */
import { expect as baseExpect, test, type Page } from '../helpers/test';
import { join } from 'node:path';
import { ADMIN } from '../helpers/accounts';
import { call, feeCampaign } from '../helpers/fees';
import { signIn } from '../helpers/session';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const NAME = `Đoàn phí một phần ba ${Date.now() % 100000}`;

async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: join(process.env.SHOTS_DIR, `${name}.png`), fullPage: true });
}

test.beforeAll(async ({ baseURL }) => {
  // Three fees, one paid: a rate of 33,3 % with a decimal to write.
  const c = await feeCampaign(baseURL!, NAME, 30_000, 2);
  await call(baseURL!, c.token, 'PATCH', `/payment/assignments/${c.assignments[1]}/mark-paid`, { method: 'cash' });
});

const VI_PERCENT = /^\d{1,3}(,\d)?\s?%$/;
const EN_PERCENT = /^\d{1,3}(\.\d)?\s?%$/;

test('vi: every figure is labelled, and percentages read 33,3% on the card, in the table and on the chart', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, ADMIN);
  const row = page.getByTestId('dashboard-campaigns').getByRole('row').filter({ hasText: NAME });
  await expect(row).toContainText('1 / 3');
  await expect(row.getByText('33,3%', { exact: true })).toBeVisible();
  await expect(row).not.toContainText('33.3');

  const card = page.getByTestId('stat-rate');
  await expect(card).toContainText('Tỷ lệ thu');
  await expect(card.locator('.ant-statistic-content')).toHaveText(VI_PERCENT);
  await expect(card).toContainText(/Đã thu .+ \/ phải thu .+₫/);

  const lagging = page.getByTestId('dashboard-lagging');
  const unit = lagging.getByTestId('lagging-unit').first();
  await expect(unit).toContainText(/Còn phải thu: [\d.]+\s₫/);
  await expect(unit).toContainText(/Đã nộp: \d+\/\d+ khoản/);
  await expect(unit).toContainText('tỷ lệ thu');
  await expect(unit.locator('.ant-progress-text')).toHaveText(VI_PERCENT);

  // The chart writes each unit's rate beside its bar, as the card does.
  const chart = page.getByTestId('chart-collection');
  const labels = chart.locator('.recharts-label-list text');
  await expect(labels.first()).toBeVisible();
  for (const text of await labels.allTextContents()) expect(text).toMatch(VI_PERCENT);
  const ticks = await chart.locator('.recharts-cartesian-axis-tick-value').allTextContents();
  expect(ticks.filter((x) => x.endsWith('%')).length).toBeGreaterThan(0);
  await shot(page, 'dashboard-vi-1440');
});

test('en: the same labels in English and en-US percentages', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
  await signIn(page, ADMIN);
  const row = page.getByTestId('dashboard-campaigns').getByRole('row').filter({ hasText: NAME });
  await expect(row.getByText('33.3%', { exact: true })).toBeVisible();
  await expect(page.getByTestId('stat-rate').locator('.ant-statistic-content')).toHaveText(EN_PERCENT);
  const unit = page.getByTestId('dashboard-lagging').getByTestId('lagging-unit').first();
  await expect(unit).toContainText(/Still owed: [\d.]+\s₫/);
  await expect(unit).toContainText(/Paid: \d+\/\d+ fees/);
  for (const text of await page.getByTestId('chart-collection').locator('.recharts-label-list text').allTextContents())
    expect(text).toMatch(EN_PERCENT);
  await shot(page, 'dashboard-en-1366');
});
