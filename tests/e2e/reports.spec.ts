/**
 * Issue 30 item 8 as the school's office uses it: members with their record (gender, ethnicity)
 * admitted to two faculties' chi đoàn and one directly at the school, one of them graduated; the
 * "Báo cáo" screen for the calendar year shows each faculty, the school's own members and a total
 * row that is the sum of the rows (read from the screen); a faculty's row opens its own report with
 * the same figures; the xlsx downloads with the same total.
 */
import ExcelJS from 'exceljs';
import { readFile } from 'node:fs/promises';
import { expect as baseExpect, test, type Page } from '../helpers/test';
import { ADMIN } from '../helpers/accounts';
import { apiLogin, signIn } from '../helpers/session';
import { call } from '../helpers/fees';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 240_000 });

const COLUMNS = ['start', 'admitted', 'transferredIn', 'transferredOut', 'left', 'end', 'doan', 'hoi', 'female', 'minority'] as const;
const digits = (s: string) => Number(s.replace(/[^\d]/g, '') || '0');

/** Every numeric column of a table row (or the total row), read as the screen shows it. */
async function figures(row: ReturnType<Page['locator']>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const c of COLUMNS) out[c] = digits(await row.locator(`[data-col="${c}"]`).innerText());
  return out;
}

async function rowsAddUp(page: Page): Promise<{ total: Record<string, number>; rows: Record<string, number>[] }> {
  const table = page.getByTestId('report-table');
  const rows = table.locator('tbody tr[data-row-key]');
  const n = await rows.count();
  const read: Record<string, number>[] = [];
  for (let i = 0; i < n; i++) read.push(await figures(rows.nth(i)));
  const total = await figures(table.getByTestId('report-total'));
  for (const c of COLUMNS)
    expect(
      read.reduce((s, r) => s + r[c]!, 0),
      c,
    ).toBe(total[c]);
  return { total, rows: read };
}

test('a report whose totals add up the tree, on screen and as xlsx', async ({ page, baseURL }) => {
  const url = baseURL!;
  const admin = await apiLogin(url, ADMIN);
  const s = Date.now() % 1_000_000;
  const org = (name: string, code: string, type: string, parentId?: number) =>
    call<{ id: number }>(url, admin, 'POST', '/organizations', { name, code, type, parentId });
  const school = await org(`Đoàn trường BC${s}`, `BCT${s}`, 'doan_truong');
  const facultyA = await org(`Đoàn khoa A BC${s}`, `BCKA${s}`, 'doan_co_so', school.id);
  const facultyB = await org(`Đoàn khoa B BC${s}`, `BCKB${s}`, 'doan_co_so', school.id);
  const unitA = await org(`Chi đoàn A BC${s}`, `BCCA${s}`, 'chi_doan', facultyA.id);
  const unitB = await org(`Chi đoàn B BC${s}`, `BCCB${s}`, 'chi_doan', facultyB.id);
  let n = 0;
  const member = (organizationId: number, record: Record<string, unknown>) =>
    call<{ id: number }>(url, admin, 'POST', '/users', {
      code: `BC${++n}x${s}`,
      familyName: 'Lò Thị',
      givenName: `Thành viên ${n}`,
      email: `bc${n}x${s}@doanhoi.local`,
      phone: '0912345679',
      organizationId,
      membershipStatus: 'doan_vien',
      ...record,
    });
  const graduating = await member(unitA.id, { gender: 'female', ethnicity: '03', dateOfBirth: '2003-05-01' });
  await member(unitA.id, { gender: 'female', ethnicity: '01' });
  await member(unitA.id, { gender: 'male', ethnicity: '06' });
  await member(unitB.id, { gender: 'female', ethnicity: '01', membershipStatus: 'both' });
  await member(unitB.id, { gender: 'male' });
  await member(school.id, { gender: 'female', ethnicity: '02' });
  const today = new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);
  await call(url, admin, 'POST', `/organizations/${unitA.id}/members/${graduating.id}/end`, { reason: 'graduated', endedAt: today });

  await signIn(page, ADMIN, '/reports');
  await expect(page.getByTestId('reports-page')).toBeVisible();
  await page.getByTestId('report-unit').click();
  await page.keyboard.type(`BCT${s}`);
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: `BCT${s}` })
    .first()
    .click();
  await page.getByTestId('report-period').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'Năm dương lịch' }).click();
  await page.getByTestId('report-year').fill(today.slice(0, 4));
  await page.getByTestId('report-year').blur();
  await expect(page.getByTestId('report-dates')).toHaveText(`01/01/${today.slice(0, 4)} – 31/12/${today.slice(0, 4)}`);

  const table = page.getByTestId('report-table');
  await expect(table.getByTestId('report-total').locator('[data-col="admitted"]')).toHaveText('6');
  const top = await rowsAddUp(page);
  expect(top.total).toMatchObject({ start: 0, admitted: 6, left: 1, end: 5, doan: 5, hoi: 1, female: 3, minority: 2 });
  // Rows: the school's own member, then faculty A and faculty B (by name).
  expect(top.rows.map((r) => r.admitted)).toEqual([1, 3, 2]);
  await table.getByTestId('report-total').locator('[data-col="left"]').hover();

  // The xlsx holds the same total.
  const download = page.waitForEvent('download');
  await page.getByTestId('report-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await readFile((await file.path())!)) as unknown as ArrayBuffer);
  const sheet = wb.worksheets[0]!;
  const head = (sheet.getRow(1).values as unknown[]).map(String);
  const totalRow = [...Array(sheet.rowCount).keys()]
    .map((i) => sheet.getRow(i + 1))
    .find((r) => String(r.getCell(2).value).startsWith('Tổng cộng'))!;
  expect(totalRow.getCell(head.indexOf('Cuối kỳ')).value).toBe(5);
  expect(totalRow.getCell(head.indexOf('Kết nạp/mới vào')).value).toBe(6);

  // Faculty A's row opens its report: its own rows add up to the figures the school's report showed for it.
  await table.getByTestId(`report-drill-BCKA${s}`).click();
  await expect(table.getByTestId(`report-row-BCCA${s}`)).toBeVisible();
  const faculty = await rowsAddUp(page);
  expect(faculty.total).toEqual(top.rows[1]);

  // In English the same screen reads the same figures.
  await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Membership and dues report' })).toBeVisible();
});
