import type { Deps } from '../lib/context';
import { payosBaseUrl } from '../payos/origin';
import { expireStaleOrders } from './expiry';
import { checkOverdue } from './overdue';
import { logger } from '../lib/logger';
import { leasedInterval } from '../lib/lease';

export const JOB_INTERVAL_MS = 5 * 60_000;

/**
 * Periodic work of the payments domain, at start and every 5 minutes: overdue marking, and asking
 * payOS about orders left pending past their link's end. Start it once the server listens on
 * `port` (the sandbox may live there). Every API process starts it; only the one holding the
 * 'payments' lease runs it (lib/lease.ts). Returns a stop function.
 */
export async function startPaymentJobs(deps: Deps, port: number, intervalMs = JOB_INTERVAL_MS): Promise<() => void> {
  let expiring = false;
  const run = async () => {
    try {
      const { updatedCount } = await checkOverdue(deps.db, { actorId: null });
      if (updatedCount > 0) logger.info({ updatedCount }, 'payments: assignments marked overdue');
    } catch (err) {
      logger.error({ err }, 'payments: overdue check failed');
    }
    // payOS requests are slow: a run still going when the next is due is not doubled.
    if (expiring) return;
    expiring = true;
    expireStaleOrders(deps, payosBaseUrl(deps.env, port))
      .then((r) => {
        if (r.paid + r.closed + r.expiredHere > 0) logger.info(r, 'payments: stale orders settled');
      })
      .catch((err: unknown) => logger.error({ err }, 'payments: stale order check failed'))
      .finally(() => (expiring = false));
  };
  return leasedInterval(deps.db, 'payments', intervalMs, run);
}
