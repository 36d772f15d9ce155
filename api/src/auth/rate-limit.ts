/**
 * Failed sign-ins counted per IP and per e-mail in a fixed window. In memory: one process
 * serves the app, and a restart forgetting counts is acceptable for a throttle.
 */
export class LoginRateLimiter {
  private hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private key(kind: 'ip' | 'email', v: string) {
    return `${kind}:${v.toLowerCase()}`;
  }

  /** Seconds until the caller may try again, or 0 when allowed. */
  retryAfter(ip: string | null, email: string, now = Date.now()): number {
    let wait = 0;
    for (const k of [ip ? this.key('ip', ip) : null, this.key('email', email)]) {
      if (!k) continue;
      const e = this.hits.get(k);
      if (e && e.resetAt > now && e.count >= this.limit) wait = Math.max(wait, Math.ceil((e.resetAt - now) / 1000));
    }
    return wait;
  }

  recordFailure(ip: string | null, email: string, now = Date.now()): void {
    for (const k of [ip ? this.key('ip', ip) : null, this.key('email', email)]) {
      if (!k) continue;
      const e = this.hits.get(k);
      if (!e || e.resetAt <= now) this.hits.set(k, { count: 1, resetAt: now + this.windowMs });
      else e.count++;
    }
    if (this.hits.size > 10_000) for (const [k, e] of this.hits) if (e.resetAt <= now) this.hits.delete(k);
  }

  recordSuccess(email: string): void {
    this.hits.delete(this.key('email', email));
  }
}
