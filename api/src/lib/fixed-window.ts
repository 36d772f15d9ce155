/**
 * Events counted per key in fixed windows. Two stores with one interface: the database's
 * `rate_windows` (SharedWindowCounter), which every API process of a deployment counts in (issue 28:
 * a limit must not multiply with the processes), and memory (FixedWindowCounter) for a caller with
 * no database. A window's count and end live in its row; a row past its end counts as empty.
 */
import type { Database, Statement } from 'better-sqlite3';

export interface WindowState {
  readonly count: number;
  readonly resetAt: number;
}

export interface WindowCounter {
  /** Counts one event and returns how many the key has had in its current window, this one included. */
  hit(key: string, now?: number): number;
  /** Counts one event; the window's count (this one included) and end. */
  hitWindow(key: string, now?: number): WindowState;
  /** The key's running window, if any. */
  current(key: string, now?: number): WindowState | undefined;
  /** Takes back one event of the key (it turned out not to count). */
  undo(key: string): void;
  forget(key: string): void;
}

/** In memory (one process); old windows are swept when the map grows. */
export class FixedWindowCounter implements WindowCounter {
  private hits = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly windowMs: number) {}

  hit(key: string, now = Date.now()): number {
    return this.hitWindow(key, now).count;
  }

  hitWindow(key: string, now = Date.now()): WindowState {
    const e = this.hits.get(key);
    if (!e || e.resetAt <= now) {
      if (this.hits.size > 10_000) for (const [k, old] of this.hits) if (old.resetAt <= now) this.hits.delete(k);
      const fresh = { count: 1, resetAt: now + this.windowMs };
      this.hits.set(key, fresh);
      return fresh;
    }
    e.count++;
    return e;
  }

  current(key: string, now = Date.now()): WindowState | undefined {
    const e = this.hits.get(key);
    return e && e.resetAt > now ? e : undefined;
  }

  undo(key: string): void {
    const e = this.hits.get(key);
    if (e && --e.count <= 0) this.hits.delete(key);
  }

  forget(key: string): void {
    this.hits.delete(key);
  }
}

interface WindowStatements {
  hit: Statement<{ key: string; now: number; windowMs: number }, WindowState>;
  current: Statement<[string, number], WindowState>;
  undo: Statement<[string]>;
  dropEmpty: Statement<[string]>;
  forget: Statement<[string]>;
  sweep: Statement<[number]>;
}

const prepared = new WeakMap<Database, WindowStatements>();

function statements(sqlite: Database): WindowStatements {
  let s = prepared.get(sqlite);
  if (s) return s;
  s = {
    // One statement (SET reads the old row), so hits from several processes are all counted.
    hit: sqlite.prepare(
      `INSERT INTO rate_windows (key, count, reset_at) VALUES (@key, 1, @now + @windowMs)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN reset_at <= @now THEN 1 ELSE count + 1 END,
         reset_at = CASE WHEN reset_at <= @now THEN @now + @windowMs ELSE reset_at END
       RETURNING count, reset_at AS resetAt`,
    ),
    current: sqlite.prepare('SELECT count, reset_at AS resetAt FROM rate_windows WHERE key = ? AND reset_at > ?'),
    undo: sqlite.prepare('UPDATE rate_windows SET count = count - 1 WHERE key = ?'),
    dropEmpty: sqlite.prepare('DELETE FROM rate_windows WHERE key = ? AND count <= 0'),
    forget: sqlite.prepare('DELETE FROM rate_windows WHERE key = ?'),
    sweep: sqlite.prepare('DELETE FROM rate_windows WHERE reset_at <= ?'),
  };
  prepared.set(sqlite, s);
  return s;
}

/** How often a counter deletes the ended windows of every scope. */
const SWEEP_EVERY_MS = 60_000;

/** In the database, keyed `<scope>:<key>`: counted across every connection (process) of the file. */
export class SharedWindowCounter implements WindowCounter {
  private lastSweep = 0;

  constructor(
    private readonly sqlite: Database,
    private readonly scope: string,
    private readonly windowMs: number,
  ) {}

  private k(key: string) {
    return `${this.scope}:${key}`;
  }

  hit(key: string, now = Date.now()): number {
    return this.hitWindow(key, now).count;
  }

  hitWindow(key: string, now = Date.now()): WindowState {
    const s = statements(this.sqlite);
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      s.sweep.run(now);
    }
    return s.hit.get({ key: this.k(key), now, windowMs: this.windowMs })!;
  }

  current(key: string, now = Date.now()): WindowState | undefined {
    return statements(this.sqlite).current.get(this.k(key), now);
  }

  undo(key: string): void {
    const s = statements(this.sqlite);
    s.undo.run(this.k(key));
    s.dropEmpty.run(this.k(key));
  }

  forget(key: string): void {
    statements(this.sqlite).forget.run(this.k(key));
  }
}
