/**
 * Failed sign-ins counted per IP and per e-mail in a fixed window. In memory: one process
 * serves the app, and a restart forgetting counts is acceptable for a throttle.
 *
 * The sign-in counts an attempt as failed before verifying the password and takes it back on
 * success: verification is async, so counting afterwards would let a burst of parallel guesses
 * all pass the check before the first failure is recorded.
 */
export class LoginRateLimiter {
  private hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  private keys(ip: string | null, email: string): string[] {
    const out = [`email:${email.trim().toLowerCase()}`];
    if (ip) out.push(`ip:${ip.toLowerCase()}`);
    return out;
  }

  /** Seconds until the caller may try again, or 0 when allowed. */
  retryAfter(ip: string | null, email: string, now = Date.now()): number {
    let wait = 0;
    for (const k of this.keys(ip, email)) {
      const e = this.hits.get(k);
      if (e && e.resetAt > now && e.count >= this.limit) wait = Math.max(wait, Math.ceil((e.resetAt - now) / 1000));
    }
    return wait;
  }

  recordFailure(ip: string | null, email: string, now = Date.now()): void {
    for (const k of this.keys(ip, email)) {
      const e = this.hits.get(k);
      if (!e || e.resetAt <= now) this.hits.set(k, { count: 1, resetAt: now + this.windowMs });
      else e.count++;
    }
    if (this.hits.size > 10_000) for (const [k, e] of this.hits) if (e.resetAt <= now) this.hits.delete(k);
  }

  /**
   * A correct password: the e-mail's failures are forgotten; the IP keeps its real failures
   * (one address trying many accounts) minus the attempt counted up front for this sign-in.
   */
  recordSuccess(ip: string | null, email: string): void {
    const [emailKey, ipKey] = this.keys(ip, email);
    this.hits.delete(emailKey!);
    const e = ipKey ? this.hits.get(ipKey) : undefined;
    if (e && --e.count <= 0) this.hits.delete(ipKey!);
  }
}
