import { FixedWindowCounter } from '../lib/fixed-window';

/**
 * Failed sign-ins counted per IP and per e-mail in fixed windows (the shared FixedWindowCounter).
 *
 * The sign-in counts an attempt as failed before verifying the password and takes it back on
 * success: verification is async, so counting afterwards would let a burst of parallel guesses
 * all pass the check before the first failure is recorded.
 */
export class LoginRateLimiter {
  private readonly counter: FixedWindowCounter;

  constructor(
    private readonly limit: number,
    windowMs: number,
  ) {
    this.counter = new FixedWindowCounter(windowMs);
  }

  private keys(ip: string | null, email: string): string[] {
    const out = [`email:${email.trim().toLowerCase()}`];
    if (ip) out.push(`ip:${ip.toLowerCase()}`);
    return out;
  }

  /** Seconds until the caller may try again, or 0 when allowed. */
  retryAfter(ip: string | null, email: string, now = Date.now()): number {
    let wait = 0;
    for (const k of this.keys(ip, email)) {
      const e = this.counter.current(k, now);
      if (e && e.count >= this.limit) wait = Math.max(wait, Math.ceil((e.resetAt - now) / 1000));
    }
    return wait;
  }

  recordFailure(ip: string | null, email: string, now = Date.now()): void {
    for (const k of this.keys(ip, email)) this.counter.hit(k, now);
  }

  /**
   * A correct password: the e-mail's failures are forgotten; the IP keeps its real failures
   * (one address trying many accounts) minus the attempt counted up front for this sign-in.
   */
  recordSuccess(ip: string | null, email: string): void {
    const [emailKey, ipKey] = this.keys(ip, email);
    this.counter.forget(emailKey!);
    if (ipKey) this.counter.undo(ipKey);
  }
}
