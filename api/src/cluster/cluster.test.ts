/**
 * The cluster entry as an operator runs it (WEB_CONCURRENCY=2 on a file database): both workers
 * answer, a second deployment on the file is refused, a worker killed with SIGKILL is replaced
 * while requests keep being answered, and SIGTERM lets a request in flight finish before the exit.
 * Which process answered is read from /proc: the pid holding the server end of the connection.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../env';
import { restartDelay } from './primary';
import { portClosed, socketOwner } from './sockets.fixture';

// About the SQLite file itself (locks, WAL, file backups): not run again in the TEST_ENGINE=pg pass.
const SQLITE_FILE_ONLY = process.env.TEST_ENGINE === 'pg';

// Not made in the PostgreSQL pass, where the suite is skipped and its afterAll never runs.
const dir = SQLITE_FILE_ONLY ? '' : mkdtempSync(join(tmpdir(), 'doanhoi-cluster-'));
const dbPath = join(dir, 'app.db');
const started: ChildProcess[] = [];
/** The first server's output, quoted when a step times out. */
let firstOutput = () => '';

function start(extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(REPO_ROOT, 'api/src/index.ts')], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      DATABASE_PATH: dbPath,
      PORT: '0',
      HOST: '127.0.0.1',
      WEB_CONCURRENCY: '2',
      ADMIN_PASSWORD: 'admin123',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  if (started.length === 1) firstOutput = () => out.slice(-3000);
  return { child, output: () => out };
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 150_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${firstOutput()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The node processes whose parent is `pid` (under tsx the primary also has an esbuild child). */
/** `p`, or a failure naming `what` after `ms` (a socket that never answers would hang the test silently). */
function within<T>(what: string, p: Promise<T>, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms\n${firstOutput()}`)), ms)),
  );
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

function childrenOf(pid: number): number[] {
  const kids: number[] = [];
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      // Field 4 of /proc/<pid>/stat, after the parenthesised command name.
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid && stat.includes('(node)')) kids.push(Number(p));
    } catch {
      /* gone meanwhile */
    }
  }
  return kids;
}

/** One request on a connection of its own; answers the status and the pid that served it. */
async function ask(port: number, pids: () => number[]): Promise<{ status: number; pid?: number }> {
  const sock = connect(port, '127.0.0.1');
  try {
    await within('connection', once(sock, 'connect'));
    sock.write('GET /api/cluster-probe HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const [chunk] = (await within('answer', once(sock, 'data'))) as [Buffer];
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString())?.[1]);
    return { status, pid: socketOwner(port, sock.localPort!, pids()) };
  } finally {
    sock.destroy();
  }
}

afterAll(async () => {
  for (const c of started) if (c.exitCode === null) c.kill('SIGKILL');
  await Promise.all(started.map((c) => (c.exitCode === null && c.signalCode === null ? once(c, 'exit') : null)));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(SQLITE_FILE_ONLY)('WEB_CONCURRENCY=2', () => {
  it('restarts at once after a lone death, with a growing pause when workers keep dying young', () => {
    expect([1, 2, 3, 4, 10, 20].map(restartDelay)).toEqual([0, 500, 1000, 2000, 30_000, 30_000]);
  });

  // Four processes load the TypeScript sources through tsx: minutes on a machine at load 15+.
  it('two workers answer; a second start is refused; a killed worker is replaced; SIGTERM drains', async () => {
    const primary = start();
    const port = await until('the banner', () => {
      const m = /running at http:\/\/localhost:(\d+)/.exec(primary.output());
      if (primary.child.exitCode !== null) throw new Error(primary.output());
      // The banner's last line (SEED_DEMO=false) shows it is printed whole.
      return m && primary.output().includes('payOS:') ? Number(m[1]) : undefined;
    });
    // One banner for the deployment, one generated-or-set password line.
    expect(primary.output().match(/is running at/g)).toHaveLength(1);
    expect(primary.output()).toContain('Workers:  2 API processes');
    const workers = () => childrenOf(primary.child.pid!);
    expect(workers()).toHaveLength(2);

    const seen = new Set<number>();
    for (let i = 0; i < 10; i++) {
      const r = await ask(port, workers);
      expect(r.status).toBe(404);
      seen.add(r.pid!);
    }
    expect([...seen].sort()).toEqual(workers().sort());
    // Every worker starts the periodic jobs; the lease gives each to one of them (lib/lease.ts).
    const db = new Database(dbPath, { readonly: true });
    const leases = db.prepare('SELECT name, holder FROM leases').all() as { name: string; holder: string }[];
    db.close();
    expect(leases.map((l) => l.name)).toContain('payments');
    for (const l of leases) expect(workers()).toContain(Number(l.holder.split(':')[1]));

    // Two `npm start`s on one file: the second is refused while the first deployment holds it.
    const second = start();
    const [code] = (await within('refusal of the second start', once(second.child, 'exit'), 150_000)) as [number];
    expect(code).toBe(1);
    expect(second.output()).toContain(`Another server process (pid ${primary.child.pid})`);

    const [victim, survivor] = workers();
    process.kill(victim!, 'SIGKILL');
    // A connection handed out in the very instant of the kill is lost with it (round-robin, primary.ts);
    // once the primary has seen the death, every request is answered while the replacement starts.
    await until('the primary to see the death', () => (primary.output().includes('An API worker died') ? true : undefined));
    const failed: string[] = [];
    const replacement = await until('a replacement worker answering', async () => {
      const r = await ask(port, workers).catch((err: Error) => ({ status: 0, pid: undefined, err: err.message.split('\n')[0] }));
      if (r.status !== 404) failed.push(`${Date.now()} ${'err' in r ? r.err : r.status}`);
      return r.pid !== undefined && r.pid !== victim && r.pid !== survivor ? r.pid : undefined;
    });
    expect(failed).toEqual([]);
    expect(workers().sort()).toEqual([survivor, replacement].sort());

    // A request in flight (its body half sent) when SIGTERM comes is still answered.
    const body = JSON.stringify({ email: 'admin@doanhoi.local', password: 'admin123' });
    const sock: Socket = connect(port, '127.0.0.1');
    await once(sock, 'connect');
    sock.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    sock.write(body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 300));
    const exited = once(primary.child, 'exit');
    primary.child.kill('SIGTERM');
    // New connections are refused once every worker has stopped accepting.
    await until('the port to close', () => portClosed(port), 10_000);
    const answer = once(sock, 'data');
    sock.write(body.slice(10));
    const [chunk] = (await within('answer to the request in flight', answer)) as [Buffer];
    expect(chunk.toString()).toMatch(/^HTTP\/1\.1 200/);
    sock.destroy();
    const [exitCode] = (await within('exit after SIGTERM', exited, 60_000)) as [number];
    expect(exitCode).toBe(0);
    expect(existsSync(`${dbPath}.lock`)).toBe(false);
  }, 400_000);
});
