import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long in-flight requests may take to finish after SIGTERM before their connections are cut. */
export const DRAIN_GRACE_MS = 20_000;
/** A connection still idle this long after the drain began has no request coming: it is closed. */
const IDLE_CLOSE_AFTER_MS = 1_000;

/**
 * The connections of a server that does not listen itself (a cluster worker is handed them,
 * dispatch.ts): node's own count covers only what its listener accepted.
 */
export function trackConnections(server: Server): Set<Socket> {
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return open;
}

/**
 * Resolves once the requests in flight have been answered, or after `graceMs` (a long export),
 * when the remaining connections are cut. A response written meanwhile says `Connection: close`,
 * so a client in the middle of a stream of requests moves to another connection cleanly; idle
 * keep-alive connections are closed only after IDLE_CLOSE_AFTER_MS, since closing one at the
 * instant its client sends the next request on it fails that request (a test saw it). The caller
 * has already stopped taking new connections.
 */
export function drainServer(server: Server, open: Set<Socket>, graceMs: number): Promise<void> {
  server.on('request', (_req, res) => (res.shouldKeepAlive = false));
  const started = Date.now();
  return new Promise((resolve) => {
    const done = () => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    };
    const idle = setInterval(() => {
      if (Date.now() - started >= IDLE_CLOSE_AFTER_MS) server.closeIdleConnections();
      if (open.size === 0) done();
    }, 50);
    const cut = setTimeout(() => {
      server.closeAllConnections();
      for (const s of open) s.destroy();
      done();
    }, graceMs);
    idle.unref();
    cut.unref();
  });
}
