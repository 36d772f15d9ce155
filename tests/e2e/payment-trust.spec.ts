/**
 * Issue 25, "Trust, second pass", as the member reads it: only the owner, signed in, pays in the
 * sandbox (2); a unit without payOS sends its members to the treasurer (3); a receipt only for money
 * that counted, a reversed one marked, none on cancelled orders (3c); the headline says what
 * happened — received X; Y still due / Z to be refunded (5). Vietnamese and English, desktop and a
 * 390-wide phone. Each journey builds its own campaign through the API.
 */
import { ADMIN, FACULTY_ADMIN, MEMBER } from '../helpers/accounts';
import { call } from '../helpers/fees';
import { apiLogin, signIn } from '../helpers/session';
import { expect, test, type Page } from '../helpers/test';
import { feeRow } from '../helpers/my-fees';

const UNIT = 'Đoàn khoa Công nghệ Thông tin';
let seq = 0;

interface Fee {
  admin: string;
  member: string;
  campaignId: number;
  assignmentId: number;
  name: string;
}

/** An ACTIVE campaign of DCS-CNTT with one fee of `amount` for the demo member; payOS keys only when asked. */
async function memberFee(baseURL: string, label: string, amount: number, payos = false): Promise<Fee> {
  const admin = await apiLogin(baseURL, ADMIN);
  const member = await apiLogin(baseURL, MEMBER);
  const name = `${label} ${Date.now() % 100000}-${++seq}`;
  const org = (
    await call<{ data: { id: number; code: string }[] }>(baseURL, admin, 'GET', '/payment-campaigns/accessible-organizations')
  ).data.find((o) => o.code === 'DCS-CNTT')!;
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  const campaign = await call<{ id: number }>(baseURL, admin, 'POST', '/payment-campaigns', {
    organizationId: org.id,
    name,
    startDate: `${day(-1)}T00:00:00`,
    endDate: `${day(30)}T23:59:00`,
  });
  const level = await call<{ id: number }>(baseURL, admin, 'POST', '/payment-fee-levels', {
    campaignId: campaign.id,
    levelName: 'Mức chuẩn',
    amount,
  });
  const user = (await call<{ users: { id: number }[] }>(baseURL, admin, 'GET', `/users?search=${encodeURIComponent(MEMBER.email)}`))
    .users[0]!;
  const assignment = (
    await call<{ data: { id: number } }>(baseURL, admin, 'POST', '/payment/assignments', {
      campaignId: campaign.id,
      userId: user.id,
      feeLevelId: level.id,
    })
  ).data;
  if (payos) {
    const s = `${Date.now()}${seq}`;
    await call(baseURL, admin, 'POST', `/payment-campaigns/${campaign.id}/payos-config`, {
      clientId: `trust-${s}`,
      apiKey: `trust-api-${s}`,
      checksumKey: `trust-checksum-${s}`,
      isActive: true,
    });
  }
  await call(baseURL, admin, 'POST', `/payment-campaigns/${campaign.id}/activate`, {});
  return { admin, member, campaignId: campaign.id, assignmentId: assignment.id, name };
}

const markPaid = (baseURL: string, f: Fee, amount: number) =>
  call(baseURL, f.admin, 'PATCH', `/payment/assignments/${f.assignmentId}/mark-paid`, { method: 'cash', amount });

/** The member's orders of this fee, newest first. */
async function ordersOf(baseURL: string, f: Fee) {
  const page = await call<{ data: { items: { id: number; orderCode: number; amount: number; campaign: { id: number } }[] } }>(
    baseURL,
    f.member,
    'GET',
    '/payment/history?limit=100',
  );
  return page.data.items.filter((o) => o.campaign.id === f.campaignId);
}

async function english(page: Page) {
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'en'));
}

/** A receipt line: its label and what follows it. */
const line = (page: Page, label: string) =>
  page
    .getByTestId('receipt')
    .locator('div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .last();
const headline = (page: Page) => page.getByTestId('payment-status').getByRole('heading');

for (const phone of [false, true]) {
  test.describe(phone ? 'on a 390-wide phone' : 'on a desktop', () => {
    if (phone) test.use({ viewport: { width: 390, height: 844 } });

    test('a campaign without payOS activates and tells the member to pay the treasurer, with no pay button (vi)', async ({
      page,
      baseURL,
    }) => {
      const f = await memberFee(baseURL!, 'Quỹ tiền mặt', 50_000);
      await signIn(page, MEMBER, '/payment/my-campaigns');
      const row = await feeRow(page, f.name);
      await expect(row).toContainText(`Đợt thu không nhận thanh toán trực tuyến: nộp 50.000 ₫ trực tiếp cho thủ quỹ của ${UNIT}`);
      await expect(row.getByRole('button', { name: /Thanh toán ngay|Trả phần còn lại/ })).toHaveCount(0);
      // The treasurer takes the cash and marks it: the fee is paid.
      await markPaid(baseURL!, f, 50_000);
      await page.reload();
      await expect((await feeRow(page, f.name)).getByRole('button', { name: 'Đã thanh toán' })).toBeVisible();
    });

    test('the same in English', async ({ page, baseURL }) => {
      const f = await memberFee(baseURL!, 'Cash fund', 50_000);
      await english(page);
      await signIn(page, MEMBER, '/payment/my-campaigns');
      const row = await feeRow(page, f.name);
      await expect(row).toContainText(`No online payment for this campaign: pay 50.000 ₫ in person to the treasurer of ${UNIT}`);
      await expect(row.getByRole('button', { name: /Pay now|Pay the rest/ })).toHaveCount(0);
    });

    test('money to refund: both pages say received 120.000 ₫, 60.000 ₫ to be refunded, then refunded; the receipt counts 60.000 ₫ (vi)', async ({
      page,
      baseURL,
    }) => {
      const f = await memberFee(baseURL!, 'Quỹ hoàn tiền', 60_000);
      await markPaid(baseURL!, f, 120_000);
      await signIn(page, MEMBER, '/payment/my-campaigns');
      await expect(page.getByTestId('money-notices')).toContainText('Đã nhận 120.000 ₫; 60.000 ₫ sẽ được hoàn lại');
      await expect(await feeRow(page, f.name)).toContainText('60.000 ₫ sẽ được hoàn lại');
      const [order] = await ordersOf(baseURL!, f);
      await page.goto(`/payment-result/${order!.orderCode}`);
      await expect(headline(page)).toHaveText('Đã nhận 120.000 ₫; 60.000 ₫ sẽ được hoàn lại');
      await expect(page.getByText('Thanh toán thành công')).toHaveCount(0);
      await expect(line(page, 'Đã nhận')).toContainText('120.000 ₫');
      await expect(line(page, 'Tính vào khoản phí')).toContainText('60.000 ₫');
      await expect(line(page, 'Sẽ được hoàn lại')).toContainText('60.000 ₫');
      await expect(line(page, 'Bằng chữ')).toHaveText(/Sáu mươi nghìn đồng/);

      await call(baseURL!, f.admin, 'POST', `/payment-admin/orders/${order!.id}/resolve`, { resolution: 'REFUNDED' });
      await page.reload();
      await expect(headline(page)).toHaveText('Đã nhận 120.000 ₫; 60.000 ₫ đã được hoàn lại');
      await expect(line(page, 'Đã hoàn lại')).toContainText('60.000 ₫');
      await expect(line(page, 'Tính vào khoản phí')).toContainText('60.000 ₫');
      await expect(page.getByRole('button', { name: 'In biên nhận' })).toBeVisible();
    });

    test('an underpayment says what is still due on both pages (en)', async ({ page, baseURL }) => {
      const f = await memberFee(baseURL!, 'Short fund', 50_000);
      await markPaid(baseURL!, f, 20_000);
      await english(page);
      await signIn(page, MEMBER, '/payment/my-campaigns');
      await expect(page.getByTestId('money-notices')).toContainText('Received 20.000 ₫; 30.000 ₫ still due');
      const [order] = await ordersOf(baseURL!, f);
      await page.goto(`/payment-result/${order!.orderCode}`);
      await expect(headline(page)).toHaveText('Received 20.000 ₫; 30.000 ₫ still due');
      await expect(page.getByText('Payment successful')).toHaveCount(0);
    });

    test('a reversed cash payment is stamped void; its reversing entry has no receipt and nothing to print (vi)', async ({
      page,
      baseURL,
    }) => {
      const f = await memberFee(baseURL!, 'Quỹ hủy xác nhận', 100_000);
      await markPaid(baseURL!, f, 100_000);
      await call(baseURL!, f.admin, 'POST', `/payment/assignments/${f.assignmentId}/reverse-payment`, { reason: 'Ghi nhầm người' });
      const [entry, paid] = await ordersOf(baseURL!, f);
      expect(entry!.amount).toBe(-100_000);
      await signIn(page, MEMBER, `/payment-result/${paid!.orderCode}`);
      await expect(headline(page)).toHaveText('Khoản thu 100.000 ₫ đã bị hủy xác nhận');
      await expect(page.getByTestId('payment-status')).toContainText('Ghi nhầm người');
      await expect(page.getByTestId('payment-status')).toContainText('Còn 100.000 ₫ phải nộp cho khoản phí này.');
      await expect(page.getByTestId('receipt')).toContainText('Đã hủy xác nhận — không còn giá trị');

      await page.goto(`/payment-result/${entry!.orderCode}`);
      await expect(headline(page)).toHaveText(`Bút toán hủy xác nhận khoản thu #${paid!.orderCode}`);
      await expect(page.getByTestId('receipt')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'In biên nhận' })).toHaveCount(0);
      await expect(page.getByText('Thanh toán thành công')).toHaveCount(0);
    });
  });
}

test('a cancelled order offers no receipt to print (en)', async ({ page, baseURL }) => {
  const f = await memberFee(baseURL!, 'Cancelled link', 40_000, true);
  const link = await call<{ data: { orderCode: number } }>(baseURL!, f.member, 'POST', '/payment/create-payment-link', {
    assignmentId: f.assignmentId,
  });
  await call(baseURL!, f.member, 'POST', `/payment/cancel/${link.data.orderCode}`, {});
  await english(page);
  await signIn(page, MEMBER, `/payment-result/${link.data.orderCode}`);
  await expect(page.getByTestId('payment-status')).toHaveAttribute('data-status', 'CANCELLED');
  await expect(page.getByRole('button', { name: 'Print receipt' })).toHaveCount(0);
  await expect(page.getByTestId('receipt')).toHaveCount(0);
});

test('the sandbox checkout refuses to pay for anyone but the signed-in owner', async ({ page, browser, baseURL }) => {
  const f = await memberFee(baseURL!, 'Quỹ sandbox', 30_000, true);
  const link = await call<{ data: { orderCode: number; checkoutUrl: string } }>(
    baseURL!,
    f.member,
    'POST',
    '/payment/create-payment-link',
    { assignmentId: f.assignmentId },
  );
  // Nobody signed in (a LAN visitor with the link).
  const stranger = await browser.newContext();
  const anonymous = await stranger.newPage();
  await anonymous.goto(link.data.checkoutUrl);
  await anonymous.getByRole('button', { name: 'Thanh toán', exact: true }).click();
  await expect(anonymous.getByRole('alert')).toContainText('Hãy đăng nhập bằng tài khoản được giao khoản phí này để thanh toán.');
  await expect(anonymous.getByRole('link', { name: 'Đăng nhập cổng thành viên' })).toBeVisible();
  await stranger.close();
  // Another signed-in account, an officer of the unit.
  await signIn(page, FACULTY_ADMIN, '/payment/my-campaigns');
  await page.goto(link.data.checkoutUrl);
  await page.getByRole('button', { name: 'Thanh toán', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(
    'Chỉ thành viên được giao khoản phí này, đã đăng nhập, mới thanh toán hoặc hủy được đơn này',
  );
  await page.getByRole('button', { name: 'Hủy', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Chỉ thành viên được giao khoản phí này');
  await expect(page).toHaveURL(/\/sandbox\/payos\/checkout\//);
  const status = await call<{ data: { status: string; receivedAmount: number } }>(
    baseURL!,
    f.member,
    'GET',
    `/payment/check-status/${link.data.orderCode}`,
  );
  expect(status.data).toMatchObject({ status: 'PENDING', receivedAmount: 0 });
});
