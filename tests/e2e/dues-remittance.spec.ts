/**
 * Issue 30 items 4–5 as a union office lives them: the year's đoàn phí campaign generated from the
 * rate (2,000 ₫ a month, pro-rata from the month a member joined), then the money passed up the
 * tree — the chi đoàn remits a third to its faculty, the faculty confirms it and remits its own third
 * to the school, which confirms — with each level's figures adding up.
 */
import { formatVnd } from '@doanhoi/shared';
import { expect as baseExpect, test, type Browser, type Page } from '../helpers/test';
import { ADMIN } from '../helpers/accounts';
import { apiLogin, signIn } from '../helpers/session';
import { call } from '../helpers/fees';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 300_000 });

const option = (page: Page, text: string) =>
  page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();

async function pickUnit(page: Page, code: string) {
  await page.getByTestId('dues-unit').click();
  await page.keyboard.type(code);
  await option(page, code).click();
}

async function as(browser: Browser, baseURL: string, account: { email: string; password: string }, to: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, account, to);
  return page;
}

/** The figures row of a unit in the remittance table. */
const unitRow = (page: Page, name: string) => page.getByTestId('remittance-units').locator('tbody tr').filter({ hasText: name }).first();

test('a campaign generated from the rule with pro-rata amounts; remittances confirmed up two levels', async ({
  page,
  browser,
  baseURL,
}) => {
  const url = baseURL!;
  const admin = await apiLogin(url, ADMIN);
  const s = Date.now() % 1_000_000;
  const org = (name: string, code: string, type: string, parentId?: number) =>
    call<{ id: number }>(url, admin, 'POST', '/organizations', { name, code, type, parentId });
  const school = await org(`Đoàn trường ĐP${s}`, `DPT${s}`, 'doan_truong');
  const faculty = await org(`Đoàn khoa ĐP${s}`, `DPK${s}`, 'doan_co_so', school.id);
  const unit = await org(`Chi đoàn ĐP${s}`, `DPA${s}`, 'chi_doan', faculty.id);
  const roles = await call<{ id: number; name: string }[]>(url, admin, 'GET', '/users/available-roles');
  const orgAdmin = roles.find((r) => r.name === 'org_admin')!.id;
  const officer = async (key: string, organizationId: number) => {
    const account = { email: `dp${key}${s}@doanhoi.local`, password: 'canbo123' };
    const u = await call<{ id: number }>(url, admin, 'POST', '/users', {
      code: `DP${key}${s}`,
      familyName: 'Cán bộ',
      givenName: key,
      email: account.email,
      phone: '0912345678',
      password: account.password,
      userType: 'staff',
    });
    await call(url, admin, 'POST', `/users/${u.id}/assign-role`, { roleId: orgAdmin, organizationId });
    return account;
  };
  const officerA = await officer('A', unit.id);
  const officerK = await officer('K', faculty.id);
  const officerT = await officer('T', school.id);
  for (let i = 1; i <= 3; i++) {
    await call(url, admin, 'POST', '/users', {
      code: `DPSV${i}${s}`,
      familyName: 'Lê Thu',
      givenName: `Sinh viên ${i}`,
      email: `dpsv${i}${s}@doanhoi.local`,
      phone: '0912345679',
      organizationId: unit.id,
    });
  }

  // Members joined this month (Vietnam time): this year's campaign charges them from it to December.
  const now = new Date(Date.now() + 7 * 3600_000);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  const months = 12 - month + 1;
  const fee = 2000 * months;
  const total = 3 * fee;

  // 1. The school's office generates the year's campaign through the wizard, after a preview.
  await signIn(page, ADMIN, '/dues');
  await pickUnit(page, `DPT${s}`);
  await page.getByRole('tab', { name: 'Tạo đợt thu theo định mức' }).click();
  const name = `Đoàn phí ${year} ĐP${s}`;
  await page.getByTestId('dues-generate-name').fill(name);
  await page.getByTestId('dues-generate-preview').click();
  const plan = page.getByTestId('dues-plan');
  await expect(plan.getByTestId('dues-plan-members')).toHaveText('3');
  await expect(plan.getByTestId('dues-plan-total')).toHaveText(formatVnd(total));
  const level = plan.getByTestId('dues-plan-levels').locator('tbody tr').first();
  await expect(level).toContainText(`${formatVnd(2000)} × ${months}`);
  await expect(level).toContainText(formatVnd(fee));
  if (months < 12) await expect(level).toContainText(`(từ ${String(month).padStart(2, '0')}/${year})`);
  await expect(plan.getByTestId('dues-plan-examples')).toContainText(`DPSV1${s}`);
  await page.getByTestId('dues-generate-create').click();
  await expect(page).toHaveURL(/\/admin\/payment-campaigns\/\d+/);
  const campaignId = Number(/payment-campaigns\/(\d+)/.exec(page.url())![1]);
  await expect(page.getByTestId('campaign-page')).toContainText(name);
  await expect(page.getByTestId('fee-levels')).toContainText(formatVnd(fee));

  // The members pay (cash, recorded by the treasurer).
  await call(url, admin, 'POST', `/payment-campaigns/${campaignId}/activate`);
  const fees = await call<{ data: { assignments: { id: number }[] } }>(
    url,
    admin,
    'GET',
    `/payment/assignments?campaignId=${campaignId}&limit=100`,
  );
  expect(fees.data.assignments).toHaveLength(3);
  for (const f of fees.data.assignments) await call(url, admin, 'PATCH', `/payment/assignments/${f.id}/mark-paid`, { method: 'cash' });

  const keptA = Math.floor((total * 2) / 3);
  const upA = total - keptA;
  const keptK = Math.floor((upA * 2) / 3);
  const upK = upA - keptK;

  // 2. The chi đoàn remits its third to the faculty; it cannot confirm its own remittance.
  const a = await as(browser, url, officerA, '/dues?tab=remittance');
  await expect(a.getByTestId('remittance-panel')).toContainText(formatVnd(upA));
  await a.getByTestId('remittance-record').click();
  // Suggested: what is still owed up.
  await expect(a.getByRole('dialog').getByRole('spinbutton')).toHaveValue(String(upA));
  // 0 ₫ is refused with its message, never turned into 1 ₫ and saved (issue 25 item 12).
  await a.getByRole('dialog').getByRole('spinbutton').fill('0');
  await a.getByRole('button', { name: 'Ghi nhận', exact: true }).click();
  await expect(a.getByRole('dialog')).toContainText('Số tiền phải lớn hơn 0');
  await a.getByRole('dialog').getByRole('spinbutton').fill(String(upA));
  await a.getByRole('button', { name: 'Ghi nhận', exact: true }).click();
  const recordsA = a.getByTestId('remittance-records');
  await expect(recordsA).toContainText('Chờ xác nhận');
  await expect(recordsA.getByRole('button', { name: 'Xác nhận' })).toHaveCount(0);
  await a.context().close();

  // 3. The faculty confirms it, then remits its own third to the school.
  const k = await as(browser, url, officerK, '/dues?tab=remittance');
  await expect(unitRow(k, `Chi đoàn ĐP${s}`)).toContainText(formatVnd(upA));
  await k.getByTestId('remittance-records').getByRole('button', { name: 'Xác nhận' }).click();
  await k.locator('.ant-modal-confirm').getByRole('button', { name: 'Xác nhận' }).click();
  await expect(k.getByTestId('remittance-records')).toContainText('Đã xác nhận');
  const selfK = unitRow(k, `Đoàn khoa ĐP${s}`);
  await expect(selfK).toContainText(formatVnd(keptK));
  await k.getByTestId('remittance-record').click();
  await k.getByRole('button', { name: 'Ghi nhận', exact: true }).click();
  await expect(k.getByTestId('remittance-records')).toContainText('Chờ xác nhận');
  await k.context().close();

  // 4. The school confirms on the campaign's Remittance tab; every level's figures add up.
  const t = await as(browser, url, officerT, `/admin/payment-campaigns/${campaignId}?tab=remittance`);
  const panel = t.getByTestId('remittance-panel');
  await expect(unitRow(t, `Đoàn khoa ĐP${s}`)).toContainText(formatVnd(upK));
  await t.getByTestId('remittance-records').getByRole('button', { name: 'Xác nhận' }).click();
  await t.locator('.ant-modal-confirm').getByRole('button', { name: 'Xác nhận' }).click();
  await expect(t.getByTestId('remittance-records')).toContainText('Đã xác nhận');
  const top = await call<{
    units: {
      organizationId: number;
      collected: number;
      kept: number;
      owedUp: number;
      receivedFromBelow: number;
      confirmed: number;
      outstanding: number;
    }[];
  }>(url, admin, 'GET', `/payment-campaigns/${campaignId}/remittance?organizationId=${school.id}`);
  expect(top.units[0]).toMatchObject({ collected: total, kept: upK, receivedFromBelow: upK });
  expect(top.units[1]).toMatchObject({ organizationId: faculty.id, owedUp: upK, confirmed: upK, outstanding: 0 });
  expect(keptA + keptK + upK).toBe(total);
  await expect(unitRow(t, `Đoàn khoa ĐP${s}`)).toContainText(formatVnd(0));
  // The top of the tree keeps everything it receives: its share is not shown as 2/3.
  await expect(unitRow(t, `Đoàn trường ĐP${s}`)).toContainText('giữ toàn bộ');
  await expect(unitRow(t, `Đoàn trường ĐP${s}`)).not.toContainText('(2/3)');
  // The faculty's level, opened from the school's: the chi đoàn's remittance is confirmed there too.
  await panel.getByRole('button', { name: `Đoàn khoa ĐP${s}` }).click();
  await expect(unitRow(t, `Chi đoàn ĐP${s}`)).toContainText(formatVnd(keptA));
  await expect(t.getByTestId('remittance-records')).toContainText('Đã xác nhận');
});
