import type { Deps } from '../lib/context';

/** Periodic work of the payments domain (overdue marking); filled in by step 4. Returns a stop function. */
export function startPaymentJobs(_deps: Deps): () => void {
  return () => {};
}
