/**
 * payOS credentials at rest: AES-256-GCM under a key derived from the app secret, stored as
 * "iv:tag:data" (base64). Responses show keys masked ('••••abcd') unless explicitly revealed.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { MASK_PREFIX } from '@doanhoi/shared';

const keys = new Map<string, Buffer>();

/** A key for this purpose only, so the app secret itself never encrypts data. */
function keyFor(appSecret: string): Buffer {
  let k = keys.get(appSecret);
  if (!k) {
    k = Buffer.from(hkdfSync('sha256', appSecret, 'doanhoi-payos', 'payos-config-secrets-v1', 32));
    keys.set(appSecret, k);
  }
  return k;
}

export function encryptSecret(plain: string, appSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(appSecret), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64')).join(':');
}

/** Throws when the value was tampered with or encrypted under another secret. */
export function decryptSecret(stored: string, appSecret: string): string {
  const [iv, tag, data] = stored.split(':').map((p) => Buffer.from(p, 'base64'));
  if (!iv || !tag || !data) throw new Error('Malformed encrypted secret');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(appSecret), iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
}

/** '••••' plus the last 4 characters (only '••••' for short values, which would be half revealed). */
export function maskSecret(value: string | null | undefined): string {
  if (!value) return '';
  return value.length <= 8 ? MASK_PREFIX : `${MASK_PREFIX}${value.slice(-4)}`;
}

export function isMasked(value: string | undefined): boolean {
  return value !== undefined && value.startsWith(MASK_PREFIX);
}
