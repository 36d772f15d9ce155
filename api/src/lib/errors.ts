import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isUniqueViolation } from '../db/sqlite';

/** Throw from anywhere; onError answers `{ message }` with the status. */
export function fail(status: ContentfulStatusCode, message: string, extra?: Record<string, unknown>): never {
  throw new HTTPException(status, { message, cause: extra });
}

export const badRequest = (m: string, extra?: Record<string, unknown>) => fail(400, m, extra);
/** A 400 about one input: forms show `m` under that field (see withFieldErrors). */
export const invalidField = (field: string, m: string) => fail(400, m, { errors: { [field]: [m] } });
export const unauthorized = (m = 'Chưa đăng nhập hoặc phiên đăng nhập đã hết hạn') => fail(401, m);
export const forbidden = (m = 'Bạn không có quyền thực hiện thao tác này') => fail(403, m);
export const notFound = (m = 'Không tìm thấy dữ liệu') => fail(404, m);
/** A 409; `field` names the input that collided (a taken code, e-mail or name), so forms show it there. */
export const conflict = (m: string, field?: string) => fail(409, m, field ? { errors: { [field]: [m] } } : undefined);
export const unprocessable = (m: string, extra?: Record<string, unknown>) => fail(422, m, extra);

// Detection is database-specific (db/sqlite.ts); callers keep importing it from here.
export { isUniqueViolation } from '../db/sqlite';

/** A conflict's message and, when one input caused it, that input's name. */
export type Conflict = string | { message: string; field?: string };

/**
 * Runs a write whose uniqueness the caller pre-checked: a concurrent request can still win the
 * race, and its UNIQUE violation must end as the same 409 as the pre-check, not as a 500.
 * `c` may read the driver's error to name the column that collided.
 */
export async function conflictOnUnique<T>(c: Conflict | ((err: Error) => Conflict), fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err)) {
      const found = typeof c === 'function' ? c(err as Error) : c;
      if (typeof found === 'string') conflict(found);
      else conflict(found.message, found.field);
    }
    throw err;
  }
}

/**
 * Refine's forms put `errors: { field: [message] }` under the fields (server-side validation), so
 * a body that lists `issues` [{ path, message }] also carries them that way; `{ message }` stays.
 */
export function withFieldErrors(extra: Record<string, unknown>): Record<string, unknown> {
  if (extra.errors || !Array.isArray(extra.issues)) return extra;
  const errors: Record<string, string[]> = {};
  for (const issue of extra.issues as { path?: unknown; message?: unknown }[]) {
    if (typeof issue?.path !== 'string' || !issue.path || typeof issue.message !== 'string') continue;
    (errors[issue.path] ??= []).push(issue.message);
  }
  return Object.keys(errors).length ? { ...extra, errors } : extra;
}
