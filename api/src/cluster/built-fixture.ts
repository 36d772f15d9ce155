/**
 * The server as `npm start` runs it, for tests that need real processes: the API bundled (as
 * scripts/build-api.mjs does for api/dist, into a directory of this test's own so a build for the
 * e2e suite is never overwritten mid-run), started with WEB_CONCURRENCY=2 on a fresh database file
 * and a free port, and plain HTTP to it.
 */
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import pg from 'pg';
import { REPO_ROOT } from '../env';
import { socketOwner as serverSocketOwner } from './sockets.fixture';

export interface Answer {
  status: number;
  body: any;
}

export type BuiltCluster = Awaited<ReturnType<typeof startBuiltCluster>>;

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** Under TEST_ENGINE=pg, an empty database of the run's cluster for the server to migrate and seed. */
async function pgDatabase(): Promise<Record<string, string>> {
  if (process.env.TEST_ENGINE !== 'pg') return {};
  const name = `built_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: `${inject('pgServer')}postgres` });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return { DATABASE_URL: `${inject('pgServer')}${name}` };
}

/**
 * Starts the cluster (`env` adds to its environment) and resolves once its banner is printed; under
 * TEST_ENGINE=pg on a PostgreSQL database of its own (the file path then holds only the secrets).
 */
export async function startBuiltCluster(env: Record<string, string> = {}) {
  const onPg = await pgDatabase();
  const dir = mkdtempSync(join(tmpdir(), 'doanhoi-built-'));
  const dbPath = join(dir, 'app.db');
  // Two levels below the repository, as api/dist is (env.ts finds the repository from the bundle).
  const bundle = join(REPO_ROOT, 'node_modules', `.built-cluster-${process.pid}-${Date.now()}`);
  const built = spawnSync(process.execPath, [resolve(REPO_ROOT, 'scripts/build-api.mjs'), bundle], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(built.stderr);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const primary = spawn(process.execPath, [join(bundle, 'index.js')], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATABASE_PATH: dbPath,
      PORT: String(port),
      HOST: '127.0.0.1',
      WEB_CONCURRENCY: '2',
      ADMIN_PASSWORD: 'admin123',
      SEED_DEMO: 'false',
      LOGIN_RATE_LIMIT: '100000',
      LOG_LEVEL: 'warn',
      ...onPg,
      ...env,
    },
  });
  let out = '';
  primary.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  primary.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const output = () => out;

  /** The primary's live node children: its workers (a killed one not yet reaped is a zombie, state Z). */
  function workers(): number[] {
    const kids: number[] = [];
    for (const p of readdirSync('/proc')) {
      if (!/^\d+$/.test(p)) continue;
      try {
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(fields[1]) === primary.pid && fields[0] !== 'Z') kids.push(Number(p));
      } catch {
        /* gone meanwhile */
      }
    }
    return kids.sort();
  }

  /** The pid among `pids` holding the server end of the connection from local port `clientPort`. */
  const socketOwner = (clientPort: number, pids: number[]) => serverSocketOwner(port, clientPort, pids);

  async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = await probe();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${out.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** One request; a network failure or no answer within 5 s (its worker died with it) answers status 0. */
  async function api(method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const h: Record<string, string> = { ...headers };
    if (token) h.authorization = `Bearer ${token}`;
    let payload: RequestInit['body'];
    if (body instanceof FormData || typeof body === 'string') payload = body;
    else if (body !== undefined) {
      h['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    try {
      const res = await fetch(`${base}${path}`, { method, headers: h, body: payload, signal: AbortSignal.timeout(5_000) });
      const text = await res.text();
      let json: unknown = text;
      try {
        json = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      return { status: res.status, body: json };
    } catch {
      return { status: 0, body: null };
    }
  }

  async function must(method: string, path: string, token?: string, body?: unknown): Promise<any> {
    const r = await api(method, path, token, body);
    if (r.status < 200 || r.status > 299) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  function stop() {
    // The workers first: once the primary is gone they are no longer found as its children.
    for (const pid of workers()) process.kill(pid, 'SIGKILL');
    if (primary.exitCode === null) primary.kill('SIGKILL');
    rmSync(bundle, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }

  try {
    // Seconds when idle; a minute and more beside the rest of the suite on a loaded machine.
    await until(
      'the banner',
      () => {
        if (primary.exitCode !== null) throw new Error(out);
        return out.includes('payOS:') ? true : undefined;
      },
      110_000,
    );
  } catch (err) {
    stop();
    throw err;
  }
  /**
   * Reads the server's database behind its back, on either engine: `?` placeholders, quoted aliases;
   * `value` answers the first column of the first row (counts as numbers).
   */
  async function reader() {
    if (onPg.DATABASE_URL) {
      const client = new pg.Client({ connectionString: onPg.DATABASE_URL });
      await client.connect();
      const all = async (text: string, ...params: unknown[]) => {
        let n = 0;
        return (
          await client.query(
            text.replace(/\?/g, () => `$${++n}`),
            params,
          )
        ).rows as Record<string, unknown>[];
      };
      return { all, close: () => client.end() };
    }
    const db = new Database(dbPath, { readonly: true });
    return {
      all: async (text: string, ...params: unknown[]) => db.prepare(text).all(...params) as Record<string, unknown>[],
      close: async () => db.close(),
    };
  }

  async function read(text: string, ...params: unknown[]) {
    const r = await reader();
    try {
      return await r.all(text, ...params);
    } finally {
      await r.close();
    }
  }

  const value = async (text: string, ...params: unknown[]) => {
    const v = Object.values((await read(text, ...params))[0] ?? {})[0];
    return typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  };

  return { base, dbPath, primary, output, workers, socketOwner, until, api, must, stop, read, value };
}
