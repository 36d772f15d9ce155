import type { Deps } from '../lib/context';
import { startPaymentJobs } from '../payments/jobs';
import { startReminderJobs } from '../reminders/jobs';

/**
 * The periodic jobs (payment overdue marking and expiry, scheduled reminders), started once the
 * server listens on `port`: they may call this server's own payOS sandbox. Returns a stop function.
 */
export async function startJobs(deps: Deps, port: number): Promise<() => void> {
  const stopPayments = await startPaymentJobs(deps, port);
  const stopReminders = await startReminderJobs(deps);
  return () => (stopPayments(), stopReminders());
}
