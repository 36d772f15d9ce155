/**
 * Who may move sandbox "money" (issue 25.2): the owner of the order behind the link, signed in.
 * Sandbox money settles fees on a local or LAN deployment, so an anonymous or foreign click must
 * never pay (or cancel) someone's fee. The checkout page is served from this server's origin, the
 * portal's too, so its script reads the member's session where the portal keeps it and sends the
 * bearer token; without a session it says how to sign in.
 */
import { SESSION_KEYS } from '@doanhoi/shared/client/session';
import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../lib/context';
import { forbidden, notFound } from '../lib/errors';
import { paymentOrders } from '../db/tables/payments';
import type { SandboxLink } from './state';
import { firstRow } from '../db/engine';

export const NOT_YOURS = 'Chỉ thành viên được giao khoản phí này, đã đăng nhập, mới thanh toán hoặc hủy được đơn này';

/** The link when the signed-in caller owns its order; 404 for no link, 403 for anyone else's. */
export async function ownOrder(c: Context<AppEnv>, link: SandboxLink | null): Promise<SandboxLink> {
  if (!link) notFound('Không tìm thấy link thanh toán');
  const order = await firstRow(
    c.get('deps').db.select({ userId: paymentOrders.userId }).from(paymentOrders).where(eq(paymentOrders.orderCode, link!.orderCode)),
  );
  if (!order || order.userId !== c.get('actor').id) forbidden(NOT_YOURS);
  return link!;
}

/**
 * Served as /sandbox/payos/checkout.js (the CSP allows scripts from this origin only, never inline).
 * Each form is sent with the member's bearer token (one refresh on a 401, as the portal's client
 * does); the answer names where to go next. Messages stay on the page, in its language (Vietnamese).
 */
export const CHECKOUT_JS = `(() => {
  const keys = ${JSON.stringify(SESSION_KEYS)};
  const box = document.getElementById('pay-message');
  const say = (text, signIn) => {
    box.textContent = text;
    if (signIn) {
      const a = document.createElement('a');
      a.href = '/payment/login?to=' + encodeURIComponent(location.pathname);
      a.textContent = 'Đăng nhập cổng thành viên';
      box.append(' ', a);
    }
    box.hidden = false;
  };
  const refresh = async () => {
    const token = localStorage.getItem(keys.refresh);
    if (!token) return null;
    const res = await fetch('/api/auth/refresh', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ refreshToken: token }) });
    const body = res.ok ? await res.json().catch(() => null) : null;
    if (!body || !body.accessToken) return null;
    localStorage.setItem(keys.access, body.accessToken);
    localStorage.setItem(keys.refresh, body.refreshToken || token);
    return body.accessToken;
  };
  const send = (form, token) =>
    fetch(form.action, {
      method: 'POST',
      headers: { Accept: 'application/json', Authorization: 'Bearer ' + token },
      body: new URLSearchParams(new FormData(form)),
    });
  for (const form of document.querySelectorAll('form[data-signed]')) {
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const buttons = document.querySelectorAll('button');
      buttons.forEach((b) => (b.disabled = true));
      let leaving = false;
      try {
        let token = localStorage.getItem(keys.access);
        if (!token) return say('Hãy đăng nhập bằng tài khoản được giao khoản phí này để thanh toán.', true);
        let res = await send(form, token);
        if (res.status === 401 && (token = await refresh())) res = await send(form, token);
        const body = await res.json().catch(() => null);
        if (res.ok && body && body.redirectTo) {
          leaving = true;
          return location.assign(body.redirectTo);
        }
        say((body && body.message) || 'Không thực hiện được (HTTP ' + res.status + ').', res.status === 401);
      } catch (err) {
        say('Không kết nối được máy chủ: ' + err.message);
      } finally {
        // A second click while the browser leaves would send a second transfer.
        if (!leaving) buttons.forEach((b) => (b.disabled = false));
      }
    });
  }
  for (const b of document.querySelectorAll('form[data-signed] button')) b.disabled = false;
})();
`;
