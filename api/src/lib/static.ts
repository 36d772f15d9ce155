/** Serves the built single-page apps and the translation files from disk, with SPA fallback. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Context } from 'hono';
import { gzipSync } from 'node:zlib';
import { MIN_COMPRESS_BYTES } from './compress';
import { requestHeader } from './headers';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/** Resolve a request path under root, refusing anything that escapes it. */
export function safeFile(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const file = normalize(join(root, decoded));
  if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  if (!existsSync(file) || !statSync(file).isFile()) return null;
  return file;
}

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt']);
/** Files compressed here (those the build did not precompress, e.g. translations), by path and mtime. */
const compressed = new Map<string, { mtime: number; gz: Buffer }>();

/**
 * The file as the client can best take it: the build's precompressed `.br` or `.gz` sibling when
 * there is one (vite-precompress), otherwise a gzip made once and kept, for text over 1 KB.
 */
export function sendFile(c: Context, file: string, immutable = false): Response {
  const ext = extname(file).toLowerCase();
  c.header('content-type', TYPES[ext] ?? 'application/octet-stream');
  c.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (!COMPRESSIBLE.has(ext)) return c.body(readFileSync(file));
  c.header('vary', 'Accept-Encoding');
  const accepts = requestHeader(c, 'accept-encoding') ?? '';
  for (const [enc, suffix] of [
    ['br', '.br'],
    ['gzip', '.gz'],
  ] as const) {
    if (new RegExp(`\\b${enc}\\b`).test(accepts) && existsSync(file + suffix)) {
      c.header('content-encoding', enc);
      return c.body(readFileSync(file + suffix));
    }
  }
  const stat = statSync(file);
  if (stat.size < MIN_COMPRESS_BYTES || !/\bgzip\b/.test(accepts)) return c.body(readFileSync(file));
  let kept = compressed.get(file);
  if (!kept || kept.mtime !== stat.mtimeMs)
    compressed.set(file, (kept = { mtime: stat.mtimeMs, gz: gzipSync(readFileSync(file), { level: 9 }) }));
  c.header('content-encoding', 'gzip');
  return c.body(kept.gz as Uint8Array<ArrayBuffer>);
}

/** A built SPA: its files when they exist, otherwise index.html (or a hint when not built). */
export function spa(distDir: string, mountPrefix = '') {
  const root = resolve(distDir);
  return (c: Context) => {
    const path = c.req.path.slice(mountPrefix.length) || '/';
    const file = safeFile(root, path);
    if (file) return sendFile(c, file, path.includes('/assets/'));
    const index = join(root, 'index.html');
    if (existsSync(index)) return sendFile(c, index);
    return c.text('Front end not built: run `npm run build` (npm start does it for you).', 503);
  };
}
