/**
 * Revoked sessions, kept where a restart cannot lose them. A revoked family is the refresh-token
 * rows of that family marked revoked (any reason but 'rotated'); the in-memory set (actor.ts) that
 * requireAuth checks on every request — cached verified tokens included — is rebuilt from those
 * rows the first time a database is used, so a logout or an administrator's reset still refuses
 * the family's access tokens after a restart. Several API processes share the database (issue 28):
 * each looks again, at most every REVOCATION_POLL_MS, for families revoked since, so a session
 * revoked through one process is refused by every other within a second.
 */
import { and, eq, gte, isNull, ne } from 'drizzle-orm';
import type { Db } from '../db/client';
import { superAdminIds } from './grants';
import { forgetRevokedFamilies, markFamilyRevoked } from './actor';
import { refreshTokens } from '../db/tables/auth';
import { allRows, runQuery, withTransaction } from '../db/engine';
import { flatMapInOrder } from '../lib/in-order';

type Writer = Pick<Db, 'selectDistinct' | 'update'>;
export type RevokeReason = 'logout' | 'reuse' | 'password_change' | 'password_reset' | 'account_change';

/** How often a process looks for families revoked by the others (requests older than this answer from what it knew). */
export const REVOCATION_POLL_MS = 500;
/** A revocation is stamped inside its transaction, which may commit up to this much later (a bulk edit, a busy wait). */
const COMMIT_LAG_MS = 10_000;

/** Per database: when it was last looked at. */
let polled = new WeakMap<Db, number>();

/**
 * The first time per database: the families revoked recently enough for their access tokens to be
 * alive; then, at most every REVOCATION_POLL_MS, those revoked since the last look (by any process).
 */
export async function loadRevokedFamilies(db: Db, accessTtlSeconds: number, now = Date.now()): Promise<void> {
  const last = polled.get(db);
  if (last !== undefined && now - last < REVOCATION_POLL_MS) return;
  polled.set(db, now);
  const ttlMs = accessTtlSeconds * 1000 + 60_000;
  const rows = await allRows(
    db
      .select({ familyId: refreshTokens.familyId, revokedAt: refreshTokens.revokedAt })
      .from(refreshTokens)
      .where(
        and(
          gte(refreshTokens.revokedAt, new Date(last === undefined ? now - ttlMs : last - COMMIT_LAG_MS)),
          ne(refreshTokens.revokedReason, 'rotated'),
        ),
      ),
  );
  for (const r of rows) markFamilyRevoked(r.familyId, r.revokedAt!.getTime() + ttlMs);
}

/** Tests: forget what this process knows, as a restart would (the database keeps it). */
export function simulateRestart(): void {
  forgetRevokedFamilies();
  polled = new WeakMap();
}

/**
 * Revokes every live refresh-token family of the user (all but `except`), in the caller's
 * transaction. Returns the families: mark them with markRevoked() once the transaction committed.
 */
export async function revokeUserSessions(tx: Writer, userId: number, reason: RevokeReason, except?: string): Promise<string[]> {
  const live = and(
    eq(refreshTokens.userId, userId),
    isNull(refreshTokens.revokedAt),
    except ? ne(refreshTokens.familyId, except) : undefined,
  );
  const families = (await allRows(tx.selectDistinct({ familyId: refreshTokens.familyId }).from(refreshTokens).where(live))).map(
    (r) => r.familyId,
  );
  if (families.length) await runQuery(tx.update(refreshTokens).set({ revokedAt: new Date(), revokedReason: reason }).where(live));
  return families;
}

/** Access tokens of these families are refused from now on by this process. */
export function markRevoked(families: string[]): void {
  for (const f of families) markFamilyRevoked(f);
}

/**
 * Families revoked for an account change since `since`, by any connection (an import in the
 * worker thread): this process refuses their access tokens from now on.
 */
export async function markRevokedSince(db: Db, since: Date): Promise<void> {
  const rows = await allRows(
    db
      .selectDistinct({ familyId: refreshTokens.familyId })
      .from(refreshTokens)
      .where(and(gte(refreshTokens.revokedAt, since), eq(refreshTokens.revokedReason, 'account_change'))),
  );
  markRevoked(rows.map((r) => r.familyId));
}

/** Whoever stopped being a super admin since `before` loses every session at once. */
export async function revokeLostSuperAdmins(db: Db, before: Set<number>): Promise<void> {
  const now = await superAdminIds(db);
  const lost = [...before].filter((id) => !now.has(id));
  if (lost.length === 0) return;
  const families = await withTransaction(
    db,
    async (tx) => await flatMapInOrder(lost, (id) => revokeUserSessions(tx, id, 'account_change')),
  );
  markRevoked(families);
}
