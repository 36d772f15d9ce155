/**
 * Events counted per key in fixed windows, in memory (one process serves the app; a restart
 * forgetting counts is acceptable for a throttle). Old windows are swept when the map grows.
 */
export class FixedWindowCounter {
  private hits = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly windowMs: number) {}

  /** Counts one event and returns how many the key has had in its current window, this one included. */
  hit(key: string, now = Date.now()): number {
    const e = this.hits.get(key);
    if (!e || e.resetAt <= now) {
      if (this.hits.size > 10_000) for (const [k, old] of this.hits) if (old.resetAt <= now) this.hits.delete(k);
      this.hits.set(key, { count: 1, resetAt: now + this.windowMs });
      return 1;
    }
    return ++e.count;
  }

  /** The key's running window, if any. */
  current(key: string, now = Date.now()): { readonly count: number; readonly resetAt: number } | undefined {
    const e = this.hits.get(key);
    return e && e.resetAt > now ? e : undefined;
  }

  /** Takes back one event of the key (it turned out not to count). */
  undo(key: string): void {
    const e = this.hits.get(key);
    if (e && --e.count <= 0) this.hits.delete(key);
  }

  forget(key: string): void {
    this.hits.delete(key);
  }
}
