/**
 * Failed sign-ins, counted in fixed windows in memory (one process serves the app, and a restart
 * forgetting counts is acceptable for a throttle).
 *
 * Nothing here can lock the real owner out: a hard stop (429) applies only to one address guessing
 * one account (address + e-mail) or one address guessing many accounts (address alone). An
 * account under attack from many addresses is slowed instead: past `limit` failures on its e-mail,
 * every attempt on it waits a delay that doubles with each further failure, up to `maxDelayMs`,
 * and is then answered normally, so the owner's right password still signs in from elsewhere.
 *
 * The sign-in counts an attempt as failed before verifying the password and takes it back on
 * success: verification is async, so counting afterwards would let a burst of parallel guesses
 * all pass the check before the first failure is recorded.
 */
export interface ThrottleOptions {
  /** Failures from one address across all e-mails before that address is refused. */
  ipLimit: number;
  /** Ceiling of the per-e-mail delay. */
  maxDelayMs: number;
}

type Entry = { count: number; resetAt: number };

export class LoginRateLimiter {
  private hits = new Map<string, Entry>();
  private readonly options: ThrottleOptions;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    options: Partial<ThrottleOptions> = {},
  ) {
    this.options = { ipLimit: options.ipLimit ?? limit * 10, maxDelayMs: options.maxDelayMs ?? 10_000 };
  }

  private keys(ip: string | null, email: string) {
    const e = email.trim().toLowerCase();
    const i = ip?.toLowerCase() ?? null;
    return { pair: `pair:${i ?? '-'}|${e}`, ip: i ? `ip:${i}` : null, email: `email:${e}` };
  }

  private live(key: string | null, now: number): Entry | undefined {
    const e = key ? this.hits.get(key) : undefined;
    return e && e.resetAt > now ? e : undefined;
  }

  /** Seconds until this address may try this e-mail again, or 0 when allowed. */
  retryAfter(ip: string | null, email: string, now = Date.now()): number {
    const k = this.keys(ip, email);
    let wait = 0;
    for (const [key, max] of [[k.pair, this.limit], [k.ip, this.options.ipLimit]] as const) {
      const e = this.live(key, now);
      if (e && e.count >= max) wait = Math.max(wait, Math.ceil((e.resetAt - now) / 1000));
    }
    return wait;
  }

  /** How long this attempt waits before being checked: grows with the e-mail's failures from anywhere. */
  delayMs(email: string, now = Date.now()): number {
    const e = this.live(this.keys(null, email).email, now);
    if (!e || e.count < this.limit) return 0;
    return Math.min(this.options.maxDelayMs, 250 * 2 ** Math.min(e.count - this.limit, 16));
  }

  recordFailure(ip: string | null, email: string, now = Date.now()): void {
    const k = this.keys(ip, email);
    for (const key of [k.pair, k.ip, k.email]) {
      if (!key) continue;
      const e = this.live(key, now);
      if (!e) this.hits.set(key, { count: 1, resetAt: now + this.windowMs });
      else e.count++;
    }
    if (this.hits.size > 10_000) for (const [key, e] of this.hits) if (e.resetAt <= now) this.hits.delete(key);
  }

  /**
   * A correct password: the account's failures are forgotten; the address keeps its real failures
   * (one address trying many accounts) minus the attempt counted up front for this sign-in.
   */
  recordSuccess(ip: string | null, email: string): void {
    const k = this.keys(ip, email);
    this.hits.delete(k.pair);
    this.hits.delete(k.email);
    const e = k.ip ? this.hits.get(k.ip) : undefined;
    if (e && --e.count <= 0) this.hits.delete(k.ip!);
  }
}
