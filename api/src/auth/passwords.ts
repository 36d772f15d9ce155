import argon2 from 'argon2';

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

/**
 * Accounts imported without a password store no hash (a hash of a guessable value protects nothing):
 * they accept exactly their default password once, and must then choose a new one.
 */
export async function checkPassword(
  user: { passwordHash: string | null; email: string },
  plain: string,
): Promise<boolean> {
  if (user.passwordHash) return verifyPassword(user.passwordHash, plain);
  return plain.length > 0 && plain === defaultPasswordFor(user.email);
}
