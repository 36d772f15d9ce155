/**
 * A throwaway PostgreSQL cluster for tests (issue 29), from Debian's binaries: initdb with trust
 * authentication, fsync off, listening on 127.0.0.1 at a free port with its socket in its own
 * directory (in memory where there is room: clusterParent), stopped and removed at the end.
 * PostgreSQL refuses to run as root, so as root the binaries run through `runuser -u postgres` on a
 * directory postgres owns; as anyone else directly.
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  accessSync,
  chownSync,
  constants,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Why PostgreSQL tests cannot run here, or null when they can. */
export function pgUnavailable(): string | null {
  for (const bin of ['initdb', 'pg_ctl', 'postgres']) {
    if (!existsSync(join(PG_BIN, bin))) return `PostgreSQL binaries not found (${join(PG_BIN, bin)}); apt-get install postgresql`;
  }
  return null;
}

/**
 * Why a test that compares both engines (its own cluster beside SQLite) does not run here, or null:
 * PostgreSQL missing, or the TEST_ENGINE=pg pass, where the raw SQL of the whole worker speaks
 * PostgreSQL (db/dialect.ts) — such a test runs in the SQLite pass.
 */
export function comparisonUnavailable(): string | null {
  return pgUnavailable() ?? (process.env.TEST_ENGINE === 'pg' ? 'compares both engines: runs in the SQLite pass' : null);
}

const asRoot = process.getuid?.() === 0;

function command(bin: string, args: string[]): [string, string[]] {
  const file = join(PG_BIN, bin);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface PgCluster {
  port: number;
  dir: string;
  /** postgres://… for a database of this cluster. */
  url(database: string): string;
  /** Creates an empty database and answers its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** Below this much free memory filesystem the cluster goes to the temp directory instead (a run's databases take a few GB). */
const SHM_MIN_FREE = 8 * 1024 ** 3;
const SHM = '/dev/shm';

/** Clusters of runs killed before their stop() (no live postmaster, left over an hour ago): their memory is not freed otherwise. */
function removeStaleClusters() {
  for (const name of readdirSync(SHM).filter((n) => n.startsWith('doanhoi-pg-'))) {
    const dir = join(SHM, name);
    try {
      if (Date.now() - statSync(dir).mtimeMs < 3600_000) continue;
      const pidFile = join(dir, 'data', 'postmaster.pid');
      if (existsSync(pidFile)) {
        const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
        try {
          process.kill(pid, 0);
          continue; // still running
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ESRCH') continue;
        }
      }
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // another run's, or gone already
    }
  }
}

/**
 * Where the cluster lives: PG_TEST_DIR when set; else a memory filesystem when there is one with
 * room, because every test app copies the template database (CREATE DATABASE … TEMPLATE: 540
 * relation files), which took 300–700 ms on an ext4 disk and 15–50 ms on tmpfs; else the temp directory.
 */
function clusterParent(): string {
  if (process.env.PG_TEST_DIR) return process.env.PG_TEST_DIR;
  try {
    accessSync(SHM, constants.W_OK);
    const { bavail, bsize } = statfsSync(SHM);
    if (bavail * bsize >= SHM_MIN_FREE) {
      removeStaleClusters();
      return SHM;
    }
  } catch {
    // no /dev/shm here
  }
  return tmpdir();
}

export async function startPgCluster(): Promise<PgCluster> {
  const missing = pgUnavailable();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(clusterParent(), 'doanhoi-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres']).toString().trim()));
    chownSync(dir, uid, gid);
  }
  const [initdb, initArgs] = command('initdb', [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-sync',
  ]);
  await run(initdb, initArgs);

  let port = 0;
  const ctl = (...args: string[]) => {
    const [file, argv] = command('pg_ctl', ['-D', data, ...args]);
    return run(file, argv);
  };
  // The free port can be taken between asking and listening: try a few.
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=500`;
    try {
      await ctl('-o', options, '-l', join(dir, 'log'), '-w', '-t', '30', 'start');
      break;
    } catch (error) {
      if (attempt >= 2) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }

  // A test process that dies without stop() must not leave a server behind.
  const stopNow = () => {
    const [file, argv] = command('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
    try {
      execFileSync(file, argv, { stdio: 'ignore' });
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopNow);

  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    dir,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async stop() {
      process.removeListener('exit', stopNow);
      await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
