/** The export service as the routes use it: the rows are read and serialised in the worker (lib/worker-pool.ts). */
import type { Actor, Deps } from '../lib/context';
import { offloaded } from '../lib/worker-pool';
import { exportService } from './service';

export function exportRunner(deps: Deps, actor: Actor, ip: string | null) {
  return offloaded(exportService(deps, actor, ip), deps, { domain: 'export', actor, ip }, ['users', 'members', 'assignments']);
}
