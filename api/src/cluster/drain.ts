import type { Server } from 'node:http';

/** How long in-flight requests may take to finish after SIGTERM before their connections are cut. */
export const DRAIN_GRACE_MS = 20_000;

/**
 * Stops accepting connections and resolves once the requests in flight have been answered, or after
 * `graceMs` (a long export), when the remaining connections are cut. Keep-alive connections are
 * closed as soon as they fall idle, so a browser's open socket does not hold the drain up.
 */
export function drainServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    idle.unref();
    cut.unref();
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
