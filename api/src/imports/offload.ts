/** The import service as the routes use it: parsing, checking and writing run in the worker (lib/worker-pool.ts). */
import { markRevokedSince } from '../access/revocation';
import type { Actor, Deps } from '../lib/context';
import { offloaded, setWorkerSource } from '../lib/worker-pool';
import type { AnyImportKind } from './kind';
import { importService, running } from './service';

/** Executes under way in the worker per session (a second, refused execute must not unmark the first). */
const inWorker = new Map<string, number>();

// The worker runs imports/worker.ts (bundled as dist/worker.js): loading this module names it to the pool.
setWorkerSource(new URL('./worker.ts', import.meta.url));

/**
 * Sessions an execute ended (a new password or e-mail from the file, kinds/users.ts) were written
 * by whichever connection ran it: this thread refuses their access tokens once it returns.
 */
function endingSessions(local: ReturnType<typeof importService>, deps: Deps): ReturnType<typeof importService> {
  return {
    ...local,
    async execute(...args) {
      const since = new Date(Date.now() - 1);
      try {
        return await local.execute(...args);
      } finally {
        await markRevokedSince(deps.db, since);
      }
    },
  };
}

export function importRunner(def: AnyImportKind, deps: Deps, actor: Actor, ip: string | null, lang: 'vi' | 'en' = 'vi') {
  const local = importService(def, deps, actor, ip, lang);
  return endingSessions(
    offloaded(
      local,
      deps,
      { domain: 'import', kind: def.kind, actor, ip, lang },
      ['upload', 'validate', 'validateJson', 'execute', 'errorRows', 'headers'],
      async (method, args, run) => {
        // The status route answers here: while the worker executes, this thread must know the session is running, not cut off.
        const id = method === 'execute' ? String(args[0]) : null;
        if (id) {
          inWorker.set(id, (inWorker.get(id) ?? 0) + 1);
          running.add(id);
        }
        try {
          return await run();
        } finally {
          if (id) {
            const left = inWorker.get(id)! - 1;
            if (left > 0) inWorker.set(id, left);
            else {
              inWorker.delete(id);
              running.delete(id);
            }
          }
        }
      },
    ),
    deps,
  );
}
