import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isUniqueViolation } from '../db/sqlite';

/** Throw from anywhere; onError answers `{ message }` with the status. */
export function fail(status: ContentfulStatusCode, message: string, extra?: Record<string, unknown>): never {
  throw new HTTPException(status, { message, cause: extra });
}

export const badRequest = (m: string, extra?: Record<string, unknown>) => fail(400, m, extra);
export const unauthorized = (m = 'Chưa đăng nhập hoặc phiên đăng nhập đã hết hạn') => fail(401, m);
export const forbidden = (m = 'Bạn không có quyền thực hiện thao tác này') => fail(403, m);
export const notFound = (m = 'Không tìm thấy dữ liệu') => fail(404, m);
export const conflict = (m: string) => fail(409, m);
export const unprocessable = (m: string, extra?: Record<string, unknown>) => fail(422, m, extra);

// Detection is database-specific (db/sqlite.ts); callers keep importing it from here.
export { isUniqueViolation } from '../db/sqlite';

/**
 * Runs a write whose uniqueness the caller pre-checked: a concurrent request can still win the
 * race, and its UNIQUE violation must end as the same 409 as the pre-check, not as a 500.
 * `message` may read the driver's error to name the column that collided.
 */
export function conflictOnUnique<T>(message: string | ((err: Error) => string), fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (isUniqueViolation(err)) conflict(typeof message === 'string' ? message : message(err as Error));
    throw err;
  }
}
