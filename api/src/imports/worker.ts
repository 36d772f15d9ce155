/**
 * The worker thread of lib/worker-pool.ts: its own connection to the API's database, and the same
 * import and export services the request thread would run, built per job with the caller the
 * request thread authenticated. Permission and scope rules are therefore the same code; only the
 * thread that spends the CPU changes.
 */
import { HTTPException } from 'hono/http-exception';
import { parentPort, workerData } from 'node:worker_threads';
import { openDb } from '../db/client';
import { isPg, isPostgresUrl, openPgDb } from '../db/postgres';
import { useEngine } from '../db/dialect';
import type { Actor, Deps } from '../lib/context';
import type { Env } from '../env';
import { logger } from '../lib/logger';
import { startCheckpoints } from '../lib/checkpoints';
import { startIndexMerges } from '../users/index-merge';
import { lowerThreadPriority } from '../lib/thread-priority';
import { flagTransactions, useGate } from '../lib/writer-gate';
import type { FileArg, FromWorker, Job, ToWorker } from '../lib/worker-pool';
import { exportService } from '../exports/service';
import type { AnyImportKind } from './kind';
import { classesImport, departmentsImport } from './kinds/catalogue';
import { membersImport } from './kinds/members';
import { usersImport } from './kinds/users';
import { importService } from './service';

const port = parentPort!;
const { path, env, gate } = workerData as { path: string; env: Env; gate: SharedArrayBuffer };
useGate(gate);
// Imports and exports are background work: on a busy machine, requests on the other thread go first.
lowerThreadPriority();
// `path`: the SQLite file, or PostgreSQL's URL (lib/worker-pool.ts); this thread's raw SQL speaks its engine.
useEngine(isPostgresUrl(path) ? 'pg' : 'sqlite');
const deps: Deps = { db: isPostgresUrl(path) ? openPgDb(path, { max: 4 }) : openDb(path), env };
// SQLite's alone: PostgreSQL has no shared writer to wake and no WAL file of ours to checkpoint.
if (!isPg(deps.db)) {
  // A request write waiting for one of our transactions is woken the moment it ends.
  flagTransactions(deps.db.$client);
  // The request thread's connection leaves WAL checkpoints to this thread (lib/checkpoints.ts).
  await startCheckpoints(deps.db);
  // The users index in few segments, which every search and scoped page looks a term up in (users/index-merge.ts).
  await startIndexMerges(deps.db);
}
const kinds = new Map<string, AnyImportKind>([usersImport, departmentsImport, classesImport, membersImport].map((k) => [k.kind, k]));
/** Bytes gathered per pull: fewer messages than one per zip chunk, still a small buffer. */
const PULL_BYTES = 256 * 1024;

const post = (m: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
const streams = new Map<number, ReadableStreamDefaultReader<Uint8Array>>();

function fromArg(a: unknown): unknown {
  if (a && typeof a === 'object' && '__file' in a) {
    const f = a as FileArg;
    return new File([new Uint8Array(f.bytes)], f.__file);
  }
  return a;
}

function service(job: Job): Record<string, (...args: unknown[]) => unknown> {
  const actor = job.actor as Actor;
  if (job.domain === 'export') return exportService(deps, actor, job.ip) as never;
  const def = kinds.get(job.kind ?? '');
  if (!def) throw new Error(`unknown import kind ${job.kind}`);
  return importService(def, deps, actor, job.ip, job.lang) as never;
}

function postError(id: number, err: unknown) {
  if (err instanceof HTTPException) {
    const cause =
      err.cause && typeof err.cause === 'object' && !(err.cause instanceof Error) ? (err.cause as Record<string, unknown>) : undefined;
    post({ id, type: 'error', status: err.status, message: err.message, cause });
  } else {
    logger.error({ err }, 'offloaded job failed');
    post({ id, type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}

async function run(id: number, job: Job) {
  try {
    const fn = service(job)[job.method];
    if (typeof fn !== 'function') throw new Error(`unknown method ${job.domain}.${job.method}`);
    const value = await fn(...job.args.map(fromArg));
    if (value instanceof Response) {
      streams.set(id, value.body!.getReader());
      post({ id, type: 'response', status: value.status, headers: [...value.headers] });
    } else post({ id, type: 'result', value });
  } catch (err) {
    postError(id, err);
  }
}

/** Sends the next chunks of a streamed body, or its end. */
async function pull(id: number) {
  const reader = streams.get(id);
  if (!reader) return;
  try {
    const parts: Uint8Array[] = [];
    let size = 0;
    while (size < PULL_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(value);
      size += value.byteLength;
    }
    if (size === 0) {
      streams.delete(id);
      return post({ id, type: 'end' });
    }
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    post(
      { id, type: 'chunk', bytes },
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer as ArrayBuffer] : [],
    );
  } catch (err) {
    streams.delete(id);
    postError(id, err);
  }
}

port.on('message', (m: ToWorker) => {
  if (m.type === 'call') void run(m.id, m.job);
  else if (m.type === 'pull') void pull(m.id);
  else {
    void streams.get(m.id)?.cancel();
    streams.delete(m.id);
  }
});
// Loaded: the request thread may start listening (lib/worker-pool.ts startWorker).
post({ id: 0, type: 'ready' });
