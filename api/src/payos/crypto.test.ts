import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret, isMasked, maskSecret } from './crypto';
import { payosDescription } from './description';

const SECRET = 'app-secret-0123456789abcdef';

describe('payOS secrets at rest', () => {
  it('round-trips through AES-256-GCM with a fresh IV each time, never storing the clear text', () => {
    const a = encryptSecret('checksum-key-value', SECRET);
    const b = encryptSecret('checksum-key-value', SECRET);
    expect(a).not.toBe(b);
    expect(a).not.toContain('checksum-key-value');
    expect(a.split(':')).toHaveLength(3);
    expect(decryptSecret(a, SECRET)).toBe('checksum-key-value');
  });

  it('refuses another app secret and tampered ciphertext', () => {
    const enc = encryptSecret('k', SECRET);
    expect(() => decryptSecret(enc, 'another-secret-0123456789')).toThrow();
    const [iv, tag, data] = enc.split(':');
    const flipped = Buffer.from(data!, 'base64');
    flipped[0] ^= 1;
    expect(() => decryptSecret([iv, tag, flipped.toString('base64')].join(':'), SECRET)).toThrow();
  });

  it('masks all but the last four characters, and short values entirely', () => {
    expect(maskSecret('abcdefghijkl')).toBe('••••ijkl');
    expect(maskSecret('short')).toBe('••••');
    expect(isMasked('••••ijkl')).toBe(true);
    expect(isMasked('ijkl')).toBe(false);
  });
});

describe('payOS description (≤ 25 characters)', () => {
  it('drops accents and symbols and cuts at a word boundary', () => {
    expect(payosDescription('Thanh toán: Đoàn phí')).toBe('Thanh toan Doan phi');
    const long = payosDescription('Thanh toán: Đoàn phí năm học 2025–2026');
    expect(long.length).toBeLessThanOrEqual(25);
    expect(long).toBe('Thanh toan Doan phi nam');
    expect(payosDescription('Abcdefghijklmnopqrstuvwxyz0123')).toHaveLength(25);
  });
});
