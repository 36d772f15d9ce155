/**
 * Failed sign-ins, counted in fixed windows: in the database when given one (`shared`), so every
 * API process of the deployment counts the same attempts (issue 28), else in memory.
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
import type { Db } from '../db/client';
import { FixedWindowCounter, SharedWindowCounter, type WindowCounter } from '../lib/fixed-window';

export interface ThrottleOptions {
  /** Failures from one address across all e-mails before that address is refused. */
  ipLimit: number;
  /** Ceiling of the per-e-mail delay. */
  maxDelayMs: number;
  /** The database to count in (its rate_windows), shared by the processes on it. */
  shared?: Db;
}

export class LoginRateLimiter {
  /** One counter for the three keys (pair:, ip:, email:), which share the window. */
  private readonly hits: WindowCounter;
  private readonly options: Omit<ThrottleOptions, 'shared'>;

  constructor(
    private readonly limit: number,
    windowMs: number,
    options: Partial<ThrottleOptions> = {},
  ) {
    this.hits = options.shared ? new SharedWindowCounter(options.shared, 'login', windowMs) : new FixedWindowCounter(windowMs);
    this.options = { ipLimit: options.ipLimit ?? limit * 10, maxDelayMs: options.maxDelayMs ?? 10_000 };
  }

  private keys(ip: string | null, email: string) {
    const e = email.trim().toLowerCase();
    const i = ip?.toLowerCase() ?? null;
    return { pair: `pair:${i ?? '-'}|${e}`, ip: i ? `ip:${i}` : null, email: `email:${e}` };
  }

  /** Seconds until this address may try this e-mail again, or 0 when allowed. */
  async retryAfter(ip: string | null, email: string, now = Date.now()): Promise<number> {
    const k = this.keys(ip, email);
    let wait = 0;
    for (const [key, max] of [
      [k.pair, this.limit],
      [k.ip, this.options.ipLimit],
    ] as const) {
      const e = key ? await this.hits.current(key, now) : undefined;
      if (e && e.count >= max) wait = Math.max(wait, Math.ceil((e.resetAt - now) / 1000));
    }
    return wait;
  }

  /** How long this attempt waits before being checked: grows with the e-mail's failures from anywhere. */
  async delayMs(email: string, now = Date.now()): Promise<number> {
    return this.delayFor((await this.hits.current(this.keys(null, email).email, now))?.count ?? 0);
  }

  /** The delay after `failures` failures of one e-mail. */
  private delayFor(failures: number): number {
    if (failures < this.limit) return 0;
    return Math.min(this.options.maxDelayMs, 250 * 2 ** Math.min(failures - this.limit, 16));
  }

  async recordFailure(ip: string | null, email: string, now = Date.now()): Promise<void> {
    const k = this.keys(ip, email);
    for (const key of [k.pair, k.ip, k.email]) if (key) await this.hits.hit(key, now);
  }

  /**
   * One attempt on the account, counted as a failure before the password is checked: `retryAfter`
   * seconds when this address is refused (nothing counted then), else how long the attempt waits.
   * The counts are taken first and the decision made on what they answer, never on an earlier read:
   * the reads and the writes are apart in time now (awaited, or in another process), and a burst of
   * parallel guesses must not all pass one check before the first is counted.
   */
  async attempt(ip: string | null, email: string, now = Date.now()): Promise<{ retryAfter: number; delayMs: number }> {
    const k = this.keys(ip, email);
    const counted: [string, number][] = [[k.pair, this.limit]];
    if (k.ip) counted.push([k.ip, this.options.ipLimit]);
    let retryAfter = 0;
    for (const [key, max] of counted) {
      const e = await this.hits.hitWindow(key, now);
      if (e.count > max) retryAfter = Math.max(retryAfter, Math.ceil((e.resetAt - now) / 1000));
    }
    if (retryAfter > 0) {
      for (const [key] of counted) await this.hits.undo(key);
      return { retryAfter, delayMs: 0 };
    }
    const e = await this.hits.hitWindow(k.email, now);
    return { retryAfter: 0, delayMs: this.delayFor(e.count - 1) };
  }

  /**
   * A sign-in with a default password (issue 25): those passwords are public, so a success with one
   * is no proof and is throttled per address like failures, at `limit` per window. It stays counted
   * like the failure recorded up front (address + e-mail, address) and counts for the address's
   * default sign-ins; only the e-mail's count is forgotten, so the owner elsewhere is not slowed.
   * Seconds until this address may sign in so again, or 0: counted first and decided on the count
   * that answers, so parallel sign-ins (from any process) cannot all pass.
   */
  async defaultSignIn(ip: string | null, email: string, now = Date.now()): Promise<number> {
    await this.hits.forget(this.keys(null, email).email);
    if (!ip) return 0;
    const e = await this.hits.hitWindow(`default:${ip.toLowerCase()}`, now);
    return e.count > this.limit ? Math.ceil((e.resetAt - now) / 1000) : 0;
  }

  /** The owner proved themselves another way (a reset link): this account's failures are forgotten. */
  async clearAccount(ip: string | null, email: string): Promise<void> {
    const k = this.keys(ip, email);
    await this.hits.forget(k.pair);
    await this.hits.forget(k.email);
  }

  /**
   * A correct password: the account's failures are forgotten; the address keeps its real failures
   * (one address trying many accounts) minus the attempt counted up front for this sign-in.
   */
  async recordSuccess(ip: string | null, email: string): Promise<void> {
    const k = this.keys(ip, email);
    await this.hits.forget(k.pair);
    await this.hits.forget(k.email);
    if (k.ip) await this.hits.undo(k.ip);
  }
}
