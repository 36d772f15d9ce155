/**
 * A small typed client for the payOS merchant API (v2 payment requests), over fetch. Requests
 * carry x-client-id and x-api-key; payment requests are signed; response `data` signatures are
 * verified with the checksum key, so a tampered or foreign answer is refused.
 */
import { dataSignature, paymentRequestSignature, verifyDataSignature } from './signature';

export type PayosLinkStatus = 'PENDING' | 'CANCELLED' | 'UNDERPAID' | 'PAID' | 'EXPIRED' | 'PROCESSING' | 'FAILED';

export interface PayosCredentials {
  clientId: string;
  apiKey: string;
  checksumKey: string;
}

export interface CreateLinkInput {
  orderCode: number;
  amount: number;
  description: string;
  returnUrl: string;
  cancelUrl: string;
  buyerName?: string;
  buyerEmail?: string;
  expiredAt?: number;
}

export interface CreatedLink {
  bin: string;
  accountNumber: string;
  accountName: string;
  amount: number;
  description: string;
  orderCode: number;
  currency: string;
  paymentLinkId: string;
  status: PayosLinkStatus;
  checkoutUrl: string;
  qrCode: string;
  expiredAt?: number | null;
}

export interface PayosTransaction {
  reference: string;
  amount: number;
  accountNumber: string;
  description: string;
  transactionDateTime: string;
  virtualAccountName?: string | null;
  virtualAccountNumber?: string | null;
  counterAccountBankId?: string | null;
  counterAccountBankName?: string | null;
  counterAccountName?: string | null;
  counterAccountNumber?: string | null;
}

export interface PaymentLinkInfo {
  id: string;
  orderCode: number;
  amount: number;
  amountPaid: number;
  amountRemaining: number;
  status: PayosLinkStatus;
  createdAt: string;
  transactions: PayosTransaction[];
  cancellationReason: string | null;
  canceledAt: string | null;
}

/** Every failure: HTTP status (0 = unreachable), payOS code and description. */
export class PayosError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'PayosError';
  }
  /** The credentials were refused (wrong client id or api key). */
  get isAuth(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

export interface PayosClientOptions extends PayosCredentials {
  baseUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

interface Envelope<T> {
  code?: string;
  desc?: string;
  data?: T | null;
  signature?: string;
}

/** A kept-alive socket the other end already closed: the request never reached payOS, so once more is safe. */
function isStaleSocket(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  const code = e?.cause?.code ?? e?.code;
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE';
}

/** payOS's answer for a payment request it does not know: the credentials were accepted. */
export const PAYOS_NOT_FOUND = '101';

export function payosClient(opts: PayosClientOptions) {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const doFetch = opts.fetch ?? fetch;

  async function send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
    const init = () => ({
      method,
      headers: { 'x-client-id': opts.clientId, 'x-api-key': opts.apiKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
    });
    try {
      try {
        return await doFetch(`${base}${path}`, init());
      } catch (err) {
        if (!isStaleSocket(err)) throw err;
        return await doFetch(`${base}${path}`, init());
      }
    } catch (err) {
      throw new PayosError(`Không kết nối được payOS (${(err as Error).message})`, 0);
    }
  }

  /**
   * `signed`: the answer carries payment data, so it must bear a valid signature over `data`
   * (an unsigned or wrongly signed "PAID" is refused, issue 10.3).
   */
  async function call<T extends object>(method: 'GET' | 'POST', path: string, body?: unknown, signed = true): Promise<T> {
    const res = await send(method, path, body);
    const text = await res.text();
    let json: Envelope<T> | null;
    try {
      json = text ? (JSON.parse(text) as Envelope<T>) : null;
    } catch {
      json = null;
    }
    if (!json || typeof json !== 'object')
      throw new PayosError(`payOS trả về phản hồi không hợp lệ (HTTP ${res.status})`, res.ok ? 502 : res.status, null);
    if (!res.ok || json.code !== '00' || !json.data) {
      throw new PayosError(json.desc || `payOS trả về lỗi HTTP ${res.status}`, res.ok ? 200 : res.status, json.code ?? null);
    }
    if (
      signed &&
      (typeof json.signature !== 'string' || !verifyDataSignature(json.data as Record<string, unknown>, json.signature, opts.checksumKey))
    ) {
      throw new PayosError('Chữ ký phản hồi của payOS không hợp lệ', res.status, 'SIGNATURE');
    }
    return json.data;
  }

  return {
    /** POST /v2/payment-requests */
    createPaymentLink(input: CreateLinkInput): Promise<CreatedLink> {
      const signature = paymentRequestSignature(input, opts.checksumKey);
      return call<CreatedLink>('POST', '/v2/payment-requests', { ...input, signature });
    },
    /** GET /v2/payment-requests/{paymentLinkId or orderCode} */
    getPaymentLink(id: string | number): Promise<PaymentLinkInfo> {
      return call<PaymentLinkInfo>('GET', `/v2/payment-requests/${encodeURIComponent(String(id))}`);
    },
    /** POST /v2/payment-requests/{id}/cancel */
    cancelPaymentLink(id: string | number, cancellationReason?: string): Promise<PaymentLinkInfo> {
      return call<PaymentLinkInfo>(
        'POST',
        `/v2/payment-requests/${encodeURIComponent(String(id))}/cancel`,
        cancellationReason ? { cancellationReason } : {},
      );
    },
    /** POST /confirm-webhook: payOS calls the URL once and registers it. Its answer carries no payment data. */
    confirmWebhook(webhookUrl: string): Promise<Record<string, unknown>> {
      return call<Record<string, unknown>>('POST', '/confirm-webhook', { webhookUrl }, false);
    },
  };
}

/** A signed payOS envelope (the sandbox answers and sends webhooks with it). */
export function signedEnvelope<T extends Record<string, unknown>>(data: T, checksumKey: string, desc = 'success') {
  return { code: '00', desc, success: true, data, signature: dataSignature(data, checksumKey) };
}
