/**
 * Issue 26 item 9, as a treasurer reads the campaign screens (text, not test ids; vi and en):
 * test money told apart from payments, no countdown on a cancelled campaign, an empty end time
 * meaning 23:59 and "end before start" on the field, the fee level's note, the payOS webhook
 * warning before saving, and the outbox saying why a kept e-mail cannot be sent yet.
 */
import { expect, test, type Page } from '../helpers/test';
import { ADMIN, MEMBER } from '../helpers/accounts';
import { call, feeCampaign } from '../helpers/fees';
import { apiLogin, navigate, signIn } from '../helpers/session';

async function openCampaign(page: Page, id: number, tab: string) {
  await navigate(page, `/admin/payment-campaigns/${id}`);
  await page.getByRole('tab', { name: tab }).click();
}

/** The demo member pays their fee in the embedded sandbox, as its checkout button would. */
async function sandboxPay(baseURL: string, assignmentId: number) {
  const token = await apiLogin(baseURL, MEMBER);
  const link = await call<{ data: { checkoutUrl: string } }>(baseURL, token, 'POST', '/payment/create-payment-link', { assignmentId });
  const id = link.data.checkoutUrl.split('/checkout/')[1]!.split(/[?#]/)[0]!;
  const res = await fetch(`${baseURL}/sandbox/payos/checkout/${id}/pay`, {
    method: 'POST',
    redirect: 'manual',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  expect(res.status).toBeLessThan(400);
}

test('test money is counted as a test, not as a payment, beside "collected" (vi, en)', async ({ page, baseURL }) => {
  const fee = await feeCampaign(baseURL!, `Thử tiền ${Date.now()}`, 100_000, 1);
  await sandboxPay(baseURL!, fee.assignments[0]!);
  await expect
    .poll(
      async () =>
        (
          await call<{ paidCount: number; testPaidCount: number }>(
            baseURL!,
            fee.token,
            'GET',
            `/payment-campaigns/${fee.campaignId}/statistics`,
          )
        ).testPaidCount,
      { timeout: 15_000 },
    )
    .toBe(1);
  await signIn(page, ADMIN, '/admin/payment-campaigns');
  await openCampaign(page, fee.campaignId, 'Thống kê');
  const stats = page.getByTestId('campaign-statistics');
  await expect(stats).toContainText('Thanh toán thử (không tính là đã thu): 1');
  await expect(stats).toContainText('Đã thanh toán: 0');
  await expect(stats).toContainText('Chờ thanh toán: 1');
  await page.getByRole('tab', { name: 'Phân công thành viên' }).click();
  await expect(page.getByTestId('assignment-tiles')).toContainText('Thanh toán thử (không tính)');

  await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
  await page.reload();
  await page.getByRole('tab', { name: 'Statistics' }).click();
  await expect(page.getByTestId('campaign-statistics')).toContainText('Test payments (not counted as collected): 1');
  await expect(page.getByTestId('campaign-statistics')).toContainText('Paid: 0');
  // The export dialog names its fields in English too (the xlsx keeps its Vietnamese headers for re-import).
  await page.getByRole('tab', { name: 'Member assignments' }).click();
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const exportDialog = page.getByTestId('export-dialog');
  await expect(exportDialog).toContainText('Money received (VND)');
  await expect(exportDialog).not.toContainText('Tiền đã nhận');
});

test('a cancelled campaign shows no countdown (vi, en)', async ({ page, baseURL }) => {
  const fee = await feeCampaign(baseURL!, `Hủy ${Date.now()}`, 70_000, 0);
  await call(baseURL!, fee.token, 'POST', `/payment-campaigns/${fee.campaignId}/cancel`, {});
  await signIn(page, ADMIN, '/admin/payment-campaigns');
  await openCampaign(page, fee.campaignId, 'Thống kê');
  const banner = page.getByTestId('campaign-statistics').getByRole('alert').first();
  await expect(banner).toContainText('Đợt thu đã hủy: không nhận thanh toán nữa');
  await expect(banner).not.toContainText('còn');
  await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
  await page.reload();
  await page.getByRole('tab', { name: 'Statistics' }).click();
  await expect(page.getByTestId('campaign-statistics').getByRole('alert').first()).toContainText(
    'The campaign was cancelled: no more payments are taken',
  );
});

test('the campaign form: an empty end time is 23:59, an end before the start is said on the field', async ({ page }) => {
  await signIn(page, ADMIN, '/admin/payment-campaigns');
  await page.getByTestId('campaign-add').click();
  const form = page.getByTestId('campaign-create-form');
  await form.getByLabel('Tổ chức').click();
  await page.keyboard.type('DCS-CNTT');
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: 'DCS-CNTT' }).first().click();
  const name = `Giờ kết thúc ${Date.now()}`;
  await form.getByLabel('Tên đợt thu').fill(name);
  await form.getByLabel('Ngày bắt đầu').fill('10/12/2030');
  await form.getByLabel('Ngày bắt đầu').press('Enter');
  await form.getByLabel('Ngày kết thúc').fill('09/12/2030');
  await form.getByLabel('Ngày kết thúc').press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Lưu' }).click();
  await expect(form).toContainText('Thời gian kết thúc phải sau thời gian bắt đầu');
  await expect(page.getByRole('dialog')).toBeVisible();

  await form.getByLabel('Ngày kết thúc').fill('20/12/2030');
  await form.getByLabel('Ngày kết thúc').press('Enter');
  // The user clears the end time: it means the end of that day, as the hint says.
  await expect(form).toContainText('Để trống là 23:59');
  const endTime = form.locator('.ant-picker').filter({ has: page.getByLabel('Giờ kết thúc') });
  await endTime.hover();
  await endTime.locator('.ant-picker-clear').click();
  await expect(form.getByLabel('Giờ kết thúc')).toHaveValue('');
  await page.getByRole('dialog').getByRole('button', { name: 'Lưu' }).click();
  await expect(page.getByTestId('campaign-page')).toContainText(name, { timeout: 30_000 });
  await expect(page.getByTestId('campaign-page')).toContainText('23:59 20/12/2030');
});

test('fee level note, the payOS webhook warning and a kept e-mail in the outbox (vi, en)', async ({ page, baseURL }) => {
  const token = await apiLogin(baseURL!, ADMIN);
  const org = (
    await call<{ data: { id: number; code: string }[] }>(baseURL!, token, 'GET', '/payment-campaigns/accessible-organizations')
  ).data.find((o) => o.code === 'DCS-CNTT')!;
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  const draft = await call<{ id: number }>(baseURL!, token, 'POST', '/payment-campaigns', {
    organizationId: org.id,
    name: `Ghi chú ${Date.now()}`,
    startDate: `${day(-1)}T00:00:00`,
    endDate: `${day(30)}T23:59:00`,
  });
  await signIn(page, ADMIN, '/admin/payment-campaigns');
  await openCampaign(page, draft.id, 'Mức phí');
  await page.getByRole('button', { name: 'Thêm mức phí' }).click();
  const levelForm = page.getByTestId('fee-level-create-form');
  await levelForm.getByLabel('Tên mức phí').fill('Sinh viên năm nhất');
  await levelForm.getByLabel('Số tiền (VND)').fill('50000');
  await levelForm.getByLabel('Ghi chú nội bộ').fill('Thu qua lớp trưởng');
  await page.getByRole('dialog').getByRole('button', { name: 'Lưu' }).click();
  await expect(page.getByTestId('fee-levels')).toContainText('Ghi chú nội bộ: Thu qua lớp trưởng');

  await page.getByRole('tab', { name: 'Cấu hình PayOS' }).click();
  const payos = page.getByTestId('payos-config');
  await expect(payos).toContainText('Lưu cấu hình sẽ đăng ký webhook của kênh thanh toán này tại PayOS');
  await payos.getByLabel('Client ID').fill(`shared-${Date.now()}`);
  await payos.getByLabel('API Key').fill('shared-api-key-1234');
  await payos.getByLabel('Checksum Key').fill('shared-checksum-5678');
  await payos.getByRole('button', { name: 'Lưu' }).click();
  const ask = page.getByRole('dialog').filter({ hasText: 'Đăng ký webhook tại PayOS?' });
  await expect(ask).toContainText('hệ thống đó sẽ không nhận thông báo thanh toán nữa');
  await ask.getByRole('button', { name: 'Hủy' }).click();
  await expect(payos.getByLabel('API Key')).toHaveValue('shared-api-key-1234');
  await payos.getByRole('button', { name: 'Lưu' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Lưu và đăng ký webhook' }).click();
  await expect(payos.getByLabel('API Key')).toHaveValue(/^•+1234$/);

  // The demo runs without SMTP: a reminder is kept, and the outbox says why it cannot be sent yet.
  const fee = await feeCampaign(baseURL!, `Hộp thư ${Date.now()}`, 40_000, 0);
  await call(baseURL!, fee.token, 'POST', `/payment-campaigns/${fee.campaignId}/reminders`, {});
  await navigate(page, '/email-outbox');
  const row = page.getByTestId('outbox-table').locator('tbody tr.ant-table-row').filter({ hasText: 'Hộp thư' }).first();
  await expect(row).toContainText('Chưa cấu hình SMTP: thư được giữ ở đây, chưa gửi lại được');
  await page.evaluate(() => localStorage.setItem('i18nextLng', 'en'));
  await page.reload();
  await expect(page.getByTestId('outbox-table').locator('tbody tr.ant-table-row').filter({ hasText: 'Hộp thư' }).first()).toContainText(
    'No SMTP server is set: kept here, cannot be sent yet',
  );
});
