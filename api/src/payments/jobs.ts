import type { Deps } from '../lib/context';
import { checkOverdue } from './overdue';

export const OVERDUE_INTERVAL_MS = 5 * 60_000;

/** Periodic work of the payments domain: overdue marking at start and every 5 minutes. Returns a stop function. */
export function startPaymentJobs({ db }: Deps, intervalMs = OVERDUE_INTERVAL_MS): () => void {
  const run = () => {
    try {
      const { updatedCount } = checkOverdue(db, { actorId: null });
      if (updatedCount > 0) console.log(`Payments: ${updatedCount} assignment(s) marked overdue`);
    } catch (err) {
      console.error('Payments: overdue check failed', err);
    }
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
