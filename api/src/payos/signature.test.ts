import { describe, expect, it } from 'vitest';
import { dataSignature, dataSigningText, paymentRequestSignature, verifyDataSignature, verifyPaymentRequestSignature } from './signature';

/** The webhook example of payOS's documentation ("Kiểm tra dữ liệu với signature", payos.vn/docs). */
const DOCS_KEY = '1a54716c8f0efb2744fb28b6e38b25da7f67a925d98bc1c18bd8faaecadd7675';
const DOCS_DATA = {
  orderCode: 123,
  amount: 3000,
  description: 'VQRIO123',
  accountNumber: '12345678',
  reference: 'TF230204212323',
  transactionDateTime: '2023-02-04 18:25:00',
  currency: 'VND',
  paymentLinkId: '124c33293c43417ab7879e14c8d9eb18',
  code: '00',
  desc: 'Thành công',
  counterAccountBankId: '',
  counterAccountBankName: '',
  counterAccountName: '',
  counterAccountNumber: '',
  virtualAccountName: '',
  virtualAccountNumber: '',
};
const DOCS_SIGNATURE = '412e915d2871504ed31be63c8f62a149a4410d34c4c42affc9006ef9917eaa03';

/** Vectors of payOS's own Node SDK tests (payOSHQ/payos-lib-node tests/crypto, key 'test_checksum_key'). */
const SDK_KEY = 'test_checksum_key';

describe('payOS signatures against published vectors', () => {
  it('webhook data: keys sorted, key=value joined with &, HMAC-SHA256 with the checksum key (payOS docs example)', () => {
    expect(dataSignature(DOCS_DATA, DOCS_KEY)).toBe(DOCS_SIGNATURE);
    expect(verifyDataSignature(DOCS_DATA, DOCS_SIGNATURE, DOCS_KEY)).toBe(true);
    expect(dataSigningText({ b: 1, a: 'x', c: null })).toBe('a=x&b=1&c=');
  });

  it('payment request: amount, cancelUrl, description, orderCode, returnUrl (SDK vectors, Vietnamese text included)', () => {
    const base = { orderCode: 0, cancelUrl: 'http://localhost', returnUrl: 'http://localhost' };
    expect(paymentRequestSignature({ ...base, amount: 2000, description: 'Thanh toán đơn hàng' }, SDK_KEY)).toBe(
      'd8b7b0e5d19edfe7b1f53dedeb8d1c7c2b62fabd7eb320dbc514c58f13e9e2c5',
    );
    expect(paymentRequestSignature({ ...base, amount: 3300, description: 'ABC456' }, SDK_KEY)).toBe(
      '189864813370cdf819974dc3f63c3a93a7e7af0a0d10b21344b14e4f7358999b',
    );
  });

  it('response data with a transactions array and nulls (SDK vector)', () => {
    const paid = {
      id: 'payment-link-id',
      orderCode: 0,
      amount: 2000,
      amountPaid: 2000,
      amountRemaining: 0,
      status: 'PAID',
      createdAt: '2025-12-12T09:00:00+07:00',
      transactions: [
        {
          accountNumber: '0123456789',
          amount: 2000,
          counterAccountBankId: '01202001',
          counterAccountBankName: null,
          counterAccountName: 'NGUYEN VAN A',
          counterAccountNumber: '9876543210',
          description: 'TRANSACTION DESCRIPTION',
          reference: 'FT-REFERENCE',
          transactionDateTime: '2025-12-12T09:00:00+07:00',
          virtualAccountName: null,
          virtualAccountNumber: null,
        },
      ],
      canceledAt: null,
      cancellationReason: null,
    };
    expect(dataSignature(paid, SDK_KEY)).toBe('6af5e2c9a28256c140169ed624114b43295915d7b6e2fa6278b17a7c43aadefd');
  });

  it('refuses a changed field, another key and malformed signatures', () => {
    expect(verifyDataSignature({ ...DOCS_DATA, amount: 3001 }, DOCS_SIGNATURE, DOCS_KEY)).toBe(false);
    expect(verifyDataSignature(DOCS_DATA, DOCS_SIGNATURE, 'another-key')).toBe(false);
    for (const bad of ['', 'zz', DOCS_SIGNATURE.slice(1), `${DOCS_SIGNATURE}00`])
      expect(verifyDataSignature(DOCS_DATA, bad, DOCS_KEY)).toBe(false);
    const f = { amount: 1, cancelUrl: 'c', description: 'd', orderCode: 2, returnUrl: 'r' };
    expect(verifyPaymentRequestSignature(f, paymentRequestSignature(f, 'k'), 'k')).toBe(true);
    expect(verifyPaymentRequestSignature({ ...f, amount: 2 }, paymentRequestSignature(f, 'k'), 'k')).toBe(false);
  });
});
