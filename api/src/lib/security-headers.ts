/**
 * Security headers on every response (admin, portal, sandbox page, API), through hono/secure-headers.
 * Scripts only from our own origin; no page may be framed. Styles allow 'unsafe-inline' because
 * antd writes its CSS-in-JS into <style> elements at run time (no nonce or hash can cover them).
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

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

export function securityHeaders(): MiddlewareHandler {
  return (c, next) => (c.req.path.startsWith('/sandbox/payos/') ? sandboxHeaders(c, next) : appHeaders(c, next));
}
