import type { Context } from 'hono';
import { acceptsGzip, gzip, jsonBody, MIN_COMPRESS_BYTES } from './compress';

const serialised = new WeakMap<object, { text: string; gz?: Buffer }>();

/**
 * c.json for a value served many times unchanged (a page from a cache): it is stringified (and
 * gzipped, for clients that accept it) once per object, which was a tenth of a cached list
 * request. Cached values must not be mutated.
 */
export function cachedJson(c: Context, value: object): Response {
  let s = serialised.get(value);
  if (s === undefined) serialised.set(value, (s = { text: JSON.stringify(value) }));
  if (s.text.length >= MIN_COMPRESS_BYTES && acceptsGzip(c)) {
    s.gz ??= gzip(s.text);
    return jsonBody(c, s.gz);
  }
  return jsonBody(c, s.text);
}
