/** Test helper: the sandbox checkout's buttons, pressed as the order's owner would (payer.ts). */
import { eq } from 'drizzle-orm';
import { newFamilyId, signAccessToken } from '../access/tokens';
import { paymentOrders } from '../db/tables/payments';
import type { TestApp } from '../test/harness';
import { users } from '../db/tables/users';
import { allRows, firstRow } from '../db/engine';

/** A fresh access token of whoever owns the order behind this sandbox link (id or order code). */
export async function ownerToken(t: TestApp, linkId: string): Promise<string> {
  const code = /^\d+$/.test(linkId) ? Number(linkId) : -1;
  const order = (
    await allRows(
      t.db
        .select({ userId: paymentOrders.userId, linkId: paymentOrders.paymentLinkId, orderCode: paymentOrders.orderCode })
        .from(paymentOrders),
    )
  ).find((o) => o.linkId === linkId || o.orderCode === code);
  if (!order) throw new Error(`no order behind sandbox link ${linkId}`);
  const user = (await firstRow(t.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, order.userId))))!;
  return signAccessToken(t.env.jwtSecret, user, newFamilyId(), 600);
}

/**
 * POST /sandbox/payos/checkout/{link}/{pay|cancel} as a plain form post (303 to the result page).
 * The owner's token unless `token` is given (null: none at all).
 */
export async function pressCheckout(
  t: TestApp,
  baseUrl: string,
  linkId: string,
  { action = 'pay', mode, token }: { action?: 'pay' | 'cancel'; mode?: 'under' | 'again'; token?: string | null } = {},
): Promise<Response> {
  const bearer = token === undefined ? await ownerToken(t, linkId) : token;
  return fetch(`${baseUrl}/sandbox/payos/checkout/${linkId}/${action}`, {
    method: 'POST',
    redirect: 'manual',
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    body: mode ? new URLSearchParams({ mode }) : undefined,
  });
}
