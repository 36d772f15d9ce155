/**
 * POST /api/payment/webhook/payos (no sign-in: payOS calls it). The signature is checked with the
 * checksum key the order's link was made under (older orders: their campaign's); a bad signature
 * or a link that does not match the order is refused (400) and recorded in the audit log, and nothing changes. A correctly signed payment is
 * always recorded with its real amount, on any order state (another amount, a second transfer, a
 * payment after a cancel): settle.ts flags what needs the treasurer. The same bank transaction
 * twice changes nothing the second time (its reference).
 */
import type { PayosWebhook } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import type { Deps } from '../lib/context';
import { audit } from '../audit/writer';
import { SharedWindowCounter } from '../lib/fixed-window';
import { sandboxSettlesFees } from '../payos/origin';
import { decryptSecret } from '../payos/crypto';
import { verifyDataSignature } from '../payos/signature';
import { campaignCredentials } from './credentials';
import { paymentOrders, paymentTransactions } from '../db/tables/payments';
import { closeLinksAfterMoney } from './links';
import { settleOrder } from './settle';
import { firstRow } from '../db/engine';

export interface WebhookOutcome {
  status: 200 | 400 | 429;
  body: { success: boolean; message: string };
}

/**
 * Refused webhooks per sender IP: each is audited, so a flood of forged ones would fill the audit
 * log. Past the limit they are still refused, without an audit row (one row says the flood began),
 * and answered 429. Correctly signed webhooks are never throttled: the signature is checked first.
 */
export const WEBHOOK_REJECTIONS_PER_WINDOW = 20;
const WINDOW_MS = 10 * 60_000;
/** Counted in the database, so a flood spread over the API's processes is one count (issue 28). */
const rejections = new WeakMap<Deps['db'], SharedWindowCounter>();

const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));

export async function handlePayosWebhook({ db, env }: Deps, body: PayosWebhook, ip: string | null): Promise<WebhookOutcome> {
  const data = body.data;
  const orderCode = Number(data.orderCode);
  const order = Number.isSafeInteger(orderCode)
    ? await firstRow(db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, orderCode)))
    : undefined;

  const reject = async (reason: string, message: string): Promise<WebhookOutcome> => {
    let counter = rejections.get(db);
    if (!counter) rejections.set(db, (counter = new SharedWindowCounter(db, 'webhook', WINDOW_MS)));
    const n = await counter.hit(ip ?? 'unknown');
    if (n > WEBHOOK_REJECTIONS_PER_WINDOW) {
      if (n === WEBHOOK_REJECTIONS_PER_WINDOW + 1) {
        await audit(db, {
          actorId: null,
          ip,
          action: 'payment.webhook_throttled',
          entity: 'payment_order',
          entityId: null,
          after: { limit: WEBHOOK_REJECTIONS_PER_WINDOW, windowMinutes: WINDOW_MS / 60_000 },
        });
      }
      return { status: 429, body: { success: false, message: 'Quá nhiều webhook không hợp lệ từ địa chỉ này, hãy thử lại sau' } };
    }
    await audit(db, {
      actorId: null,
      ip,
      action: 'payment.webhook_rejected',
      entity: 'payment_order',
      entityId: order?.id ?? null,
      after: {
        reason,
        orderCode: str(data.orderCode),
        amount: data.amount ?? null,
        reference: str(data.reference),
        paymentLinkId: str(data.paymentLinkId),
      },
    });
    return { status: 400, body: { success: false, message } };
  };

  // payOS's "confirm webhook" test and events of other systems sharing the channel name no order of ours.
  if (!order) return { status: 200, body: { success: true, message: 'Bỏ qua: không có đơn thanh toán tương ứng' } };

  // The key the order's link was made under, whatever happened to the configuration since (issue 25, 3b).
  const checksumKey = order.payosChecksumKeyEnc
    ? decryptSecret(order.payosChecksumKeyEnc, env.appSecret)
    : (await campaignCredentials(db, env, order.campaignId))?.checksumKey;
  if (!checksumKey) return reject('no_config', 'Đợt thu không có cấu hình PayOS để xác thực webhook');
  if (!verifyDataSignature(data, body.signature, checksumKey)) return reject('invalid_signature', 'Chữ ký webhook không hợp lệ');

  const code = str(data.code) ?? body.code;
  if (code !== '00') return { status: 200, body: { success: true, message: 'Bỏ qua: giao dịch không thành công' } };
  const amount = Number(data.amount);
  if (!Number.isSafeInteger(amount) || amount <= 0) return reject('invalid_amount', `Số tiền không hợp lệ (${data.amount})`);
  if (order.paymentLinkId && str(data.paymentLinkId) && data.paymentLinkId !== order.paymentLinkId) {
    return reject('payment_link_mismatch', 'Mã link thanh toán không khớp với đơn thanh toán');
  }

  const reference = str(data.reference) ?? `PAYOS-${order.orderCode}`;
  const seen = await firstRow(
    db.select({ id: paymentTransactions.id }).from(paymentTransactions).where(eq(paymentTransactions.reference, reference)),
  );
  if (seen) return { status: 200, body: { success: true, message: 'Giao dịch đã được ghi nhận trước đó' } };

  const settled = await settleOrder(
    db,
    order.id,
    [
      {
        reference,
        amount,
        accountNumber: str(data.accountNumber),
        description: str(data.description),
        transactionDateTime: str(data.transactionDateTime),
        counterAccountName: str(data.counterAccountName),
      },
    ],
    { actorId: null, ip, action: 'payment.webhook' },
    sandboxSettlesFees(env),
  );
  // The balance changed: the fee's other links (and this one, if underpaid) close, after payOS has its answer.
  if (settled) void closeLinksAfterMoney({ db, env }, order.id);
  return { status: 200, body: { success: true, message: 'Đã ghi nhận thanh toán' } };
}
