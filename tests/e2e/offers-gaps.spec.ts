/**
 * Issue 25 items 6, 10, 12 and 15, as an officer reads them: what the server would refuse is not
 * offered, or is disabled with its reason — buttons on the officer's own fee (four eyes), "Xóa" of a
 * fee whose payment was reversed, deleting a user with paid fees; the payOS link-length field says
 * why 30 is refused instead of turning it into 25; the reminders result names those left out by
 * the daily limit and those no longer in the campaign's units.
 */
import { ADMIN, FACULTY_ADMIN } from '../helpers/accounts';
import { call } from '../helpers/fees';
import { apiLogin, signIn } from '../helpers/session';
import { expect as baseExpect, test, type Page } from '../helpers/test';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });
test.beforeEach(async ({ page }) => page.setViewportSize({ width: 1440, height: 900 }));

const OWN_FEE = 'Cần một cán bộ khác xác nhận khoản phí của chính bạn';
let seq = 0;

/** Setup through the API as the super admin. */
async function setup(baseURL: string) {
  const token = await apiLogin(baseURL, ADMIN);
  const get = <T>(path: string) => call<T>(baseURL, token, 'GET', path);
  const send = <T>(method: string, path: string, body?: unknown) => call<T>(baseURL, token, method, path, body ?? {});
  const orgs = (await get<{ data: { id: number; code: string }[] }>('/payment-campaigns/accessible-organizations')).data;
  const orgId = (code: string) => orgs.find((o) => o.code === code)!.id;
  const stamp = `${Date.now()}${++seq}`;
  /** A new student of the unit (and its parents). */
  const user = async (unit: string) => {
    const code = `GAP${stamp}${++seq}`;
    const u = await send<{ id: number }>('POST', '/users', {
      code,
      familyName: 'Phạm Thị',
      givenName: `Gấp ${seq}`,
      email: `${code.toLowerCase()}@sv.test`,
      phone: '0901234567',
      organizationId: orgId(unit),
    });
    return { id: u.id, code };
  };
  /** An ACTIVE campaign of the unit with a 50.000 ₫ fee for each of these users; the assignment ids in order. */
  const campaign = async (unit: string, userIds: number[], name = `Quỹ ${stamp} ${++seq}`) => {
    const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
    const c = await send<{ id: number }>('POST', '/payment-campaigns', {
      organizationId: orgId(unit),
      name,
      startDate: `${day(-1)}T00:00:00`,
      endDate: `${day(30)}T23:59:00`,
    });
    const level = await send<{ id: number }>('POST', '/payment-fee-levels', { campaignId: c.id, levelName: 'Mức chuẩn', amount: 50_000 });
    const ids: number[] = [];
    for (const userId of userIds)
      ids.push(
        (await send<{ data: { id: number } }>('POST', '/payment/assignments', { campaignId: c.id, userId, feeLevelId: level.id })).data.id,
      );
    await send('POST', `/payment-campaigns/${c.id}/activate`);
    return { id: c.id, assignments: ids };
  };
  return { token, get, send, orgId, user, campaign };
}

const row = (page: Page, assignmentId: number) => page.getByTestId('assignments-table').locator(`tr[data-row-key="${assignmentId}"]`);

/** The reason a disabled button shows on hover (hovered again if a refetch re-rendered the row meanwhile). */
async function tooltipOf(page: Page, target: ReturnType<Page['getByTestId']>, text: string) {
  await expect(async () => {
    await page.mouse.move(0, 0);
    await target.hover({ force: true });
    await expect(page.getByRole('tooltip').filter({ hasText: text })).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await page.mouse.move(0, 0);
}

test('four eyes: on the officer’s own fee, mark paid, exempt/reduce, delete and resolve are disabled with the reason; another member’s are offered (items 6, 10)', async ({
  page,
  baseURL,
}) => {
  const s = await setup(baseURL!);
  const officerToken = await apiLogin(baseURL!, FACULTY_ADMIN);
  const me = await call<{ id: number; code: string }>(baseURL!, officerToken, 'GET', '/auth/profile');
  const other = await s.user('DCS-CNTT');
  const c = await s.campaign('DCS-CNTT', [me.id, other.id]);
  const [own, theirs] = c.assignments as [number, number];

  await signIn(page, FACULTY_ADMIN, `/admin/payment-campaigns/${c.id}?tab=member-assignments`);
  await expect(row(page, theirs).getByTestId('assignment-mark-paid')).toBeEnabled({ timeout: 60_000 });
  await expect(row(page, theirs).getByTestId('assignment-adjust')).toBeEnabled();
  await expect(row(page, theirs).getByTestId('assignment-delete')).toBeEnabled();
  // Deleting one's own unpaid fee would waive it: refused by the server, so disabled with the reason too.
  for (const id of ['assignment-mark-paid', 'assignment-adjust', 'assignment-delete']) {
    const button = row(page, own).getByTestId(id);
    await expect(button).toBeDisabled();
    await tooltipOf(page, button, OWN_FEE);
  }

  // Another officer records 60.000 ₫ in cash on the officer's 50.000 ₫ fee: 10.000 ₫ to refund, a flag only someone else may resolve.
  await s.send('PATCH', `/payment/assignments/${own}/mark-paid`, { method: 'cash', amount: 60_000 });
  await s.send('PATCH', `/payment/assignments/${theirs}/mark-paid`, { method: 'cash', amount: 70_000 });
  await page.getByRole('tab', { name: 'Lịch sử thanh toán' }).click();
  const flags = page.getByTestId('attention-open');
  await expect(flags).toHaveCount(2);
  const ownFlag = page.locator('tr.ant-table-row').filter({ hasText: me.code }).getByTestId('attention-resolve');
  await expect(ownFlag).toBeDisabled();
  await tooltipOf(page, ownFlag, OWN_FEE);
  await expect(page.locator('tr.ant-table-row').filter({ hasText: other.code }).getByTestId('attention-resolve')).toBeEnabled();
});

test('a fee whose cash payment was reversed offers no "Xóa" (the server keeps it); an untouched fee does (item 6)', async ({
  page,
  baseURL,
}) => {
  const s = await setup(baseURL!);
  const [a, b] = [await s.user('DCS-CNTT'), await s.user('DCS-CNTT')];
  const c = await s.campaign('DCS-CNTT', [a.id, b.id]);
  const [reversed, untouched] = c.assignments as [number, number];
  await s.send('PATCH', `/payment/assignments/${reversed}/mark-paid`, { method: 'cash' });
  await s.send('POST', `/payment/assignments/${reversed}/reverse-payment`, { reason: 'Ghi nhầm người' });

  await signIn(page, ADMIN, `/admin/payment-campaigns/${c.id}?tab=member-assignments`);
  await expect(row(page, untouched).getByTestId('assignment-delete')).toBeVisible({ timeout: 60_000 });
  // Unpaid again and payable, but its payment record stays: no delete to be refused.
  await expect(row(page, reversed).getByTestId('assignment-mark-paid')).toBeVisible();
  await expect(row(page, reversed).getByTestId('assignment-delete')).toHaveCount(0);
});

test('a user with paid fees: delete disabled with the reason, and not selectable for a bulk delete (item 6)', async ({ page, baseURL }) => {
  const s = await setup(baseURL!);
  const [paid, free] = [await s.user('DCS-CNTT'), await s.user('DCS-CNTT')];
  const c = await s.campaign('DCS-CNTT', [paid.id, free.id]);
  await s.send('PATCH', `/payment/assignments/${c.assignments[0]}/mark-paid`, { method: 'cash' });

  await signIn(page, ADMIN, '/users');
  const rows = page.getByTestId('users-table').locator('tbody tr.ant-table-row');
  const rowOf = (code: string) => rows.filter({ hasText: code });
  // The search applies itself after a pause: wait until the table holds the one user.
  await page.getByTestId('user-search').fill(paid.code);
  await expect(rows).toHaveCount(1);
  await expect(rowOf(paid.code)).toHaveCount(1);
  await expect(rowOf(paid.code).getByTestId('user-delete')).toBeDisabled();
  // Not picked for a bulk delete: rows may be ticked for a bulk edit (issue 30 item 6), but ticking it offers no bulk delete.
  const box = rowOf(paid.code).getByRole('checkbox');
  await rowOf(paid.code).locator('td.ant-table-selection-column .ant-checkbox-wrapper').click();
  await expect(box).toBeChecked();
  await expect(page.getByTestId('bulk-delete')).toHaveCount(0);
  await rowOf(paid.code).locator('td.ant-table-selection-column .ant-checkbox-wrapper').click();
  await tooltipOf(page, rowOf(paid.code).getByTestId('user-delete'), 'đã có khoản phí đã thanh toán nên không thể xóa');
  await page.getByTestId('user-search').fill(free.code);
  await expect(rows).toHaveCount(1);
  await expect(rowOf(free.code)).toHaveCount(1);
  await expect(rowOf(free.code).getByTestId('user-delete')).toBeEnabled();
  await expect(rowOf(free.code).getByRole('checkbox')).toBeEnabled();
});

test('the payOS link-length field refuses 30 with its message and keeps what was typed (item 12)', async ({ page, baseURL }) => {
  const s = await setup(baseURL!);
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  const c = await s.send<{ id: number }>('POST', '/payment-campaigns', {
    organizationId: s.orgId('DCS-CNTT'),
    name: `Quỹ độ dài ${Date.now()}`,
    startDate: `${day(-1)}T00:00:00`,
    endDate: `${day(30)}T23:59:00`,
  });
  await signIn(page, ADMIN, `/admin/payment-campaigns/${c.id}?tab=payos-config`);
  const form = page.locator('form.payos-form');
  await form.getByLabel('Client ID').fill('client-30');
  await form.getByLabel('API Key').fill('api-key-30');
  await form.getByLabel('Checksum Key').fill('checksum-key-30');
  const length = page.getByTestId('payos-description-length');
  await length.fill('30');
  let posted = false;
  page.on('request', (r) => {
    if (r.method() !== 'GET' && r.url().includes(`/payment-campaigns/${c.id}/payos-config`)) posted = true;
  });
  await page.getByTestId('payos-save').click();
  await expect(form).toContainText('Độ dài nội dung chuyển khoản phải là số nguyên từ 9 đến 25 ký tự');
  await expect(length).toHaveValue('30');
  expect(posted).toBe(false);
});

test('the reminders result names those left out by the daily limit and those no longer in the campaign’s units (item 15)', async ({
  page,
  baseURL,
}) => {
  const s = await setup(baseURL!);
  const [busy, gone, fresh] = [await s.user('CD-22CNTT1'), await s.user('CD-22CNTT1'), await s.user('CD-22CNTT1')];
  // Three reminders today in three other campaigns: the daily limit (3 by default) is reached.
  for (let i = 0; i < 3; i += 1) {
    const other = await s.campaign('CD-22CNTT1', [busy.id]);
    await s.send('POST', `/payment-campaigns/${other.id}/reminders`, { assignmentIds: other.assignments });
  }
  const c = await s.campaign('CD-22CNTT1', [busy.id, gone.id, fresh.id]);
  // One member leaves the unit after the assignment.
  await s.send('PUT', `/users/${gone.id}/organizations`, { organizationIds: [] });

  await signIn(page, FACULTY_ADMIN, `/admin/payment-campaigns/${c.id}?tab=member-assignments`);
  await page.getByTestId('remind-all').click();
  await page.getByRole('dialog').getByRole('button', { name: 'Gửi nhắc nhở' }).click();
  const result = page.getByTestId('remind-result');
  await expect(result).toContainText('Đã gửi 1 nhắc nhở');
  await expect(result).toContainText('1 người đã nhận đủ số nhắc nhở tối đa trong 24 giờ qua');
  await expect(result).toContainText('1 người không còn sinh hoạt trong đơn vị của đợt thu');
});
