/** Serves the built single-page apps and the translation files from disk, with SPA fallback. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Context } from 'hono';

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

export function sendFile(c: Context, file: string, immutable = false): Response {
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  c.header('content-type', type);
  c.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  return c.body(readFileSync(file));
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
