/**
 * The live dashboard (issue 15.1): real figures that move after a write, money only for those who
 * may see it, each chart's data as xlsx.
 */
import { expect, test } from '../helpers/test';
import { ADMIN, FACULTY_ADMIN, MEMBER } from '../helpers/accounts';
import { memberFeeCampaign } from '../helpers/campaign';
import { apiLogin, signIn } from '../helpers/session';
import { call } from '../helpers/fees';

const NAME = `Đoàn phí bảng điều khiển ${Date.now() % 100000}`;

test('a treasurer sees the collection rate move after a fee is marked paid, and downloads the chart as xlsx', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await memberFeeCampaign(baseURL!, NAME);
  await signIn(page, ADMIN);
  const row = page.getByTestId('dashboard-campaigns').getByRole('row').filter({ hasText: NAME });
  await expect(row).toContainText('0 / 1');
  await expect(row).toContainText(/0\s₫ \/ 50\.000\s₫/);
  const paidBefore = (await page.getByTestId('stat-paid').locator('.ant-statistic-content').innerText()).trim();

  const token = await apiLogin(baseURL!, ADMIN);
  const campaigns = await call<{ campaigns: { id: number; name: string }[] }>(baseURL!, token, 'GET', '/dashboard/campaigns');
  const campaign = campaigns.campaigns.find((c) => c.name === NAME)!;
  const list = await call<{ data: { assignments: { id: number }[] } }>(
    baseURL!,
    token,
    'GET',
    `/payment/assignments?campaignId=${campaign.id}`,
  );
  await call(baseURL!, token, 'PATCH', `/payment/assignments/${list.data.assignments[0]!.id}/mark-paid`, { method: 'cash' });

  await page.reload();
  // The machine running the suite may be busy: the reload's three requests get more time.
  await expect(row).toContainText('1 / 1', { timeout: 30_000 });
  await expect(row).toContainText(/50\.000\s₫ \/ 50\.000\s₫/);
  await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByTestId('stat-paid').locator('.ant-statistic-content')).not.toHaveText(paidBefore);

  // The weekly chart of this campaign (its figures are checked in api/src/dashboard/dashboard.test.ts).
  await page.getByTestId('weekly-campaign').click();
  await page.locator('.ant-select-item-option', { hasText: NAME }).click();
  await expect(page.getByTestId('weekly-campaign')).toContainText(NAME);
  await expect(page.getByTestId('chart-weekly').locator('.recharts-surface').first()).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByTestId('chart-collection-xlsx').click();
  expect((await download).suggestedFilename()).toMatch(/^dashboard-collection_\d{4}-\d{2}-\d{2}\.xlsx$/);
});

test('a faculty admin sees its faculty’s units and the money figures', async ({ page }) => {
  await signIn(page, FACULTY_ADMIN);
  await expect(page.getByTestId('dashboard')).toContainText('Đoàn khoa Công nghệ Thông tin');
  await expect(page.getByTestId('chart-members').locator('.recharts-surface').first()).toBeVisible();
  await expect(page.getByTestId('stat-rate')).toBeVisible();
});

test('a member sees no membership counts (organizations.view_member_count) and no money, and the screen asks nothing it would be refused', async ({
  page,
}) => {
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() === 403) refused.push(r.url());
  });
  await signIn(page, MEMBER);
  await expect(page.getByTestId('dashboard-no-members')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('stat-members')).toHaveCount(0);
  await expect(page.getByTestId('chart-members')).toHaveCount(0);
  await expect(page.getByTestId('stat-rate')).toHaveCount(0);
  await expect(page.getByTestId('chart-collection')).toHaveCount(0);
  expect(refused).toEqual([]);
});
