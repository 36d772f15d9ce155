/**
 * A local payOS stand-in, mounted at /sandbox/payos when PAYOS_BASE_URL is 'sandbox' (or unset):
 * the v2 payment-request endpoints the app uses, with payOS's header and signature checks and
 * signed answers, and a checkout page whose Pay button sends a signed webhook over HTTP to this
 * server's /api/payment/webhook/payos, then redirects to the returnUrl, as payOS does.
 */
import { Hono, type Context } from 'hono';
import { signedEnvelope } from '../payos/client';
import { dataSignature, verifyPaymentRequestSignature } from '../payos/signature';
import { publicOrigin } from '../payos/origin';
import type { AppEnv } from '../lib/context';
import { checkoutPage } from './checkout-page';
import { findLink, linkInfo, merchantKeys, newLinkId, newReference, SANDBOX_BANK, saveLink, vnDateTime, type SandboxLink } from './state';
import { logger } from '../lib/logger';

const err = (c: Context<AppEnv>, status: 400 | 401 | 404, code: string, desc: string) => c.json({ code, desc, data: null }, status);

function origin(c: Context<AppEnv>) {
  return publicOrigin(c.get('deps').env, c);
}

/** The sandbox answers only callers presenting credentials of a stored payOS config. */
function merchant(c: Context<AppEnv>) {
  const { db, env } = c.get('deps');
  const clientId = c.req.header('x-client-id');
  return { clientId, keys: merchantKeys(db, env, clientId, c.req.header('x-api-key')) };
}

function withQuery(url: string, q: Record<string, string | number>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(q)) u.searchParams.set(k, String(v));
  return u.toString();
}

export function payosSandboxRoutes() {
  return new Hono<AppEnv>()
    .post('/v2/payment-requests', async (c) => {
      const m = merchant(c);
      if (m.keys.length === 0) return err(c, 401, '401', 'Thông tin xác thực không hợp lệ (x-client-id / x-api-key)');
      const b = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
      const f = b && {
        orderCode: b.orderCode as number,
        amount: b.amount as number,
        description: b.description as string,
        returnUrl: b.returnUrl as string,
        cancelUrl: b.cancelUrl as string,
      };
      if (!f || !Number.isSafeInteger(f.orderCode) || f.orderCode <= 0 || !Number.isSafeInteger(f.amount) || f.amount <= 0) {
        return err(c, 400, '20', 'orderCode và amount phải là số nguyên dương');
      }
      if (typeof f.description !== 'string' || !f.description || f.description.length > 25) return err(c, 400, '20', 'Mô tả tối đa 25 kí tự');
      if (typeof f.returnUrl !== 'string' || typeof f.cancelUrl !== 'string') return err(c, 400, '20', 'Thiếu returnUrl hoặc cancelUrl');
      const key = m.keys.find((k) => verifyPaymentRequestSignature(f, String(b!.signature ?? ''), k));
      if (!key) return err(c, 400, '20', 'Chữ ký không hợp lệ');
      const { db, env } = c.get('deps');
      if (findLink(db, env, String(f.orderCode), origin(c), m.clientId)) return err(c, 400, '231', 'Đơn thanh toán đã tồn tại');
      const link: SandboxLink = {
        id: newLinkId(),
        clientId: m.clientId!,
        checksumKey: key,
        ...f,
        buyerName: typeof b!.buyerName === 'string' ? b!.buyerName : null,
        expiredAt: Number.isSafeInteger(b!.expiredAt) ? (b!.expiredAt as number) : null,
        status: 'PENDING',
        createdAt: new Date().toISOString(),
        canceledAt: null,
        cancellationReason: null,
        transactions: [],
      };
      saveLink(db, link);
      const data = {
        bin: SANDBOX_BANK.bin,
        accountNumber: SANDBOX_BANK.accountNumber,
        accountName: SANDBOX_BANK.accountName,
        amount: link.amount,
        description: link.description,
        orderCode: link.orderCode,
        currency: 'VND',
        paymentLinkId: link.id,
        status: link.status,
        checkoutUrl: `${origin(c)}/sandbox/payos/checkout/${link.id}`,
        // Not a scannable VietQR: the sandbox has no bank behind it.
        qrCode: `SANDBOX|${SANDBOX_BANK.bin}|${SANDBOX_BANK.accountNumber}|${link.amount}|${link.description}`,
        expiredAt: link.expiredAt,
      };
      return c.json(signedEnvelope(data, key));
    })
    .get('/v2/payment-requests/:id', (c) => {
      const m = merchant(c);
      if (m.keys.length === 0) return err(c, 401, '401', 'Thông tin xác thực không hợp lệ (x-client-id / x-api-key)');
      const { db, env } = c.get('deps');
      const link = findLink(db, env, c.req.param('id'), origin(c), m.clientId);
      if (!link) return err(c, 404, '101', 'Không tìm thấy thông tin thanh toán');
      return c.json(signedEnvelope(linkInfo(link), link.checksumKey));
    })
    .post('/v2/payment-requests/:id/cancel', async (c) => {
      const m = merchant(c);
      if (m.keys.length === 0) return err(c, 401, '401', 'Thông tin xác thực không hợp lệ (x-client-id / x-api-key)');
      const { db, env } = c.get('deps');
      const link = findLink(db, env, c.req.param('id'), origin(c), m.clientId);
      if (!link) return err(c, 404, '101', 'Không tìm thấy thông tin thanh toán');
      if (link.status !== 'PENDING') return err(c, 400, '101', `Đơn thanh toán không thể hủy (trạng thái ${link.status})`);
      const b = (await c.req.json().catch(() => null)) as { cancellationReason?: unknown } | null;
      Object.assign(link, { status: 'CANCELLED', canceledAt: new Date().toISOString(), cancellationReason: typeof b?.cancellationReason === 'string' ? b.cancellationReason : null });
      return c.json(signedEnvelope(linkInfo(link), link.checksumKey));
    })
    .get('/checkout/:id', (c) => {
      const { db, env } = c.get('deps');
      const link = findLink(db, env, c.req.param('id'), origin(c));
      if (!link) return c.html('<!doctype html><html lang="vi"><meta charset="utf-8"><title>payOS sandbox</title><p>Không tìm thấy link thanh toán.</p></html>', 404);
      return c.html(checkoutPage(link, `${origin(c)}/sandbox/payos`));
    })
    .post('/checkout/:id/pay', async (c) => {
      const { db, env } = c.get('deps');
      const link = findLink(db, env, c.req.param('id'), origin(c));
      if (!link) return c.text('Không tìm thấy link thanh toán', 404);
      if (link.status !== 'PENDING') return c.redirect(`${origin(c)}/sandbox/payos/checkout/${link.id}`, 303);
      const tx = {
        reference: newReference(),
        amount: link.amount,
        accountNumber: SANDBOX_BANK.accountNumber,
        description: `${link.id.slice(0, 8).toUpperCase()} ${link.description}`,
        transactionDateTime: vnDateTime(),
        virtualAccountName: '',
        virtualAccountNumber: '',
        counterAccountBankId: '',
        counterAccountBankName: SANDBOX_BANK.bankName,
        counterAccountName: (link.buyerName ?? 'Nguoi thanh toan').normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/đ/gi, 'D').toUpperCase(),
        counterAccountNumber: '0000000000',
      };
      // The money has moved: the link is paid whatever happens to the notification (check-status will see it).
      link.status = 'PAID';
      link.transactions.push(tx);
      const data = { orderCode: link.orderCode, currency: 'VND', paymentLinkId: link.id, code: '00', desc: 'success', ...tx };
      const body = { code: '00', desc: 'success', success: true, data, signature: dataSignature(data, link.checksumKey) };
      try {
        const res = await fetch(`${origin(c)}/api/payment/webhook/payos`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        });
        if (!res.ok) logger.warn({ status: res.status, body: (await res.text()).slice(0, 500) }, 'payOS sandbox: webhook refused');
      } catch (e) {
        logger.warn({ error: (e as Error).message }, 'payOS sandbox: webhook delivery failed');
      }
      return c.redirect(withQuery(link.returnUrl, { code: '00', id: link.id, cancel: 'false', status: 'PAID', orderCode: link.orderCode }), 303);
    })
    .post('/checkout/:id/cancel', (c) => {
      const { db, env } = c.get('deps');
      const link = findLink(db, env, c.req.param('id'), origin(c));
      if (!link) return c.text('Không tìm thấy link thanh toán', 404);
      if (link.status === 'PENDING') Object.assign(link, { status: 'CANCELLED', canceledAt: new Date().toISOString(), cancellationReason: 'Người mua hủy thanh toán' });
      return c.redirect(withQuery(link.cancelUrl, { code: '00', id: link.id, cancel: 'true', status: 'CANCELLED', orderCode: link.orderCode }), 303);
    });
}
