/**
 * What the sandbox remembers: payment links in memory (per database, so test apps never meet),
 * rebuilt from payment_orders when the process restarted since a link was made.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { eq, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { decryptSecret } from '../payos/crypto';
import { orderDescription } from '../payos/description';
import type { PayosLinkStatus, PayosTransaction } from '../payos/client';
import { paymentOrders, paymentTransactions, payosConfigs } from '../db/tables/payments';

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

const stores = new WeakMap<Db, Map<string, SandboxLink>>();

function store(db: Db): Map<string, SandboxLink> {
  let s = stores.get(db);
  if (!s) stores.set(db, (s = new Map()));
  return s;
}

export const newLinkId = () => randomBytes(16).toString('hex');
export const newReference = () => `SBX${Date.now()}${randomInt(1000, 9999)}`;

export interface MerchantKey {
  checksumKey: string;
  /** The transfer note limit of the merchant's bank account: 9 unless linked through payOS (up to 25). */
  descriptionMaxLength: number;
}

/** Which stored configs these credentials open: payOS knows its merchants' keys, the sandbox reads ours. */
export function merchantKeys(db: Db, env: Env, clientId: string | undefined, apiKey: string | undefined): MerchantKey[] {
  if (!clientId || !apiKey) return [];
  const keys = new Map<string, MerchantKey>();
  for (const r of db.select().from(payosConfigs).where(eq(payosConfigs.clientId, clientId)).all()) {
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

export function saveLink(db: Db, link: SandboxLink): void {
  store(db).set(link.id, link);
}

/** By payment link id or order code (of this client when one is given), expired if its time has passed. */
export function findLink(db: Db, env: Env, id: string, origin: string, clientId?: string): SandboxLink | null {
  const link = lookup(db, env, id, origin, clientId);
  if (link?.status === 'PENDING' && link.expiredAt !== null && Date.now() / 1000 >= link.expiredAt) link.status = 'EXPIRED';
  return link;
}

function lookup(db: Db, env: Env, id: string, origin: string, clientId?: string): SandboxLink | null {
  const s = store(db);
  const direct = s.get(id);
  if (direct && (!clientId || direct.clientId === clientId)) return direct;
  const code = /^\d+$/.test(id) ? Number(id) : null;
  for (const l of s.values()) if (l.orderCode === code && (!clientId || l.clientId === clientId)) return l;
  return rebuild(db, env, id, code, origin, clientId);
}

function rebuild(db: Db, env: Env, id: string, code: number | null, origin: string, clientId?: string): SandboxLink | null {
  const order = db
    .select()
    .from(paymentOrders)
    .where(code == null ? eq(paymentOrders.paymentLinkId, id) : or(eq(paymentOrders.paymentLinkId, id), eq(paymentOrders.orderCode, code)))
    .get();
  if (!order?.paymentLinkId || order.paymentMethod !== 'ONLINE') return null;
  const cfg = db.select().from(payosConfigs).where(eq(payosConfigs.campaignId, order.campaignId)).get();
  if (!cfg || (clientId && cfg.clientId !== clientId)) return null;
  const status: PayosLinkStatus = order.status;
  // The money already recorded is the link's too, so a rebuilt link reports it (UNDERPAID included).
  const transactions: PayosTransaction[] = db
    .select()
    .from(paymentTransactions)
    .where(eq(paymentTransactions.orderId, order.id))
    .all()
    .map((t) => ({
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
  saveLink(db, link);
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

/** Forget every link of this database, as a restart would (tests of the rebuild path). */
export function forgetLinks(db: Db): void {
  stores.delete(db);
}
