/**
 * Throttles for the heavy routes (issue 25 item 14): exports, import uploads and executes, import
 * validation and error-row files, dashboard figures. Each signed-in user may make a bucket's limit
 * of calls per window, and each address RATE_LIMIT_IP_FACTOR times as many (one office, one
 * address); past either the answer is 429 with `{ message }` and Retry-After, as the sign-in's.
 *
 * Counters sit behind RateCounter: in the database (SharedRateCounter), so the API's processes
 * count together (issue 28); MemoryRateCounter is the same in one process's memory.
 */
import type { MiddlewareHandler } from 'hono';
import type { Env } from '../env';
import { clientIp } from './headers';
import type { AppEnv, Deps } from './context';
import type { Db } from '../db/client';
import { FixedWindowCounter, SharedWindowCounter } from './fixed-window';

export interface RateWindow {
  /** Calls of the key in its current window, this one included. */
  count: number;
  /** When the window ends (ms since the epoch). */
  resetAt: number;
}

/** Counts one call of a key in fixed windows. */
export interface RateCounter {
  hit(key: string, now: number): Promise<RateWindow>;
}

export class MemoryRateCounter implements RateCounter {
  private readonly counter: FixedWindowCounter;

  constructor(windowMs: number) {
    this.counter = new FixedWindowCounter(windowMs);
  }

  hit(key: string, now: number): Promise<RateWindow> {
    return this.counter.hitWindow(key, now);
  }
}

/** Counted in the database's rate_windows, across every process on the file. */
export class SharedRateCounter implements RateCounter {
  private readonly counter: SharedWindowCounter;

  constructor(db: Db, windowMs: number, scope = 'rate') {
    this.counter = new SharedWindowCounter(db, scope, windowMs);
  }

  hit(key: string, now: number): Promise<RateWindow> {
    return this.counter.hitWindow(key, now);
  }
}

export type RateBucket = 'export' | 'import' | 'importValidate' | 'dashboard';

const WHAT: Record<RateBucket, string> = {
  export: 'xuất file',
  import: 'tải lên hoặc nhập file',
  importValidate: 'kiểm tra dữ liệu nhập',
  dashboard: 'tải số liệu tổng quan',
};

const LIMIT: Record<RateBucket, (env: Env) => number> = {
  export: (env) => env.EXPORT_RATE_LIMIT,
  import: (env) => env.IMPORT_RATE_LIMIT,
  importValidate: (env) => env.IMPORT_VALIDATE_RATE_LIMIT,
  dashboard: (env) => env.DASHBOARD_RATE_LIMIT,
};

export function rateLimitMessage(bucket: RateBucket, seconds: number) {
  return `Bạn đã ${WHAT[bucket]} quá nhiều lần trong thời gian ngắn. Vui lòng thử lại sau ${seconds} giây`;
}

/** One counter per app (its deps), counting in its database: test apps on their own databases never share counts. */
const counters = new WeakMap<Deps, RateCounter>();

function counterOf(deps: Deps): RateCounter {
  let c = counters.get(deps);
  if (!c) counters.set(deps, (c = new SharedRateCounter(deps.db, deps.env.RATE_LIMIT_WINDOW_SECONDS * 1000)));
  return c;
}

/** Per user (after requireAuth) and per address; a refused call still counts, so hammering does not pay. */
export function rateLimit(bucket: RateBucket): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const deps = c.get('deps');
    const counter = counterOf(deps);
    const limit = LIMIT[bucket](deps.env);
    const now = Date.now();
    const ip = clientIp(c);
    const actor = c.get('actor');
    const checks: [string, number][] = [];
    if (actor) checks.push([`${bucket}:user:${actor.id}`, limit]);
    if (ip) checks.push([`${bucket}:ip:${ip}`, limit * deps.env.RATE_LIMIT_IP_FACTOR]);
    let wait = 0;
    for (const [key, max] of checks) {
      const w = await counter.hit(key, now);
      if (w.count > max) wait = Math.max(wait, Math.max(1, Math.ceil((w.resetAt - now) / 1000)));
    }
    if (wait > 0) return c.json({ message: rateLimitMessage(bucket, wait) }, 429, { 'Retry-After': String(wait) });
    await next();
  };
}
