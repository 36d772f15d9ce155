/**
 * Events counted per key in fixed windows. Two stores with one interface: the database's
 * `rate_windows` (SharedWindowCounter), which every API process of a deployment counts in (issue 28:
 * a limit must not multiply with the processes), and memory (FixedWindowCounter) for a caller with
 * no database. A window's count and end live in its row; a row past its end counts as empty. Both
 * answer asynchronously, as the database does on PostgreSQL (issue 29).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { sqlGet, sqlRun } from '../db/engine';

export interface WindowState {
  readonly count: number;
  readonly resetAt: number;
}

export interface WindowCounter {
  /** Counts one event and returns how many the key has had in its current window, this one included. */
  hit(key: string, now?: number): Promise<number>;
  /** Counts one event; the window's count (this one included) and end. */
  hitWindow(key: string, now?: number): Promise<WindowState>;
  /** The key's running window, if any. */
  current(key: string, now?: number): Promise<WindowState | undefined>;
  /** Takes back one event of the key (it turned out not to count). */
  undo(key: string): Promise<void>;
  forget(key: string): Promise<void>;
}

/** In memory (one process); old windows are swept when the map grows. */
export class FixedWindowCounter implements WindowCounter {
  private hits = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly windowMs: number) {}

  async hit(key: string, now = Date.now()): Promise<number> {
    return (await this.hitWindow(key, now)).count;
  }

  // Copies, not the live entry: a later hit must not change what an earlier caller was told.
  async hitWindow(key: string, now = Date.now()): Promise<WindowState> {
    const e = this.hits.get(key);
    if (!e || e.resetAt <= now) {
      if (this.hits.size > 10_000) for (const [k, old] of this.hits) if (old.resetAt <= now) this.hits.delete(k);
      const fresh = { count: 1, resetAt: now + this.windowMs };
      this.hits.set(key, fresh);
      return { ...fresh };
    }
    e.count++;
    return { ...e };
  }

  async current(key: string, now = Date.now()): Promise<WindowState | undefined> {
    const e = this.hits.get(key);
    return e && e.resetAt > now ? { ...e } : undefined;
  }

  async undo(key: string): Promise<void> {
    const e = this.hits.get(key);
    if (e && --e.count <= 0) this.hits.delete(key);
  }

  async forget(key: string): Promise<void> {
    this.hits.delete(key);
  }
}

/** How often a counter deletes the ended windows of every scope. */
const SWEEP_EVERY_MS = 60_000;

/**
 * In the database, keyed `<scope>:<key>`: counted across every process on it. The SQL is what
 * SQLite and PostgreSQL both accept (columns qualified inside DO UPDATE, the alias quoted).
 */
export class SharedWindowCounter implements WindowCounter {
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly scope: string,
    private readonly windowMs: number,
  ) {}

  private k(key: string) {
    return `${this.scope}:${key}`;
  }

  async hit(key: string, now = Date.now()): Promise<number> {
    return (await this.hitWindow(key, now)).count;
  }

  async hitWindow(key: string, now = Date.now()): Promise<WindowState> {
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      await sqlRun(this.db, sql`DELETE FROM rate_windows WHERE reset_at <= ${now}`);
    }
    const end = now + this.windowMs;
    // One statement (SET reads the old row), so hits from several processes are all counted.
    return sqlGet<WindowState>(
      this.db,
      sql`INSERT INTO rate_windows (key, count, reset_at) VALUES (${this.k(key)}, 1, ${end})
          ON CONFLICT (key) DO UPDATE SET
            count = CASE WHEN rate_windows.reset_at <= ${now} THEN 1 ELSE rate_windows.count + 1 END,
            reset_at = CASE WHEN rate_windows.reset_at <= ${now} THEN ${end} ELSE rate_windows.reset_at END
          RETURNING count, reset_at AS "resetAt"`,
    );
  }

  async current(key: string, now = Date.now()): Promise<WindowState | undefined> {
    return sqlGet<WindowState | undefined>(
      this.db,
      sql`SELECT count, reset_at AS "resetAt" FROM rate_windows WHERE key = ${this.k(key)} AND reset_at > ${now}`,
    );
  }

  async undo(key: string): Promise<void> {
    await sqlRun(this.db, sql`UPDATE rate_windows SET count = count - 1 WHERE key = ${this.k(key)}`);
    await sqlRun(this.db, sql`DELETE FROM rate_windows WHERE key = ${this.k(key)} AND count <= 0`);
  }

  async forget(key: string): Promise<void> {
    await sqlRun(this.db, sql`DELETE FROM rate_windows WHERE key = ${this.k(key)}`);
  }
}
