/**
 * Security headers on every response (admin, portal, sandbox page, API), through hono/secure-headers.
 * Scripts only from our own origin; no page may be framed. Styles allow 'unsafe-inline' because
 * antd writes its CSS-in-JS into <style> elements at run time (no nonce or hash can cover them).
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { isComplete } from './complete-response';

const common = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  frameAncestors: ["'none'"],
};

const options = {
  xFrameOptions: 'DENY',
  referrerPolicy: 'no-referrer',
  // Without includeSubDomains: the app may live on one host of a university domain.
  strictTransportSecurity: 'max-age=15552000',
} as const;

const appHeaders = secureHeaders({ ...options, contentSecurityPolicy: { ...common, formAction: ["'self'"] } });
/**
 * The payOS sandbox checkout posts its Pay/Cancel forms to itself and is then redirected to the
 * campaign's return URL, which may be another origin (as with the real payOS): Chromium applies
 * form-action to that redirect too, so this page leaves form-action open.
 */
const sandboxHeaders = secureHeaders({ ...options, contentSecurityPolicy: common });

const SANDBOX_PATH = '/sandbox/payos/';

export function isSandboxPath(path: string): boolean {
  return path.startsWith(SANDBOX_PATH);
}

const noop = async () => {};

/** Sets the headers on every answer that was not built with them (lib/response-headers.ts). */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    // secureHeaders sets its headers after its `next`: run it on the answer the app gave.
    if (!isComplete(c.res)) await (isSandboxPath(c.req.path) ? sandboxHeaders : appHeaders)(c, noop);
  };
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`);

/**
 * What `appHeaders` sets, as one plain object (names lower-case, as they are sent), for the JSON
 * answers built with every header at once. response-headers.test.ts holds it to secureHeaders' own.
 */
export const APP_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': Object.entries({ ...common, formAction: ["'self'"] })
    .map(([directive, values]) => [kebab(directive), ...values].join(' '))
    .join('; '),
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': options.referrerPolicy,
  'strict-transport-security': options.strictTransportSecurity,
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': options.xFrameOptions,
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
});
