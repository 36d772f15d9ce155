/**
 * A stand-in payOS for tests: a real HTTP server speaking payOS's v2 merchant API (x-client-id /
 * x-api-key headers, signed payment requests, `{code, desc, data, signature}` answers signed with
 * HMAC-SHA256 over the sorted data) with a configurable latency, so races that only open while
 * payOS is slow can be fired at the app through PAYOS_BASE_URL. Unlike the embedded sandbox it
 * shares nothing with the app: its merchants, links and money live here. `pay()` moves money on a
 * link and returns the signed webhook payOS would send (post it to the app, or let it deliver).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PayosCredentials, PayosLinkStatus } from '../payos/client';
import { dataSignature, verifyPaymentRequestSignature } from '../payos/signature';
import { linkInfo } from './state';

interface Link {
  id: string;
  clientId: string;
  checksumKey: string;
  orderCode: number;
  amount: number;
  description: string;
  status: PayosLinkStatus;
  createdAt: string;
  canceledAt: string | null;
  cancellationReason: string | null;
  transactions: { reference: string; amount: number; accountNumber: string; description: string; transactionDateTime: string }[];
}

export interface StandIn {
  url: string;
  /** Delay before every answer, in ms (payOS is ~150 ms away in production). */
  latencyMs: number;
  /** Requests received, in order: "METHOD path". */
  calls: string[];
  addMerchant(creds: PayosCredentials): void;
  /** payOS no longer answers for this merchant (every call refused): a cancel it cannot confirm. */
  removeMerchant(clientId: string): void;
  link(orderCode: number): Link | undefined;
  /** Money on a link (the whole remaining amount unless given); the signed webhook payOS sends for it. */
  pay(
    orderCode: number,
    amount?: number,
  ): { code: string; desc: string; success: boolean; data: Record<string, unknown>; signature: string };
  close(): Promise<void>;
}

let seq = 0;

export async function startStandIn(opts: { latencyMs?: number } = {}): Promise<StandIn> {
  const merchants = new Map<string, { apiKey: string; checksumKey: string }>();
  const links = new Map<string, Link>();
  const find = (id: string, clientId: string) => {
    const l = links.get(id) ?? [...links.values()].find((x) => String(x.orderCode) === id);
    return l && l.clientId === clientId ? l : undefined;
  };
  const signed = (data: Record<string, unknown>, key: string) => ({
    code: '00',
    desc: 'success',
    data,
    signature: dataSignature(data, key),
  });
  const fail = (code: string, desc: string) => ({ code, desc, data: null });

  async function handle(req: IncomingMessage): Promise<[number, unknown]> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const path = (req.url ?? '').split('?')[0]!;
    const clientId = String(req.headers['x-client-id'] ?? '');
    const m = merchants.get(clientId);
    if (!m || m.apiKey !== req.headers['x-api-key']) return [200, fail('201', 'Client Id hoặc Api Key không hợp lệ')];

    if (req.method === 'POST' && path === '/v2/payment-requests') {
      const f = {
        orderCode: body.orderCode as number,
        amount: body.amount as number,
        description: body.description as string,
        returnUrl: body.returnUrl as string,
        cancelUrl: body.cancelUrl as string,
      };
      if (!verifyPaymentRequestSignature(f, String(body.signature ?? ''), m.checksumKey))
        return [200, fail('20', 'Mã kiểm tra (signature) không hợp lệ')];
      if ([...links.values()].some((l) => l.orderCode === f.orderCode && l.clientId === clientId))
        return [200, fail('231', 'Đơn thanh toán đã tồn tại')];
      const l: Link = {
        id: `standin${++seq}${Date.now().toString(36)}`,
        clientId,
        checksumKey: m.checksumKey,
        orderCode: f.orderCode,
        amount: f.amount,
        description: f.description,
        status: 'PENDING',
        createdAt: new Date().toISOString(),
        canceledAt: null,
        cancellationReason: null,
        transactions: [],
      };
      links.set(l.id, l);
      const data = {
        bin: '970422',
        accountNumber: '0001',
        accountName: 'STAND IN',
        amount: l.amount,
        description: l.description,
        orderCode: l.orderCode,
        currency: 'VND',
        paymentLinkId: l.id,
        status: l.status,
        checkoutUrl: `https://pay.stand-in/web/${l.id}`,
        qrCode: `QR${l.id}`,
        expiredAt: (body.expiredAt as number) ?? null,
      };
      return [200, signed(data, m.checksumKey)];
    }
    const match = /^\/v2\/payment-requests\/([^/]+)(\/cancel)?$/.exec(path);
    if (match) {
      const l = find(decodeURIComponent(match[1]!), clientId);
      if (!l) return [200, fail('101', 'Không tìm thấy thông tin thanh toán')];
      if (req.method === 'POST' && match[2]) {
        if (l.status !== 'PENDING' && l.status !== 'UNDERPAID')
          return [200, fail('101', `Đơn thanh toán không thể hủy (trạng thái ${l.status})`)];
        Object.assign(l, {
          status: 'CANCELLED',
          canceledAt: new Date().toISOString(),
          cancellationReason: typeof body.cancellationReason === 'string' ? body.cancellationReason : null,
        });
      }
      return [200, signed(linkInfo(l), l.checksumKey)];
    }
    if (req.method === 'POST' && path === '/confirm-webhook')
      return [
        200,
        {
          code: '00',
          desc: 'success',
          data: { webhookUrl: body.webhookUrl, accountName: 'STAND IN', accountNumber: '0001', name: 'Stand-in', shortName: 'STANDIN' },
        },
      ];
    return [404, fail('404', 'Not found')];
  }

  const s: StandIn = {
    url: '',
    latencyMs: opts.latencyMs ?? 0,
    calls: [],
    addMerchant(c) {
      merchants.set(c.clientId, { apiKey: c.apiKey, checksumKey: c.checksumKey });
    },
    removeMerchant: (clientId) => void merchants.delete(clientId),
    link: (orderCode) => [...links.values()].find((l) => l.orderCode === orderCode),
    pay(orderCode, amount) {
      const l = s.link(orderCode);
      if (!l) throw new Error(`stand-in payOS: no link ${orderCode}`);
      const due = Math.max(0, l.amount - l.transactions.reduce((n, t) => n + t.amount, 0));
      const money = amount ?? (due || l.amount);
      const reference = `FT${orderCode}${++seq}`;
      const when = new Date().toISOString().slice(0, 19).replace('T', ' ');
      l.transactions.push({ reference, amount: money, accountNumber: '0001', description: l.description, transactionDateTime: when });
      if (l.status === 'PENDING' || l.status === 'UNDERPAID') l.status = money >= due ? 'PAID' : 'UNDERPAID';
      const data = {
        orderCode,
        amount: money,
        description: l.description,
        accountNumber: '0001',
        reference,
        transactionDateTime: when,
        currency: 'VND',
        paymentLinkId: l.id,
        code: '00',
        desc: 'success',
      };
      return { code: '00', desc: 'success', success: true, data, signature: dataSignature(data, l.checksumKey) };
    },
    close: () =>
      new Promise((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    s.calls.push(`${req.method} ${req.url}`);
    void (async () => {
      if (s.latencyMs > 0) await new Promise((r) => setTimeout(r, s.latencyMs));
      const [status, out] = await handle(req).catch((e: Error) => [500, fail('500', e.message)] as [number, unknown]);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return s;
}
