/**
 * The cluster's front door. The primary listens itself and hands each connection to a worker in
 * turn, a worker taking the next once it has acknowledged the last (what node's round-robin does),
 * but it keeps its own copy of the socket until that acknowledgement. Node's round-robin does not:
 * a connection handed to a worker in the instant it is SIGKILLed was neither answered nor handed
 * on, and its client waited until its own timeout (issue 28). Here a connection the dead (or
 * draining) worker never took goes to the next worker; the client only sees a slower answer.
 */
import cluster, { type Worker } from 'node:cluster';
import { createServer, type Server, type Socket } from 'node:net';

/** primary → worker, with the socket */
export const TAKE = 'doanhoi:take';
/** worker → primary: `{ id, taken }` (not taken: it is draining) */
export const TOOK = 'doanhoi:took';
/** worker → primary: the app is built, connections may come */
export const READY = 'doanhoi:ready';
/** worker → primary: draining, send it nothing more */
export const DRAINING = 'doanhoi:draining';

export interface Message {
  cmd?: string;
  id?: number;
  taken?: boolean;
}

export interface FrontDoor {
  server: Server;
  /** Workers in the rotation (ready, not draining). */
  ready(): number;
  /** No more connections: the listener closes, and connections not yet taken are dropped. */
  close(): void;
}

export function frontDoor(onReady: (w: Worker) => void): FrontDoor {
  const rotation: Worker[] = [];
  /** The connection each worker was handed and has not acknowledged yet. */
  const handed = new Map<Worker, { id: number; socket: Socket }>();
  const waiting: Socket[] = [];
  let turn = 0;
  let seq = 0;
  let closed = false;

  // Paused: the primary never reads a byte, so the worker that takes the socket reads the whole request.
  const server = createServer({ pauseOnConnect: true }, (socket) => {
    socket.on('error', () => {}); // a client reset while queued; its worker sees it too
    waiting.push(socket);
    pump();
  });

  function nextFree(): Worker | undefined {
    for (let i = 0; i < rotation.length; i++) {
      const w = rotation[(turn + i) % rotation.length]!;
      if (!handed.has(w)) {
        turn = (turn + i + 1) % rotation.length;
        return w;
      }
    }
    return undefined;
  }

  function pump() {
    for (;;) {
      const socket = waiting[0];
      if (!socket) return;
      if (socket.destroyed) {
        waiting.shift();
        continue;
      }
      const w = nextFree();
      if (!w) return;
      waiting.shift();
      const id = ++seq;
      handed.set(w, { id, socket });
      w.send({ cmd: TAKE, id } satisfies Message, socket, { keepOpen: true }, (err: Error | null) => {
        if (err) takeBack(w);
      });
    }
  }

  /** The worker will not take what it was handed: first in line again, for another worker. */
  function takeBack(w: Worker) {
    const h = handed.get(w);
    handed.delete(w);
    if (h && !h.socket.destroyed) {
      if (closed) h.socket.destroy();
      else waiting.unshift(h.socket);
    }
    pump();
  }

  function leave(w: Worker) {
    const i = rotation.indexOf(w);
    if (i >= 0) rotation.splice(i, 1);
    if (turn >= rotation.length) turn = 0;
    takeBack(w);
  }

  cluster.on('message', (w, m: Message) => {
    if (m?.cmd === READY) {
      if (!closed && !rotation.includes(w)) rotation.push(w);
      onReady(w);
      pump();
    } else if (m?.cmd === TOOK) {
      const h = handed.get(w);
      if (!h || h.id !== m.id) return; // already taken back (the worker said it drains)
      if (!m.taken) return takeBack(w);
      handed.delete(w);
      // Only this process's descriptor: the worker's copy keeps the connection open.
      h.socket.destroy();
      pump();
    } else if (m?.cmd === DRAINING) leave(w);
  });
  // Whichever the primary sees first after a SIGKILL: the channel closing or the exit.
  cluster.on('disconnect', leave);
  cluster.on('exit', leave);

  return {
    server,
    ready: () => rotation.length,
    close() {
      closed = true;
      server.close();
      rotation.length = 0;
      for (const s of waiting.splice(0)) s.destroy();
    },
  };
}
