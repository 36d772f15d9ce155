/**
 * What officers read (issue 26 items 3 and 4): a unit's detail page gives the figures reported
 * upward (units per type with their members, members per user type and Đoàn/Hội status) and its
 * officers ("Cán bộ phụ trách"), the level-3 page its members; every role is shown with where it
 * applies, in the users view dialog too. Read in vi and en, at 1440 px and 390 px.
 */
import { join } from 'node:path';
import { expect as baseExpect, test, type Locator, type Page } from '../helpers/test';
import { ADMIN, FACULTY_ADMIN } from '../helpers/accounts';
import { apiLogin, navigate, signIn } from '../helpers/session';
import { call } from '../helpers/fees';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const DCS = '/organizations/doan_co_so/DCS-CNTT';
const CD = `${DCS}/chi_doan/CD-22CNTT1`;

async function shot(page: Page, name: string) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: join(process.env.SHOTS_DIR, `${name}.png`), fullPage: true });
}

type Stats = {
  doanStats: { chiDoan: number; members: { chiDoan: number } };
  totalMembers: number;
  membershipBreakdown: { both: number; onlyDoanVien: number; onlyHoiVien: number; neither: number };
  byUserType: Record<'student' | 'staff', { total: number; both: number; onlyDoanVien: number; onlyHoiVien: number; neither: number }>;
};

/** A student of 22CNTT1 made "Cán bộ" of the chi đoàn, the one the journeys look for. */
let officer: { code: string; name: string };
let dcsName = '';
let schoolName = '';

test.beforeAll(async ({ baseURL }) => {
  const token = await apiLogin(baseURL!, ADMIN);
  const cd = await call<{ id: number }>(baseURL!, token, 'GET', '/organizations/by-type-code/chi_doan/CD-22CNTT1');
  dcsName = (await call<{ name: string }>(baseURL!, token, 'GET', '/organizations/by-type-code/doan_co_so/DCS-CNTT')).name;
  const school = await call<{ id: number; name: string }>(baseURL!, token, 'GET', '/organizations/by-type-code/doan_truong/DTBK');
  schoolName = school.name;
  const members = await call<{ members: { user: { id: number; code: string; familyName: string; givenName: string } }[] }>(
    baseURL!,
    token,
    'GET',
    `/organizations/${cd.id}/members?limit=2`,
  );
  const [u, v] = members.members.map((m) => m.user);
  const roles = await call<{ id: number; name: string }[]>(baseURL!, token, 'GET', '/users/available-roles');
  const staff = roles.find((r) => r.name === 'staff')!;
  await call(baseURL!, token, 'POST', `/users/${u!.id}/roles`, {
    roleAssignments: [{ roleIds: [staff.id], organizationIds: [cd.id], isGlobal: false }],
  });
  // Someone holding a role at the school: above the chi đoàn, but outside a faculty officer's scope.
  await call(baseURL!, token, 'POST', `/users/${v!.id}/roles`, {
    roleAssignments: [{ roleIds: [staff.id], organizationIds: [school.id], isGlobal: false }],
  });
  officer = { code: u!.code, name: `${u!.familyName} ${u!.givenName}` };
});

/** Each of `items` ends inside `container`: a tag cut off at a phone's edge hides the unit it names. */
async function fitsIn(container: Locator, items: Locator) {
  const outer = (await container.boundingBox())!;
  for (const item of await items.all()) {
    const box = (await item.boundingBox())!;
    expect(box.x + box.width, (await item.textContent()) ?? '').toBeLessThanOrEqual(outer.x + outer.width + 1);
  }
}

async function noSidewaysScroll(page: Page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  expect(scroll).toBeLessThanOrEqual(width);
}

test('vi, 1440 px: the faculty page reads its figures and officers; the chi đoàn page its officers, those above and its members', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, ADMIN, DCS);
  const token = await apiLogin(baseURL!, ADMIN);
  const dcs = await call<{ id: number }>(baseURL!, token, 'GET', '/organizations/by-type-code/doan_co_so/DCS-CNTT');
  const s = await call<Stats>(baseURL!, token, 'GET', `/organizations/${dcs.id}/stats`);

  const stats = page.getByTestId('org-stats');
  await expect(stats).toContainText('Đơn vị này và các đơn vị trực thuộc');
  await expect(stats.getByTestId('stats-total')).toContainText(String(s.totalMembers));
  await expect(stats.getByTestId('stats-doan')).toContainText(String(s.membershipBreakdown.both + s.membershipBreakdown.onlyDoanVien));
  // Units per type: four chi đoàn under the faculty, with their members.
  await expect(stats.getByTestId('stats-units')).toContainText('Chi đoàn');
  await expect(stats.getByTestId('stats-units-chi_doan')).toHaveText(
    `${s.doanStats.chiDoan} đơn vị · ${s.doanStats.members.chiDoan} thành viên`,
  );
  // The seed's four chi đoàn at least: journeys running beside this one on the same server may add more.
  expect(s.doanStats.chiDoan).toBeGreaterThanOrEqual(4);
  await expect(stats.getByTestId('stats-type-student')).toHaveText(`Sinh viên: ${s.byUserType.student.total} thành viên`);
  await expect(stats.getByTestId('stats-student-onlyDoanVien')).toHaveText(String(s.byUserType.student.onlyDoanVien));
  await expect(stats).toContainText('Chưa là Đoàn/Hội viên');

  const officers = page.getByTestId('org-officers');
  await expect(officers).toContainText('Cán bộ phụ trách');
  await expect(officers.getByTestId('officers-table')).toContainText('Trần Minh Khoa');
  await expect(officers.getByTestId('role-scope').first()).toHaveText(`Quản trị tổ chức · ${dcsName}`);
  await shot(page, 'org-detail-vi-1440');

  await navigate(page, CD);
  const cdOfficers = page.getByTestId('org-officers');
  await expect(cdOfficers.getByTestId('officers-table')).toContainText(officer.name);
  await expect(cdOfficers.getByTestId('role-scope')).toHaveText(['Cán bộ · Chi đoàn 22CNTT1']);
  await expect(cdOfficers).not.toContainText('Trần Minh Khoa');
  await cdOfficers.getByTestId('officers-inherited').click();
  const above = cdOfficers.getByRole('row').filter({ hasText: 'Trần Minh Khoa' });
  await expect(above.getByTestId('officer-inherited')).toHaveText(`Từ cấp trên: ${dcsName}`);
  await expect(cdOfficers.getByRole('row').filter({ hasText: officer.name }).getByTestId('officer-inherited')).toHaveCount(0);
  await expect(cdOfficers.getByTestId('officer-inherited')).toHaveText([`Từ cấp trên: ${dcsName}`, `Từ cấp trên: ${schoolName}`]);
  // 000 §2: the level-3 detail shows its members.
  await expect(page.getByTestId('org-detail-members')).toContainText(officer.code);
  await shot(page, 'org-chidoan-vi-1440');
});

test('vi, 1440 px: the overview gives the figures of the chosen context (everything for the global admin)', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, ADMIN, '/organizations');
  const s = await call<Stats & { doanStats: { doanCoSo: number; members: { doanCoSo: number } } }>(
    baseURL!,
    await apiLogin(baseURL!, ADMIN),
    'GET',
    '/organizations/stats',
  );
  const stats = page.getByTestId('org-stats');
  await expect(stats.getByTestId('stats-scope')).toHaveText('Toàn hệ thống');
  await expect(stats.getByTestId('stats-units-doan_co_so')).toHaveText(
    `${s.doanStats.doanCoSo} đơn vị · ${s.doanStats.members.doanCoSo} thành viên`,
  );
  // The seed's four đoàn cơ sở at least: journeys running beside this one on the same server may add faculties.
  expect(s.doanStats.doanCoSo).toBeGreaterThanOrEqual(4);
  await expect(stats.getByTestId('stats-total')).toContainText(String(s.totalMembers));
  await shot(page, 'org-overview-vi-1440');
});

test('vi, 1440 px: the users view dialog shows each role with where it applies', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, ADMIN, '/users');
  await page.getByTestId('user-search').fill(officer.code);
  const row = page.getByTestId('users-table').locator('tbody tr.ant-table-row').filter({ hasText: officer.code });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Xem' }).click();
  await expect(page.getByTestId('user-show').getByTestId('role-scope')).toHaveText(['Cán bộ · Chi đoàn 22CNTT1']);
  await shot(page, 'user-view-vi-1440');
});

test('en, 390 px: the same pages read in English on a phone, a global role says so', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
  await signIn(page, ADMIN, CD);
  const stats = page.getByTestId('org-stats');
  await expect(stats).toContainText('This unit and every unit beneath it');
  await expect(stats.getByTestId('stats-units-chi_doan')).toHaveText(/^Units: 1 · members: \d+$/);
  await expect(stats.getByTestId('stats-type-student')).toHaveText(/^Student — members: \d+$/);
  const officers = page.getByTestId('org-officers');
  await expect(officers).toContainText('Officers');
  await officers.getByTestId('officers-inherited').click();
  await expect(officers.getByTestId('officer-inherited').first()).toHaveText(`From above: ${dcsName}`);
  await fitsIn(officers, officers.getByTestId('role-scope'));
  // Inside the table's own box too: a tag on one line ran past it and its unit was cut off.
  await fitsIn(officers.getByTestId('officers-table').locator('table'), officers.getByTestId('role-scope'));
  await fitsIn(officers, officers.getByTestId('officer-inherited'));
  await noSidewaysScroll(page);
  await shot(page, 'org-chidoan-en-390');

  await navigate(page, '/users');
  await page.getByTestId('user-search').fill('admin@doanhoi.local');
  const row = page.getByTestId('users-table').locator('tbody tr.ant-table-row').first();
  await expect(row).toContainText('admin@doanhoi.local');
  await row.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByTestId('user-show').getByTestId('role-scope')).toContainText(['Everywhere (global)']);
  await fitsIn(page.getByTestId('user-show'), page.getByTestId('user-show').getByTestId('role-scope'));
  await noSidewaysScroll(page);
  await shot(page, 'user-view-en-390');
});

test('vi, 390 px: a faculty admin reads its own faculty, not the school above it', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, FACULTY_ADMIN, CD);
  const officers = page.getByTestId('org-officers');
  await expect(officers.getByTestId('officers-table')).toContainText(officer.name);
  await officers.getByTestId('officers-inherited').click();
  await expect(officers.getByTestId('officers-table')).toContainText('Trần Minh Khoa');
  // Nobody of the school (Đoàn trường) level: it is outside this officer's scope.
  await expect(officers.getByTestId('officer-inherited')).toHaveText([`Từ cấp trên: ${dcsName}`]);
  await expect(page.getByTestId('org-stats')).toContainText('Sinh viên');
  await fitsIn(officers, officers.getByTestId('role-scope'));
  await fitsIn(officers.getByTestId('officers-table').locator('table'), officers.getByTestId('role-scope'));
  await noSidewaysScroll(page);
  await shot(page, 'org-chidoan-faculty-vi-390');
  const token = await apiLogin(baseURL!, FACULTY_ADMIN);
  const other = await page
    .context()
    .request.get('/api/organizations/by-type-code/doan_co_so/DCS-KT', { headers: { authorization: `Bearer ${token}` } });
  expect([403, 404]).toContain(other.status());
});
