/**
 * Work that one process of a deployment must do alone (issue 28 item 2): periodic jobs, WAL
 * checkpoints, an import being executed. Several API processes share one database file, so the
 * right to do it is a row of `leases` (name, holder, expires_at): taken with a conditional upsert
 * when free or expired, renewed by its holder while it works, and taken over by another process
 * once it expires (the holder died or hangs). A holder on this machine whose process is gone is
 * taken over at once, so a restarted server does not wait out its predecessor's lease.
 *
 * The holder is one Lease object, not one process: two app instances in one test process (or a
 * worker thread beside the request thread) hold leases apart, as two processes would.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Database, Statement } from 'better-sqlite3';
import { logger } from './logger';

/** How long a lease lasts unless renewed; the holder renews it when a third has passed. */
export const LEASE_TTL_MS = 30_000;

const HOST = hostname();

interface LeaseStatements {
  read: Statement<[string], { holder: string; expiresAt: number }>;
  take: Statement<{ name: string; holder: string; expiresAt: number; now: number; dead: string }, { holder: string }>;
  release: Statement<[string, string]>;
}

const prepared = new WeakMap<Database, LeaseStatements>();

function statements(sqlite: Database): LeaseStatements {
  let s = prepared.get(sqlite);
  if (s) return s;
  s = {
    read: sqlite.prepare('SELECT holder, expires_at AS expiresAt FROM leases WHERE name = ?'),
    // One statement, so two processes racing for a free lease cannot both get it.
    take: sqlite.prepare(
      `INSERT INTO leases (name, holder, expires_at) VALUES (@name, @holder, @expiresAt)
       ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE leases.holder = @holder OR leases.expires_at <= @now OR leases.holder = @dead
       RETURNING holder`,
    ),
    release: sqlite.prepare('DELETE FROM leases WHERE name = ? AND holder = ?'),
  };
  prepared.set(sqlite, s);
  return s;
}

/** A holder on this machine whose process no longer runs (another process's id only: threads share ours). */
function deadHere(holder: string): boolean {
  const [host, pid] = holder.split(':');
  const n = Number(pid);
  if (host !== HOST || !Number.isSafeInteger(n) || n <= 0 || n === process.pid) return false;
  try {
    process.kill(n, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export class Lease {
  readonly holder = `${HOST}:${process.pid}:${randomBytes(6).toString('hex')}`;

  constructor(
    /** A connection to the shared database (better-sqlite3's, as `db.$client`). */
    private readonly sqlite: Database,
    readonly name: string,
    private readonly ttlMs = LEASE_TTL_MS,
  ) {}

  /** Takes the lease or renews it; whether this holder has it now. */
  hold(now = Date.now()): boolean {
    if (!this.sqlite.open) return false;
    const s = statements(this.sqlite);
    const row = s.read.get(this.name);
    // Held and renewed less than a third of its time ago: no write.
    if (row?.holder === this.holder && row.expiresAt - now > (this.ttlMs * 2) / 3) return true;
    const dead = row && row.holder !== this.holder && row.expiresAt > now ? (deadHere(row.holder) ? row.holder : null) : '';
    if (dead === null) return false;
    return !!s.take.get({ name: this.name, holder: this.holder, expiresAt: now + this.ttlMs, now, dead });
  }

  /** Gives the lease up (a clean stop), so another process need not wait for it to expire. */
  release(): void {
    if (this.sqlite.open) statements(this.sqlite).release.run(this.name, this.holder);
  }
}

/**
 * Runs `run` every `everyMs` in whichever process holds the lease `name`, at once in the process
 * that takes it. Every process checks the lease every `checkMs` (a third of its lifetime at most),
 * so the holder keeps it while it lives (a long run included: the timer renews meanwhile) and a
 * survivor takes over within a lease's lifetime of the holder's death. Returns a stop function.
 */
export async function leasedInterval(
  sqlite: Database,
  name: string,
  everyMs: number,
  run: () => void | Promise<unknown>,
  { ttlMs = LEASE_TTL_MS, checkMs = Math.min(everyMs, ttlMs / 3) }: { ttlMs?: number; checkMs?: number } = {},
): Promise<() => void> {
  const lease = new Lease(sqlite, name, ttlMs);
  let lastRun = -Infinity;
  let warned = false;
  let running = false;
  const tick = async () => {
    let held = false;
    try {
      held = lease.hold();
      warned = false;
    } catch (err) {
      // A busy database skips this turn; the lease is tried again on the next (said once, not every tick).
      if (!warned) logger.warn({ err, lease: name }, 'lease: could not be checked');
      warned = true;
    }
    if (!held || running) return;
    const now = Date.now();
    if (now - lastRun < everyMs) return;
    lastRun = now;
    // A run that outlasts the interval is not started again beside itself.
    running = true;
    try {
      await run();
    } catch (err) {
      logger.error({ err, lease: name }, 'lease: the periodic job failed');
    } finally {
      running = false;
    }
  };
  await tick();
  const timer = setInterval(() => void tick(), checkMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    try {
      lease.release();
    } catch (err) {
      logger.warn({ err, lease: name }, 'lease: could not be released');
    }
  };
}

/**
 * Takes the lease `name` for a piece of work (an import being executed) and renews it until
 * released; null when another holder has it.
 */
export function takeLease(sqlite: Database, name: string, ttlMs = LEASE_TTL_MS): { release(): void } | null {
  const lease = new Lease(sqlite, name, ttlMs);
  if (!lease.hold()) return null;
  const timer = setInterval(() => {
    try {
      lease.hold();
    } catch (err) {
      logger.warn({ err, lease: name }, 'lease: could not be renewed');
    }
  }, ttlMs / 3);
  timer.unref();
  return {
    release() {
      clearInterval(timer);
      lease.release();
    },
  };
}

/** Whether a live holder has the lease `name` (not expired, and not a process on this machine that is gone). */
export function leaseHeld(sqlite: Database, name: string, now = Date.now()): boolean {
  const row = statements(sqlite).read.get(name);
  return !!row && row.expiresAt > now && !deadHere(row.holder);
}
