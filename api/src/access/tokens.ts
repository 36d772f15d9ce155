/**
 * HS256 JWTs with node:crypto. Every request verifies one, and hono/jwt's WebCrypto path
 * (importKey + async verify per call) cost ~125 µs against ~7 µs for a synchronous HMAC here.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

function hmac(secret: string, data: string): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

export interface AccessClaims {
  sub: number;
  email: string;
  /** Refresh-token family of this sign-in; logout revokes it. */
  fid: string;
  typ: 'access';
  iat: number;
  exp: number;
}

export async function signAccessToken(
  secret: string,
  user: { id: number; email: string },
  familyId: string,
  ttlSeconds: number,
  now = Math.floor(Date.now() / 1000),
): Promise<string> {
  const claims: AccessClaims = { sub: user.id, email: user.email, fid: familyId, typ: 'access', iat: now, exp: now + ttlSeconds };
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${hmac(secret, body).toString('base64url')}`;
}

/**
 * Tokens whose signature and shape were already checked, by token text (and secret): a client
 * sends the same token for up to its whole lifetime, and the HMAC and two JSON parses were a
 * tenth of a cached list request. Expiry is still checked on every call.
 */
const verified = new Map<string, { secret: string; claims: AccessClaims }>();
const MAX_VERIFIED = 10_000;

/** Returns the claims, or null for a bad, expired or non-access token. */
export async function verifyAccessToken(secret: string, token: string, now = Math.floor(Date.now() / 1000)): Promise<AccessClaims | null> {
  const known = verified.get(token);
  if (known && known.secret === secret) return known.claims.exp > now ? known.claims : null;
  const claims = checkAccessToken(secret, token, now);
  if (claims) {
    if (verified.size >= MAX_VERIFIED) verified.clear();
    verified.set(token, { secret, claims });
  }
  return claims;
}

function checkAccessToken(secret: string, token: string, now: number): AccessClaims | null {
  try {
    const [header, body, signature] = token.split('.');
    if (!header || !body || !signature || token.split('.').length !== 3) return null;
    const { alg } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: string };
    if (alg !== 'HS256') return null;
    const expected = hmac(secret, `${header}.${body}`);
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as AccessClaims;
    // Our tokens always carry these; anything else (e.g. no exp: never expiring) is not ours.
    if (payload.typ !== 'access' || typeof payload.sub !== 'number' || typeof payload.fid !== 'string') return null;
    if (typeof payload.exp !== 'number' || payload.exp <= now) return null;
    return payload;
  } catch {
    return null;
  }
}

export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newFamilyId(): string {
  return randomUUID();
}
