/**
 * A local payOS stand-in, mounted at /sandbox/payos when PAYOS_BASE_URL is 'sandbox' (or unset):
 * the v2 payment-request endpoints and confirm-webhook, with payOS's header and signature checks,
 * its description limit and signed answers (issue 11.7, 11.11). The checkout page's buttons move
 * "money" (full, less, again after paid or closed); the signed webhook follows the redirect after
 * a delay, over HTTP to this server's own address, as payOS does. Its orders are test orders.
 * Only the order's owner, signed in, may pay or cancel on the checkout page (payer.ts).
 */
import { Hono, type Context } from 'hono';
import { signedEnvelope } from '../payos/client';
import { publicOrigin, selfOrigin } from '../payos/origin';
import { dataSignature, verifyPaymentRequestSignature } from '../payos/signature';
import type { AppEnv } from '../lib/context';
import { CHECKOUT_CSS, checkoutPage } from './checkout-page';
import { findLink, linkInfo, merchantKeys, newLinkId, newReference, SANDBOX_BANK, saveLink, vnDateTime, type SandboxLink } from './state';
import { logger } from '../lib/logger';
import { requireAuth } from '../access/middleware';
import { CHECKOUT_JS, ownOrder } from './payer';

const err = (c: Context<AppEnv>, status: 200 | 400 | 401 | 404, code: string, desc: string) => c.json({ code, desc, data: null }, status);
/** payOS refuses unknown credentials with HTTP 200 and a non-"00" code; missing headers with 401. */
const badCredentials = (c: Context<AppEnv>) =>
  !c.req.header('x-client-id') || !c.req.header('x-api-key')
    ? err(c, 401, '401', 'Thiếu thông tin xác thực (x-client-id / x-api-key)')
    : err(c, 200, '201', 'Client Id hoặc Api Key không hợp lệ');

const browserBase = (c: Context<AppEnv>) => `${publicOrigin(c.get('deps').env)}/sandbox/payos`;

/** The sandbox answers only callers presenting credentials of a stored payOS config. */
async function merchant(c: Context<AppEnv>) {
  const { db, env } = c.get('deps');
  const clientId = c.req.header('x-client-id');
  return { clientId, keys: await merchantKeys(db, env, clientId, c.req.header('x-api-key')) };
}

function withQuery(url: string, q: Record<string, string | number>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(q)) u.searchParams.set(k, String(v));
  return u.toString();
}

/** Signed webhook to this server's own address (never a URL from the request). */
async function deliver(origin: string, body: unknown): Promise<Response | null> {
  const send = () =>
    fetch(`${origin}/api/payment/webhook/payos`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  try {
    // A kept-alive socket closed by the other end: the request never arrived, once more is safe.
    return await send().catch((e: { cause?: { code?: string } }) => {
      if (e?.cause?.code !== 'ECONNRESET' && e?.cause?.code !== 'UND_ERR_SOCKET') throw e;
      return send();
    });
  } catch (e) {
    logger.warn({ error: (e as Error).message }, 'payOS sandbox: webhook delivery failed');
    return null;
  }
}

type PayMode = 'full' | 'under' | 'again';

/** The page's script asks for JSON (it cannot read a redirect's target); a plain form post is redirected. */
const sendBack = (c: Context<AppEnv>, url: string) =>
  (c.req.header('accept') ?? '').includes('application/json') ? c.json({ redirectTo: url }) : c.redirect(url, 303);

/** One bank transfer onto the link: the link's state moves now, the webhook follows later. */
async function transfer(c: Context<AppEnv>, link: SandboxLink, mode: PayMode) {
  const paid = link.transactions.reduce((n, t) => n + t.amount, 0);
  const due = Math.max(0, link.amount - paid);
  const amount = mode === 'under' ? Math.max(1, Math.floor(due / 2)) : mode === 'again' ? link.amount : due;
  const tx = {
    reference: newReference(),
    amount,
    accountNumber: SANDBOX_BANK.accountNumber,
    description: `${link.id.slice(0, 8).toUpperCase()} ${link.description}`,
    transactionDateTime: vnDateTime(),
    virtualAccountName: '',
    virtualAccountNumber: '',
    counterAccountBankId: '',
    counterAccountBankName: SANDBOX_BANK.bankName,
    counterAccountName: (link.buyerName ?? 'Nguoi thanh toan')
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/đ/gi, 'D')
      .toUpperCase(),
    counterAccountNumber: '0000000000',
  };
  link.transactions.push(tx);
  if (link.status === 'PENDING' || link.status === 'UNDERPAID') link.status = paid + amount >= link.amount ? 'PAID' : 'UNDERPAID';
  await saveLink(c.get('deps').db, c.get('deps').env, link);
  const data = { orderCode: link.orderCode, currency: 'VND', paymentLinkId: link.id, code: '00', desc: 'success', ...tx };
  const body = { code: '00', desc: 'success', success: true, data, signature: dataSignature(data, link.checksumKey) };
  const target = selfOrigin(c.get('deps').env);
  // payOS notifies after the buyer is sent back, not before: the result page must not rely on the webhook.
  setTimeout(() => {
    void deliver(target, body).then(async (res) => {
      if (res && !res.ok) logger.warn({ status: res.status, body: (await res.text()).slice(0, 500) }, 'payOS sandbox: webhook refused');
    });
  }, c.get('deps').env.PAYOS_SANDBOX_WEBHOOK_DELAY_MS);
}

export function payosSandboxRoutes() {
  return (
    new Hono<AppEnv>()
      .post('/v2/payment-requests', async (c) => {
        const m = await merchant(c);
        if (m.keys.length === 0) return badCredentials(c);
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
        if (typeof f.returnUrl !== 'string' || typeof f.cancelUrl !== 'string') return err(c, 400, '20', 'Thiếu returnUrl hoặc cancelUrl');
        const key = m.keys.find((k) => verifyPaymentRequestSignature(f, String(b!.signature ?? ''), k.checksumKey));
        if (!key) return err(c, 400, '20', 'Chữ ký không hợp lệ');
        // payOS: 25 characters, 9 for bank accounts not linked through payOS.
        if (typeof f.description !== 'string' || !f.description || f.description.length > key.descriptionMaxLength) {
          return err(c, 400, '20', `Mô tả tối đa ${key.descriptionMaxLength} kí tự`);
        }
        const { db, env } = c.get('deps');
        if (await findLink(db, env, String(f.orderCode), publicOrigin(env), m.clientId))
          return err(c, 400, '231', 'Đơn thanh toán đã tồn tại');
        const link: SandboxLink = {
          id: newLinkId(),
          clientId: m.clientId!,
          checksumKey: key.checksumKey,
          ...f,
          buyerName: typeof b!.buyerName === 'string' ? b!.buyerName : null,
          expiredAt: Number.isSafeInteger(b!.expiredAt) ? (b!.expiredAt as number) : null,
          status: 'PENDING',
          createdAt: new Date().toISOString(),
          canceledAt: null,
          cancellationReason: null,
          transactions: [],
        };
        await saveLink(db, env, link);
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
          checkoutUrl: `${browserBase(c)}/checkout/${link.id}`,
          // Not a scannable VietQR: the sandbox has no bank behind it.
          qrCode: `SANDBOX|${SANDBOX_BANK.bin}|${SANDBOX_BANK.accountNumber}|${link.amount}|${link.description}`,
          expiredAt: link.expiredAt,
        };
        return c.json(signedEnvelope(data, key.checksumKey));
      })
      .get('/v2/payment-requests/:id', async (c) => {
        const m = await merchant(c);
        if (m.keys.length === 0) return badCredentials(c);
        const { db, env } = c.get('deps');
        const link = await findLink(db, env, c.req.param('id'), publicOrigin(env), m.clientId);
        if (!link) return err(c, 404, '101', 'Không tìm thấy thông tin thanh toán');
        return c.json(signedEnvelope(linkInfo(link), link.checksumKey));
      })
      .post('/v2/payment-requests/:id/cancel', async (c) => {
        const m = await merchant(c);
        if (m.keys.length === 0) return badCredentials(c);
        const { db, env } = c.get('deps');
        const link = await findLink(db, env, c.req.param('id'), publicOrigin(env), m.clientId);
        if (!link) return err(c, 404, '101', 'Không tìm thấy thông tin thanh toán');
        if (link.status !== 'PENDING') return err(c, 400, '101', `Đơn thanh toán không thể hủy (trạng thái ${link.status})`);
        const b = (await c.req.json().catch(() => null)) as { cancellationReason?: unknown } | null;
        Object.assign(link, {
          status: 'CANCELLED',
          canceledAt: new Date().toISOString(),
          cancellationReason: typeof b?.cancellationReason === 'string' ? b.cancellationReason : null,
        });
        await saveLink(db, env, link);
        return c.json(signedEnvelope(linkInfo(link), link.checksumKey));
      })
      .post('/confirm-webhook', async (c) => {
        const m = await merchant(c);
        if (m.keys.length === 0) return badCredentials(c);
        const b = (await c.req.json().catch(() => null)) as { webhookUrl?: unknown } | null;
        const url = typeof b?.webhookUrl === 'string' ? b.webhookUrl : '';
        const { env } = c.get('deps');
        // The sandbox only knows this server: it calls its own webhook route, like payOS's test call.
        if (url !== `${publicOrigin(env)}/api/payment/webhook/payos`)
          return err(c, 400, '20', 'Webhook URL không hợp lệ (sandbox chỉ gọi được máy chủ này)');
        const data = {
          orderCode: 123,
          amount: 3000,
          description: 'VQRIO123',
          accountNumber: SANDBOX_BANK.accountNumber,
          reference: 'TF230204212323',
          transactionDateTime: vnDateTime(),
          currency: 'VND',
          paymentLinkId: 'confirm-webhook',
          code: '00',
          desc: 'success',
        };
        const res = await deliver(selfOrigin(env), {
          code: '00',
          desc: 'success',
          success: true,
          data,
          signature: dataSignature(data, m.keys[0]!.checksumKey),
        });
        if (!res?.ok)
          return err(c, 400, '20', `Webhook URL không phản hồi thành công (${res ? `HTTP ${res.status}` : 'không kết nối được'})`);
        return c.json({
          code: '00',
          desc: 'success',
          data: {
            webhookUrl: url,
            accountName: SANDBOX_BANK.accountName,
            accountNumber: SANDBOX_BANK.accountNumber,
            name: 'Sandbox',
            shortName: 'SANDBOX',
          },
        });
      })
      .get('/checkout.css', (c) =>
        c.body(CHECKOUT_CSS, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=3600' }),
      )
      .get('/checkout/:id', async (c) => {
        const { db, env } = c.get('deps');
        const link = await findLink(db, env, c.req.param('id'), publicOrigin(env));
        if (!link)
          return c.html(
            '<!doctype html><html lang="vi"><meta charset="utf-8"><title>payOS sandbox</title><p>Không tìm thấy link thanh toán.</p></html>',
            404,
          );
        return c.html(checkoutPage(link, browserBase(c)));
      })
      .get('/checkout.js', (c) =>
        c.body(CHECKOUT_JS, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' }),
      )
      // Money moves only for the order's owner, signed in (the page's script sends the portal's token).
      .post('/checkout/:id/pay', requireAuth, async (c) => {
        const { db, env } = c.get('deps');
        const link = await ownOrder(c, await findLink(db, env, c.req.param('id'), publicOrigin(env)));
        const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
        const mode: PayMode = form.mode === 'under' ? 'under' : form.mode === 'again' ? 'again' : 'full';
        const open = link.status === 'PENDING' || link.status === 'UNDERPAID';
        // A second transfer (after paid, cancelled or expired) is what a bank allows and payOS reports.
        if (open === (mode === 'again')) return sendBack(c, `${browserBase(c)}/checkout/${link.id}`);
        await transfer(c, link, mode);
        return sendBack(
          c,
          withQuery(link.returnUrl, { code: '00', id: link.id, cancel: 'false', status: link.status, orderCode: link.orderCode }),
        );
      })
      .post('/checkout/:id/cancel', requireAuth, async (c) => {
        const { db, env } = c.get('deps');
        const link = await ownOrder(c, await findLink(db, env, c.req.param('id'), publicOrigin(env)));
        if (link.status === 'PENDING') {
          Object.assign(link, {
            status: 'CANCELLED',
            canceledAt: new Date().toISOString(),
            cancellationReason: 'Người mua hủy thanh toán',
          });
          await saveLink(db, env, link);
        }
        return sendBack(
          c,
          withQuery(link.cancelUrl, { code: '00', id: link.id, cancel: 'true', status: 'CANCELLED', orderCode: link.orderCode }),
        );
      })
  );
}
