/**
 * What the cluster tests read from the outside of a running server: which process holds a connection
 * (/proc/net/tcp, then each pid's fds), and whether the port still takes connections.
 */
import { once } from 'node:events';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';

/** The pid among `pids` holding the server end of the TCP connection from local port `clientPort` to `serverPort`. */
export function socketOwner(serverPort: number, clientPort: number, pids: number[]): number | undefined {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  const line = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find((f) => f[1]?.endsWith(`:${hex(serverPort)}`) && f[2]?.endsWith(`:${hex(clientPort)}`));
  if (!line) return undefined;
  const socket = `socket:[${line[9]}]`;
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === socket);
    } catch {
      return false;
    }
  });
}

/** A probe for `until`: true once a connection to `port` on 127.0.0.1 is refused, undefined while one is accepted. */
export async function portClosed(port: number): Promise<true | undefined> {
  const s = connect(port, '127.0.0.1');
  const refused = await Promise.race([once(s, 'error').then(() => true), once(s, 'connect').then(() => false)]);
  s.destroy();
  return refused ? true : undefined;
}
