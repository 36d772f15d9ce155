/**
 * The JSON body rules every validated route shares, checked before its schema sees the body:
 * a body that is not JSON answers 415 (Hono's validator would take it as `{}`, and an update
 * route would then write an empty update), and nesting past MAX_JSON_DEPTH answers 400 (a
 * 10,000-level webhook overflowed the stack further on: 500).
 */
import type { Context } from 'hono';
import { badRequest, fail } from './errors';

export const MAX_JSON_DEPTH = 32;
const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

const unsupported = () => fail(415, 'Dữ liệu phải được gửi dạng JSON (Content-Type: application/json)');

/** Walks without recursion, so the check itself cannot overflow; stops at the first node too deep. */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

export async function checkJsonBody(c: Context): Promise<void> {
  const media = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
  if (!JSON_MEDIA.test(media)) {
    // Nothing at all (no type, no body) still means "no options": actions such as PATCH …/mark-paid.
    if (media) unsupported();
    const text = await c.req.text().catch(() => 'unreadable');
    if (text.length > 0) unsupported();
    return;
  }
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    badRequest('Dữ liệu JSON không hợp lệ');
  }
  if (deeperThan(body, MAX_JSON_DEPTH)) badRequest(`Dữ liệu JSON lồng nhau quá sâu (tối đa ${MAX_JSON_DEPTH} cấp)`);
}
