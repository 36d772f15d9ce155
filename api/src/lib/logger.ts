/**
 * Structured logs: one JSON line per event on stdout (pino), one line per request with its id.
 * Request lines carry the path without its query string, since OAuth callbacks and payment
 * returns put codes there; bodies and headers are never logged, and known secret fields are
 * redacted from anything else logged by mistake.
 */
import type { MiddlewareHandler } from 'hono';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';

export type LogLevel = Level | 'silent';
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const satisfies readonly LogLevel[];

const SECRET_KEYS = [
  'password',
  'newPassword',
  'currentPassword',
  'passwordHash',
  'token',
  'accessToken',
  'refreshToken',
  'apiKey',
  'checksumKey',
  'clientSecret',
  'authorization',
  'cookie',
];

export function createLogger(level: LogLevel = 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: undefined,
    redact: { paths: [...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`)], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** The process's logger (jobs, imports, the payOS sandbox); createApp sets its level from env. */
export const logger = createLogger();

/** After `requestId()`: method, path, status, duration and request id of every request, once it is answered. */
export function requestLogger(log: Logger): MiddlewareHandler<{ Variables: { requestId: string } }> {
  return async (c, next) => {
    const start = performance.now();
    await next();
    const status = c.res.status;
    const record = {
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      status,
      ms: Math.round((performance.now() - start) * 10) / 10,
    };
    if (status >= 500) log.error(record, 'request');
    else log.info(record, 'request');
  };
}
