/**
 * Heavy jobs (spreadsheet parsing, import checks and transactions, export serialisation) run in a
 * worker thread with its own better-sqlite3 connection to the same file (issue 12), so the request
 * thread only forwards bytes. WAL lets this thread keep reading while the worker writes, and the
 * cache-version triggers (lib/freshness.ts) make every worker commit visible to the next cached
 * read here. An in-memory database cannot be shared between connections: its jobs run in-process.
 * On PostgreSQL the worker opens its own pool on DATABASE_URL; a database opened without one (a
 * test's throwaway database) runs its jobs in-process, as an in-memory SQLite does.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Deps } from './context';
import { checkpointOnCommit } from './checkpoints';
import { logger } from './logger';
import { gateBuffer } from './writer-gate';
import { newReadEpoch } from './freshness';
import { isPg, isPostgresUrl } from '../db/postgres';

/** What the worker runs: a method of a service built there with the same caller (imports/worker.ts). */
export interface Job {
  domain: 'import' | 'export';
  /** The import kind (imports/kind.ts); unused for exports. */
  kind?: string;
  method: string;
  args: unknown[];
  actor: unknown;
  ip: string | null;
  /** The language of the caller's messages (imports answer in the screen's language). */
  lang?: 'vi' | 'en';
}

/** A File is not sent as is: its bytes are transferred and it is rebuilt in the worker. */
export interface FileArg {
  __file: string;
  bytes: ArrayBuffer;
}

export type FromWorker =
  | { id: 0; type: 'ready' }
  | { id: number; type: 'result'; value: unknown }
  | { id: number; type: 'error'; status?: number; message: string; cause?: Record<string, unknown> }
  | { id: number; type: 'response'; status: number; headers: [string, string][] }
  | { id: number; type: 'chunk'; bytes: Uint8Array }
  | { id: number; type: 'end' };

export type ToWorker = { id: number; type: 'call'; job: Job } | { id: number; type: 'pull' } | { id: number; type: 'cancel' };

type Pending = { onMessage: (m: FromWorker) => void; onCrash: (err: Error) => void };

/**
 * The worker's entry: the bundled api/dist/worker.js when this module runs from the build (npm
 * start), otherwise a boot script that registers tsx first (tests, `npm run dev`).
 */
let workerSource: URL | undefined;

/** The imports domain names its worker's source (imports/offload.ts), so this module imports no domain. */
export function setWorkerSource(url: URL): void {
  workerSource = url;
}

function workerEntry(): { entry: string | URL; eval: boolean } {
  if (import.meta.url.endsWith('.js')) return { entry: new URL('./worker.js', import.meta.url), eval: false };
  return { entry: bootScript(), eval: true };
}

/**
 * From TypeScript sources (tsx, vitest) the worker starts through a small script that registers
 * tsx first: a worker thread does not inherit the parent's loader or vitest's transform.
 */
function bootScript(): string {
  const require = createRequire(import.meta.url);
  // tsx's register() (its ESM entry, as its package exports it) hooks the worker's own module loader.
  const pkgFile = require.resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const tsx = pathToFileURL(join(dirname(pkgFile), pkg.exports['./esm/api']!.import.default)).href;
  if (!workerSource) throw new Error('setWorkerSource() was not called: the worker has no source to start');
  const entry = workerSource.href;
  return `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); }).catch((e) => { console.error(e); process.exit(1); });`;
}

class WorkerHandle {
  private worker: Worker;
  private next = 1;
  private pending = new Map<number, Pending>();
  dead = false;
  /** Jobs sent to this worker so far (tests check that heavy work really left this thread). */
  calls = 0;
  /** Settles once the worker has loaded its modules and opened its connection (or has stopped). */
  readonly ready: Promise<void>;

  constructor(path: string, deps: Deps) {
    const { entry, eval: isScript } = workerEntry();
    this.worker = new Worker(entry, {
      eval: isScript,
      workerData: { path, env: deps.env, gate: gateBuffer() },
      // An export allocates row after row of short-lived strings: V8's default young generation (48 MB) grew to its
      // full size and stayed resident, a 100k-row export peaking at 286–317 MB against issue 4's 300; with 12 MB
      // 271–284 MB, in the same time (docs/benchmark.md, session 23).
      resourceLimits: { maxYoungGenerationSizeMb: 12 },
    });
    this.worker.unref();
    // The worker checkpoints the WAL from now on; should it stop, this connection's commits do again.
    const sqlite = isPg(deps.db) ? null : deps.db.$client;
    if (sqlite) checkpointOnCommit(sqlite, false);
    let loaded = () => {};
    this.ready = new Promise((r) => (loaded = r));
    this.worker.on('message', (m: FromWorker) => {
      if (m.type === 'ready') return loaded();
      // The worker may have just committed: reads made from here on confirm the cache versions again.
      newReadEpoch();
      this.pending.get(m.id)?.onMessage(m);
    });
    const crash = (err: Error) => {
      this.dead = true;
      loaded();
      if (sqlite) checkpointOnCommit(sqlite, true);
      logger.error({ err }, 'offload worker stopped');
      for (const p of this.pending.values()) p.onCrash(err);
      this.pending.clear();
    };
    this.worker.on('error', crash);
    this.worker.on('exit', (code) => crash(new Error(`worker exited with code ${code}`)));
  }

  private open(onMessage: Pending['onMessage'], onCrash: Pending['onCrash']): number {
    const id = this.next++;
    this.pending.set(id, { onMessage, onCrash });
    return id;
  }

  private send(m: ToWorker, transfer: ArrayBuffer[] = []) {
    this.worker.postMessage(m, transfer);
  }

  /** Runs the job; resolves with its value, or a streaming Response when the method returned one. */
  call(job: Job, transfer: ArrayBuffer[]): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let stream: { push: (m: FromWorker) => void; crash: (e: Error) => void } | null = null;
      const id = this.open(
        (m) => {
          if (stream) return stream.push(m);
          if (m.type === 'result') {
            this.pending.delete(id);
            resolve(m.value);
          } else if (m.type === 'error') {
            this.pending.delete(id);
            reject(rebuildError(m));
          } else if (m.type === 'response') {
            const s = this.stream(id);
            stream = s;
            resolve(new Response(s.body, { status: m.status, headers: m.headers }));
          }
        },
        (err) => (stream ? stream.crash(err) : reject(err)),
      );
      this.calls++;
      this.send({ id, type: 'call', job }, transfer);
    });
  }

  /** The body of a streamed Response: each pull asks the worker for its next chunks (backpressure). */
  private stream(id: number) {
    let waiting: { resolve: () => void; controller: ReadableStreamDefaultController<Uint8Array> } | null = null;
    const finish = () => this.pending.delete(id);
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) =>
        new Promise<void>((resolve) => {
          waiting = { resolve, controller };
          this.send({ id, type: 'pull' });
        }),
      cancel: () => {
        finish();
        this.send({ id, type: 'cancel' });
      },
    });
    return {
      body,
      push: (m: FromWorker) => {
        const w = waiting;
        if (!w) return;
        waiting = null;
        if (m.type === 'chunk') w.controller.enqueue(m.bytes);
        else if (m.type === 'end') {
          finish();
          w.controller.close();
        } else if (m.type === 'error') {
          finish();
          w.controller.error(new Error(m.message));
        }
        w.resolve();
      },
      crash: (err: Error) => {
        const w = waiting;
        waiting = null;
        w?.controller.error(err);
        w?.resolve();
      },
    };
  }

  stop(): Promise<number> {
    this.dead = true;
    return this.worker.terminate();
  }
}

function rebuildError(m: Extract<FromWorker, { type: 'error' }>): Error {
  // The same exception lib/errors.ts throws, so onError answers `{ message, ...cause }` with the status.
  if (m.status) return new HTTPException(m.status as ContentfulStatusCode, { message: m.message, cause: m.cause });
  return new Error(m.message);
}

const workers = new Map<string, WorkerHandle>();

/** The worker for this database (started on first use), or null when jobs must run in-process. */
export function workerFor(deps: Deps): WorkerHandle | null {
  const target = sharedDatabase(deps);
  if (target === null) return null;
  let w = workers.get(target);
  if (!w || w.dead) workers.set(target, (w = new WorkerHandle(target, deps)));
  return w;
}

/** What a worker thread can open for this database (the SQLite file or PostgreSQL's URL), or null. */
function sharedDatabase({ db, env }: Deps): string | null {
  if (isPg(db)) return isPostgresUrl(env.DATABASE_URL) ? env.DATABASE_URL : null;
  const client = db.$client;
  return client.memory || !client.open ? null : client.name;
}

/**
 * Starts the worker now and settles once it is loaded (api/src/index.ts listens after that): it
 * loads exceljs and the services at background priority, ≈ 0.5 s on a busy machine, which the
 * first import after a start used to wait for.
 */
export function startWorker(deps: Deps): Promise<void> {
  return workerFor(deps)?.ready ?? Promise.resolve();
}

/** How many jobs every worker has been sent (a count, not a timing: tests assert work left this thread). */
export function offloadedCalls(): number {
  let n = 0;
  for (const w of workers.values()) n += w.calls;
  return n;
}

/** Stops every worker (shutdown, tests). */
export async function stopWorkers(): Promise<void> {
  const all = [...workers.values()];
  workers.clear();
  await Promise.all(all.map((w) => w.stop()));
}

/** A job's arguments as the worker receives them, and the buffers to transfer rather than copy. */
export async function cloneableArgs(args: unknown[]): Promise<{ args: unknown[]; transfer: ArrayBuffer[] }> {
  const transfer: ArrayBuffer[] = [];
  const out = await Promise.all(
    args.map(async (a) => {
      if (!(a instanceof File)) return a;
      const bytes = await a.arrayBuffer();
      transfer.push(bytes);
      return { __file: a.name, bytes } satisfies FileArg;
    }),
  );
  return { args: out, transfer };
}

/**
 * `local` with the named methods run by the worker instead (same arguments, same answers and
 * HTTP errors); the others, and every method for an in-memory database, stay on this thread.
 * `around` wraps each offloaded call (the import marks its session as running here meanwhile).
 */
export function offloaded<S extends object>(
  local: S,
  deps: Deps,
  job: Omit<Job, 'method' | 'args'>,
  methods: readonly (keyof S & string)[],
  around: (method: string, args: unknown[], run: () => Promise<unknown>) => Promise<unknown> = (_m, _a, run) => run(),
): S {
  const worker = workerFor(deps);
  if (!worker) return local;
  return new Proxy(local, {
    get(target, prop, receiver) {
      if (typeof prop !== 'string' || !(methods as readonly string[]).includes(prop)) return Reflect.get(target, prop, receiver);
      return (...raw: unknown[]) =>
        around(prop, raw, async () => {
          const { args, transfer } = await cloneableArgs(raw);
          return worker.call({ ...job, method: prop, args }, transfer);
        });
    },
  });
}
