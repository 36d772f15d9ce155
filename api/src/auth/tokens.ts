import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sign, verify } from 'hono/jwt';

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
  return sign({ ...claims }, secret, 'HS256');
}

/** Returns the claims, or null for a bad, expired or non-access token. */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims | null> {
  try {
    const payload = (await verify(token, secret, 'HS256')) as unknown as AccessClaims;
    // Our tokens always carry these; anything else (e.g. no exp: never expiring) is not ours.
    if (payload.typ !== 'access' || typeof payload.sub !== 'number' || typeof payload.fid !== 'string') return null;
    if (typeof payload.exp !== 'number') return null;
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
