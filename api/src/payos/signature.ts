/**
 * payOS signatures: HMAC-SHA256 (hex) with the merchant's checksum key.
 * - A payment request signs exactly `amount=…&cancelUrl=…&description=…&orderCode=…&returnUrl=…`.
 * - Response and webhook `data` objects sign all their keys sorted alphabetically as `key=value&…`,
 *   with null/undefined as '' and arrays as the JSON of their items with keys sorted (payOS's own SDK rule).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface PaymentRequestFields {
  amount: number;
  cancelUrl: string;
  description: string;
  orderCode: number;
  returnUrl: string;
}

function hmac(key: string, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex');
}

export function paymentRequestSignature(f: PaymentRequestFields, checksumKey: string): string {
  return hmac(
    checksumKey,
    `amount=${f.amount}&cancelUrl=${f.cancelUrl}&description=${f.description}&orderCode=${f.orderCode}&returnUrl=${f.returnUrl}`,
  );
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}

/** The `key=value&…` text a data object is signed over. */
export function dataSigningText(data: Record<string, unknown>): string {
  return Object.keys(data)
    .sort()
    .filter((k) => data[k] !== undefined)
    .map((k) => {
      let v = data[k];
      if (Array.isArray(v)) v = JSON.stringify(v.map((x) => (x && typeof x === 'object' ? sortKeys(x as Record<string, unknown>) : x)));
      if (v === null || v === undefined || v === 'null' || v === 'undefined') v = '';
      return `${k}=${v}`;
    })
    .join('&');
}

export function dataSignature(data: Record<string, unknown>, checksumKey: string): string {
  return hmac(checksumKey, dataSigningText(data));
}

/** Constant-time comparison, so a forger learns nothing from timing. */
export function verifyDataSignature(data: Record<string, unknown>, signature: string, checksumKey: string): boolean {
  const expected = Buffer.from(dataSignature(data, checksumKey), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function verifyPaymentRequestSignature(f: PaymentRequestFields, signature: string, checksumKey: string): boolean {
  const expected = Buffer.from(paymentRequestSignature(f, checksumKey), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
