/**
 * Issue 30 item 3 as an officer reads it: a member joined a chi đoàn, was made an officer there,
 * paid a fee and was then transferred to another faculty's chi đoàn. The receiving faculty's
 * officer and the super admin open the member's view dialog and read the history timeline as
 * sentences, newest first, in Vietnamese and in English.
 */
import { formatDate, formatVnd } from '@doanhoi/shared';
import { expect as baseExpect, test, type Page } from '../helpers/test';
import { ADMIN } from '../helpers/accounts';
import { apiLogin, signIn } from '../helpers/session';
import { call } from '../helpers/fees';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const s = Date.now() % 1_000_000;
const names = { unitA: `Chi đoàn 22CNTT1 LS${s}`, unitB: `Chi đoàn 22CNTT2 LS${s}`, campaign: `Đoàn phí năm 2026 LS${s}` };
const member = { code: `LSSV${s}`, email: `ls.sv${s}@doanhoi.local` };
const officerB = { email: `ls.b${s}@doanhoi.local`, password: 'canbo123', name: `Trần Minh Khoa${s}` };
let roleName = '';
/** The transfer's day (today in Vietnam), as the timeline writes it. */
const today = new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);

test.beforeAll(async ({ baseURL }) => {
  const url = baseURL!;
  const admin = await apiLogin(url, ADMIN);
  const org = async (name: string, code: string, type: string, parentId?: number) =>
    call<{ id: number }>(url, admin, 'POST', '/organizations', { name, code, type, parentId });
  const school = await org(`Đoàn trường LS${s}`, `LST${s}`, 'doan_truong');
  const facA = await org(`Đoàn khoa CNTT LS${s}`, `LSA${s}`, 'doan_co_so', school.id);
  const unitA = await org(names.unitA, `LSA1${s}`, 'chi_doan', facA.id);
  const facB = await org(`Đoàn khoa Điện LS${s}`, `LSB${s}`, 'doan_co_so', school.id);
  const unitB = await org(names.unitB, `LSB1${s}`, 'chi_doan', facB.id);
  const roles = await call<{ id: number; name: string; displayName: string }[]>(url, admin, 'GET', '/users/available-roles');
  const orgAdmin = roles.find((r) => r.name === 'org_admin')!;
  roleName = orgAdmin.displayName;
  const [family, given] = [officerB.name.split(' ').slice(0, 2).join(' '), officerB.name.split(' ').slice(2).join(' ')];
  const b = await call<{ id: number }>(url, admin, 'POST', '/users', {
    code: `LSB${s}`,
    familyName: family,
    givenName: given,
    email: officerB.email,
    phone: '0912345678',
    password: officerB.password,
    userType: 'staff',
  });
  await call(url, admin, 'POST', `/users/${b.id}/assign-role`, { roleId: orgAdmin.id, organizationId: facB.id });

  const m = await call<{ id: number }>(url, admin, 'POST', '/users', {
    code: member.code,
    familyName: 'Lê Thu',
    givenName: 'Lịch Sử',
    email: member.email,
    phone: '0912345679',
    organizationId: unitA.id,
  });
  await call(url, admin, 'POST', `/users/${m.id}/assign-role`, { roleId: orgAdmin.id, organizationId: unitA.id });

  // A fee of the school's campaign, marked paid in cash.
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  const campaign = await call<{ id: number }>(url, admin, 'POST', '/payment-campaigns', {
    organizationId: school.id,
    name: names.campaign,
    startDate: `${day(-1)}T00:00:00`,
    endDate: `${day(30)}T23:59:00`,
  });
  const level = await call<{ id: number }>(url, admin, 'POST', '/payment-fee-levels', {
    campaignId: campaign.id,
    levelName: 'Mức chuẩn',
    amount: 24_000,
  });
  const assignment = await call<{ data: { id: number } }>(url, admin, 'POST', '/payment/assignments', {
    campaignId: campaign.id,
    userId: m.id,
    feeLevelId: level.id,
  });
  await call(url, admin, 'POST', `/payment-campaigns/${campaign.id}/payos-config`, {
    clientId: `ls-${s}`,
    apiKey: `ls-api-${s}`,
    checksumKey: `ls-checksum-${s}`,
    isActive: true,
  });
  await call(url, admin, 'POST', `/payment-campaigns/${campaign.id}/activate`, {});
  await call(url, admin, 'PATCH', `/payment/assignments/${assignment.data.id}/mark-paid`, { method: 'cash' });

  // The sending side asks, the receiving faculty's officer accepts.
  const transfer = await call<{ id: number }>(url, admin, 'POST', '/transfers', {
    userId: m.id,
    fromOrganizationId: unitA.id,
    toOrganizationId: unitB.id,
    reason: 'Chuyển ngành học',
    effectiveDate: today,
  });
  await call(url, await apiLogin(url, officerB), 'POST', `/transfers/${transfer.id}/accept`);
});

async function openHistory(page: Page, view: string) {
  await page.getByTestId('user-search').fill(member.code);
  const row = page.getByTestId('users-table').locator('tbody tr.ant-table-row').filter({ hasText: member.code });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: view }).click();
  return page.getByRole('dialog').locator('.ant-timeline-item');
}

test('vi: the receiving faculty reads the transfer, the roles and the joining as sentences; fees of another unit are not shown', async ({
  page,
}) => {
  await signIn(page, officerB, '/users');
  const items = await openHistory(page, 'Xem');
  const date = formatDate(`${today}T00:00:00+07:00`);
  // The role held in the chi đoàn left ends with the transfer (written just after it, so newest).
  await expect(items.first()).toContainText(`Bị gỡ vai trò ${roleName} · ${names.unitA} bởi ${officerB.name} — ${date}`);
  await expect(items.nth(1)).toContainText(`Chuyển từ ${names.unitA} sang ${names.unitB} bởi ${officerB.name} — ${date}`);
  await expect(items.nth(1)).toContainText('Lý do: Chuyển ngành học');
  await expect(page.getByRole('dialog')).toContainText(
    `Đề nghị chuyển sinh hoạt từ ${names.unitA} sang ${names.unitB} bởi Quản trị Hệ thống`,
  );
  await expect(page.getByRole('dialog')).toContainText(`Được cấp vai trò ${roleName} · ${names.unitA} bởi Quản trị Hệ thống`);
  await expect(page.getByRole('dialog')).toContainText(`Vào sinh hoạt tại ${names.unitA} bởi Quản trị Hệ thống`);
  // The fee is the school's campaign: the faculty officer may not see its payments.
  await expect(page.getByRole('dialog')).not.toContainText(names.campaign);

  // One kind of event at a time.
  await page.getByRole('dialog').getByRole('combobox', { name: 'Loại sự kiện' }).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Được cấp vai trò' }).click();
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText(`Được cấp vai trò ${roleName} · ${names.unitA}`);
});

test('en: the super admin reads the same history in English, with the fee paid', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
  await signIn(page, ADMIN, '/users');
  const items = await openHistory(page, 'Show');
  const date = formatDate(`${today}T00:00:00+07:00`);
  await expect(items.first()).toContainText(`Role ${roleName} · ${names.unitA} taken away by ${officerB.name} — ${date}`);
  await expect(items.nth(1)).toContainText(`Transferred from ${names.unitA} to ${names.unitB} by ${officerB.name} — ${date}`);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'History' })).toBeVisible();
  await expect(dialog).toContainText(`Paid ${formatVnd(24_000)} — ${names.campaign} by Quản trị Hệ thống`);
  await expect(dialog).toContainText(`Assigned a fee of ${formatVnd(24_000)} — ${names.campaign}`);
  await expect(dialog).toContainText(`Granted the role ${roleName} · ${names.unitA} by Quản trị Hệ thống`);
  await expect(dialog).toContainText(`Joined ${names.unitA} by Quản trị Hệ thống`);
});
