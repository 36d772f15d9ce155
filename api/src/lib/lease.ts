/**
 * Work that one process of a deployment must do alone (issue 28 item 2): periodic jobs, WAL
 * checkpoints, an import being executed. Several API processes share one database file, so the
 * right to do it is a row of `leases` (name, holder, expires_at): taken with a conditional upsert
 * when free or expired, renewed by its holder while it works, and taken over by another process
 * once it expires (the holder died or hangs). A holder on this machine whose process is gone is
 * taken over at once, so a restarted server does not wait out its predecessor's lease.
 *
 * The SQL is what SQLite and PostgreSQL both accept (issue 29), run through db/engine.ts.
 *
 * The holder is one Lease object, not one process: two app instances in one test process (or a
 * worker thread beside the request thread) hold leases apart, as two processes would.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sqlGet, sqlRun } from '../db/engine';
import { isPg, pgPoolOf } from '../db/postgres';
import { logger } from './logger';

/** How long a lease lasts unless renewed; the holder renews it when a third has passed. */
export const LEASE_TTL_MS = 30_000;

const HOST = hostname();

type LeaseRow = { holder: string; expiresAt: number };

const readLease = (db: Db, name: string) =>
  sqlGet<LeaseRow | undefined>(db, sql`SELECT holder, expires_at AS "expiresAt" FROM leases WHERE name = ${name}`);

/** A closed database (a stopped app, a test torn down) holds nothing and is not asked. */
function isOpen(db: Db): boolean {
  return isPg(db) ? !pgPoolOf(db)!.ending : db.$client.open;
}

/** This process as deadHere reads it: `host:pid`. */
export const THIS_PROCESS = `${HOST}:${process.pid}`;

/** A holder on this machine whose process no longer runs (another process's id only: threads share ours). */
export function deadHere(holder: string): boolean {
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
    /** The shared database. */
    private readonly db: Db,
    readonly name: string,
    private readonly ttlMs = LEASE_TTL_MS,
  ) {}

  /** Takes the lease or renews it; whether this holder has it now. */
  async hold(now = Date.now()): Promise<boolean> {
    if (!isOpen(this.db)) return false;
    const row = await readLease(this.db, this.name);
    // Held and renewed less than a third of its time ago: no write.
    if (row?.holder === this.holder && row.expiresAt - now > (this.ttlMs * 2) / 3) return true;
    const dead = row && row.holder !== this.holder && row.expiresAt > now ? (deadHere(row.holder) ? row.holder : null) : '';
    if (dead === null) return false;
    // One statement, so two processes racing for a free lease cannot both get it.
    const taken = await sqlGet<{ holder: string } | undefined>(
      this.db,
      sql`INSERT INTO leases (name, holder, expires_at) VALUES (${this.name}, ${this.holder}, ${now + this.ttlMs})
          ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
          WHERE leases.holder = ${this.holder} OR leases.expires_at <= ${now} OR leases.holder = ${dead}
          RETURNING holder`,
    );
    return !!taken;
  }

  /** Gives the lease up (a clean stop), so another process need not wait for it to expire. */
  async release(): Promise<void> {
    if (isOpen(this.db)) await sqlRun(this.db, sql`DELETE FROM leases WHERE name = ${this.name} AND holder = ${this.holder}`);
  }
}

/**
 * Runs `run` every `everyMs` in whichever process holds the lease `name`, at once in the process
 * that takes it. Every process checks the lease every `checkMs` (a third of its lifetime at most),
 * so the holder keeps it while it lives (a long run included: the timer renews meanwhile) and a
 * survivor takes over within a lease's lifetime of the holder's death. Returns a stop function.
 */
export async function leasedInterval(
  db: Db,
  name: string,
  everyMs: number,
  run: () => void | Promise<unknown>,
  { ttlMs = LEASE_TTL_MS, checkMs = Math.min(everyMs, ttlMs / 3) }: { ttlMs?: number; checkMs?: number } = {},
): Promise<() => void> {
  const lease = new Lease(db, name, ttlMs);
  let lastRun = -Infinity;
  let warned = false;
  let running = false;
  /** The check under way: checks do not pile up behind a slow database, and a stop releases after it. */
  let checking: Promise<boolean> | undefined;
  let stopped = false;
  const tick = async () => {
    if (checking || stopped) return;
    let held = false;
    try {
      held = await (checking = lease.hold());
      warned = false;
    } catch (err) {
      // A busy database skips this turn; the lease is tried again on the next (said once, not every tick).
      if (!warned) logger.warn({ err, lease: name }, 'lease: could not be checked');
      warned = true;
    } finally {
      checking = undefined;
    }
    if (!held || running || stopped) return;
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
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    const check = checking?.catch(() => false);
    (check ? check.then(() => lease.release()) : lease.release()).catch((err: unknown) =>
      logger.warn({ err, lease: name }, 'lease: could not be released'),
    );
  };
}

/**
 * Takes the lease `name` for a piece of work (an import being executed) and renews it until
 * released; null when another holder has it.
 */
export async function takeLease(db: Db, name: string, ttlMs = LEASE_TTL_MS): Promise<{ release(): Promise<void> } | null> {
  const lease = new Lease(db, name, ttlMs);
  if (!(await lease.hold())) return null;
  const timer = setInterval(() => {
    lease.hold().catch((err: unknown) => logger.warn({ err, lease: name }, 'lease: could not be renewed'));
  }, ttlMs / 3);
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      await lease.release();
    },
  };
}

/** Whether a live holder has the lease `name` (not expired, and not a process on this machine that is gone). */
export async function leaseHeld(db: Db, name: string, now = Date.now()): Promise<boolean> {
  const row = await readLease(db, name);
  return !!row && row.expiresAt > now && !deadHere(row.holder);
}
