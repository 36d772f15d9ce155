/**
 * What the sandbox remembers: payment links in the database (payos_sandbox_links), so a link made
 * through one API process is paid or cancelled through another (issue 28), each read fresh; a link
 * made before they were stored is rebuilt from payment_orders.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { eq, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { decryptSecret, encryptSecret } from '../payos/crypto';
import { orderDescription } from '../payos/description';
import type { PayosLinkStatus, PayosTransaction } from '../payos/client';
import { payosSandboxLinks } from '../db/tables/coordination';
import { paymentOrders, paymentTransactions, payosConfigs } from '../db/tables/payments';
import { allRows, firstRow, runQuery } from '../db/engine';

export interface SandboxLink {
  id: string;
  clientId: string;
  checksumKey: string;
  orderCode: number;
  amount: number;
  description: string;
  returnUrl: string;
  cancelUrl: string;
  buyerName: string | null;
  /** Unix seconds after which an unpaid link is EXPIRED, as the merchant asked (null: never). */
  expiredAt: number | null;
  status: PayosLinkStatus;
  createdAt: string;
  canceledAt: string | null;
  cancellationReason: string | null;
  transactions: PayosTransaction[];
}

export const SANDBOX_BANK = {
  bin: '970422',
  accountNumber: '0001234567890',
  accountName: 'DOAN HOI SANDBOX',
  bankName: 'Ngân hàng thử nghiệm (sandbox)',
};

export const newLinkId = () => randomBytes(16).toString('hex');
export const newReference = () => `SBX${Date.now()}${randomInt(1000, 9999)}`;

export interface MerchantKey {
  checksumKey: string;
  /** The transfer note limit of the merchant's bank account: 9 unless linked through payOS (up to 25). */
  descriptionMaxLength: number;
}

/** Which stored configs these credentials open: payOS knows its merchants' keys, the sandbox reads ours. */
export async function merchantKeys(db: Db, env: Env, clientId: string | undefined, apiKey: string | undefined): Promise<MerchantKey[]> {
  if (!clientId || !apiKey) return [];
  const keys = new Map<string, MerchantKey>();
  for (const r of await allRows(db.select().from(payosConfigs).where(eq(payosConfigs.clientId, clientId)))) {
    try {
      if (decryptSecret(r.apiKeyEnc, env.appSecret) !== apiKey) continue;
      const checksumKey = decryptSecret(r.checksumKeyEnc, env.appSecret);
      keys.set(checksumKey, { checksumKey, descriptionMaxLength: r.descriptionMaxLength });
    } catch {
      // Encrypted under another app secret: not a merchant this sandbox can serve.
    }
  }
  return [...keys.values()];
}

/** Stores the link as it is now: call it again after changing the link (a transfer, a cancel). */
export async function saveLink(db: Db, env: Env, link: SandboxLink): Promise<void> {
  const { checksumKey, ...rest } = link;
  const data = JSON.stringify(rest);
  await runQuery(
    db
      .insert(payosSandboxLinks)
      .values({
        id: link.id,
        clientId: link.clientId,
        orderCode: link.orderCode,
        checksumKeyEnc: encryptSecret(checksumKey, env.appSecret),
        data,
      })
      .onConflictDoUpdate({ target: payosSandboxLinks.id, set: { data } }),
  );
}

function fromRow(env: Env, row: typeof payosSandboxLinks.$inferSelect): SandboxLink | null {
  try {
    return { ...(JSON.parse(row.data) as Omit<SandboxLink, 'checksumKey'>), checksumKey: decryptSecret(row.checksumKeyEnc, env.appSecret) };
  } catch {
    // Stored under another app secret: not a link this server can sign for.
    return null;
  }
}

/** By payment link id or order code (of this client when one is given), expired if its time has passed. */
export async function findLink(db: Db, env: Env, id: string, origin: string, clientId?: string): Promise<SandboxLink | null> {
  const link = await lookup(db, env, id, origin, clientId);
  if (link?.status === 'PENDING' && link.expiredAt !== null && Date.now() / 1000 >= link.expiredAt) link.status = 'EXPIRED';
  return link;
}

async function lookup(db: Db, env: Env, id: string, origin: string, clientId?: string): Promise<SandboxLink | null> {
  const direct = await firstRow(db.select().from(payosSandboxLinks).where(eq(payosSandboxLinks.id, id)));
  if (direct && (!clientId || direct.clientId === clientId)) return fromRow(env, direct);
  const code = /^\d+$/.test(id) ? Number(id) : null;
  if (code !== null) {
    const rows = await allRows(db.select().from(payosSandboxLinks).where(eq(payosSandboxLinks.orderCode, code)));
    const row = rows.find((l) => !clientId || l.clientId === clientId);
    if (row) return fromRow(env, row);
  }
  return rebuild(db, env, id, code, origin, clientId);
}

async function rebuild(db: Db, env: Env, id: string, code: number | null, origin: string, clientId?: string): Promise<SandboxLink | null> {
  const order = await firstRow(
    db
      .select()
      .from(paymentOrders)
      .where(
        code == null ? eq(paymentOrders.paymentLinkId, id) : or(eq(paymentOrders.paymentLinkId, id), eq(paymentOrders.orderCode, code)),
      ),
  );
  if (!order?.paymentLinkId || order.paymentMethod !== 'ONLINE') return null;
  const cfg = await firstRow(db.select().from(payosConfigs).where(eq(payosConfigs.campaignId, order.campaignId)));
  if (!cfg || (clientId && cfg.clientId !== clientId)) return null;
  const status: PayosLinkStatus = order.status;
  // The money already recorded is the link's too, so a rebuilt link reports it (UNDERPAID included).
  const transactions: PayosTransaction[] = (
    await allRows(db.select().from(paymentTransactions).where(eq(paymentTransactions.orderId, order.id)))
  ).map((t) => ({
    reference: t.reference,
    amount: t.amount,
    accountNumber: t.accountNumber ?? '',
    description: t.description ?? '',
    transactionDateTime: t.transactionDateTime ?? '',
  }));
  const resultUrl = `${origin}/payment-result/${order.orderCode}`;
  const link: SandboxLink = {
    id: order.paymentLinkId,
    clientId: cfg.clientId,
    checksumKey: decryptSecret(cfg.checksumKeyEnc, env.appSecret),
    orderCode: order.orderCode,
    amount: order.amount,
    description: orderDescription(order.orderCode, order.description, cfg.descriptionMaxLength),
    returnUrl: resultUrl,
    cancelUrl: resultUrl,
    buyerName: null,
    expiredAt: null,
    status,
    createdAt: order.createdAt.toISOString(),
    canceledAt: order.cancelledAt?.toISOString() ?? null,
    cancellationReason: null,
    transactions,
  };
  if (status === 'PAID' && transactions.reduce((n, t) => n + t.amount, 0) < order.amount) link.status = 'UNDERPAID';
  await saveLink(db, env, link);
  return link;
}

/** payOS's payment link information object. */
export function linkInfo(
  l: Pick<SandboxLink, 'id' | 'orderCode' | 'amount' | 'status' | 'createdAt' | 'transactions' | 'cancellationReason' | 'canceledAt'>,
) {
  const paid = l.transactions.reduce((n, t) => n + t.amount, 0);
  return {
    id: l.id,
    orderCode: l.orderCode,
    amount: l.amount,
    amountPaid: paid,
    amountRemaining: Math.max(0, l.amount - paid),
    status: l.status,
    createdAt: l.createdAt,
    transactions: l.transactions,
    cancellationReason: l.cancellationReason,
    canceledAt: l.canceledAt,
  };
}

/** 'YYYY-MM-DD HH:mm:ss' in Vietnam time, as payOS writes transaction times. */
export function vnDateTime(d = new Date()): string {
  return new Date(d.getTime() + 7 * 3600_000).toISOString().replace('T', ' ').slice(0, 19);
}

/** Forget every stored link of this database (tests of the rebuild path for links made before they were stored). */
export async function forgetLinks(db: Db): Promise<void> {
  await runQuery(db.delete(payosSandboxLinks));
}
