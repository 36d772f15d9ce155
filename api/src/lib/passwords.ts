import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';

/** OWASP argon2id parameters; ~9 ms per hash on this machine (see ../shared/NOTES.md). */
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(plain: string): Promise<string> {
  return argon2.hash(plain, OPTIONS);
}

export async function verifyPassword(hash: string, plain: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}

/** The spec's default password for imported accounts: the part of the e-mail before '@'. */
export function defaultPasswordFor(email: string): string {
  return email.split('@')[0] ?? '';
}

let dummyHash: Promise<string> | null = null;

/**
 * Spend one hash verification when there is no hash to check, so an unknown e-mail or a
 * hash-less account answers as slowly as a real one and the timing reveals nothing.
 */
async function spendVerification(plain: string): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, plain);
}

/**
 * Accounts imported without a password store no hash (a hash of a guessable value protects nothing):
 * while they must change their password they accept exactly their default password, and nothing
 * once the flag is cleared without a hash. `user` null (unknown e-mail) always fails.
 */
export async function checkPassword(
  user: { passwordHash: string | null; email: string; mustChangePassword: boolean } | null | undefined,
  plain: string,
): Promise<boolean> {
  if (user?.passwordHash) return verifyPassword(user.passwordHash, plain);
  await spendVerification(plain);
  if (!user || !user.mustChangePassword) return false;
  return plain.length > 0 && plain === defaultPasswordFor(user.email);
}
