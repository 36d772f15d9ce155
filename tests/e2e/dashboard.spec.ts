/**
 * The live dashboard (issue 15.1): real figures that move after a write, money only for those who
 * may see it, each chart's data as xlsx.
 */
import { expect, test } from '@playwright/test';
import { ADMIN, FACULTY_ADMIN, MEMBER } from '../helpers/accounts';
import { memberFeeCampaign } from '../helpers/campaign';
import { apiLogin, signIn } from '../helpers/session';

const NAME = `Đoàn phí bảng điều khiển ${Date.now() % 100000}`;

async function api<T>(baseURL: string, token: string, path: string, method = 'GET', body?: unknown): Promise<T> {
  const res = await fetch(`${baseURL}/api${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

test('a treasurer sees the collection rate move after a fee is marked paid, and downloads the chart as xlsx', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await memberFeeCampaign(baseURL!, NAME);
  await signIn(page, ADMIN);
  const row = page.getByTestId('dashboard-campaigns').getByRole('row').filter({ hasText: NAME });
  await expect(row).toContainText('0 / 1');
  await expect(row).toContainText(/0\s₫ \/ 50\.000\s₫/);
  const paidBefore = (await page.getByTestId('stat-paid').locator('.ant-statistic-content').innerText()).trim();

  const token = await apiLogin(baseURL!, ADMIN);
  const campaigns = await api<{ campaigns: { id: number; name: string }[] }>(baseURL!, token, '/dashboard/campaigns');
  const campaign = campaigns.campaigns.find((c) => c.name === NAME)!;
  const list = await api<{ data: { id: number }[] }>(baseURL!, token, `/payment/assignments?campaignId=${campaign.id}`);
  await api(baseURL!, token, `/payment/assignments/${list.data[0]!.id}/mark-paid`, 'PATCH', { method: 'cash' });

  await page.reload();
  await expect(row).toContainText('1 / 1');
  await expect(row).toContainText(/50\.000\s₫ \/ 50\.000\s₫/);
  await expect(row.locator('.ant-progress')).toContainText('100%');
  await expect(page.getByTestId('stat-paid').locator('.ant-statistic-content')).not.toHaveText(paidBefore);

  // The weekly chart of this campaign shows this week's money.
  await page.getByTestId('weekly-campaign').click();
  await page.getByRole('option', { name: NAME }).click();
  await expect(page.getByTestId('chart-weekly').locator('.recharts-bar-rectangle').first()).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByTestId('chart-collection-xlsx').click();
  expect((await download).suggestedFilename()).toMatch(/^dashboard-collection_\d{4}-\d{2}-\d{2}\.xlsx$/);
});

test('a faculty admin sees its faculty’s units; a member sees membership figures and no money', async ({ page, browser }) => {
  await signIn(page, FACULTY_ADMIN);
  await expect(page.getByTestId('dashboard')).toContainText('Đoàn khoa Công nghệ Thông tin');
  await expect(page.getByTestId('chart-members').locator('.recharts-surface')).toBeVisible();
  await expect(page.getByTestId('stat-rate')).toBeVisible();

  const other = await browser.newPage();
  await signIn(other, MEMBER);
  await expect(other.getByTestId('stat-members')).toBeVisible();
  await expect(other.getByTestId('stat-members').locator('.ant-statistic-content')).toHaveText(/\d/);
  await expect(other.getByTestId('stat-rate')).toHaveCount(0);
  await expect(other.getByTestId('chart-collection')).toHaveCount(0);
  await other.close();
});
