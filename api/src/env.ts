/** The only place that reads process.env. Secrets are validated here and never logged. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { LOG_LEVELS, logger } from './lib/logger';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_PATH: z.string().default(resolve(REPO_ROOT, 'data/app.db')),
  ADMIN_EMAIL: z.string().email().default('admin@doanhoi.local'),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  JWT_SECRET: z.string().min(16).optional(),
  APP_SECRET: z.string().min(16).optional(),
  /** Public base URL used in redirects (payOS return URLs, OAuth callbacks). */
  PUBLIC_URL: z.string().url().optional(),
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().positive().default(15 * 60),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().positive().default(30),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  LOGIN_RATE_WINDOW_SECONDS: z.coerce.number().int().positive().default(15 * 60),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_AUTH_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: z.string().url().default('https://openidconnect.googleapis.com/v1/userinfo'),
  PAYOS_BASE_URL: z.string().default('sandbox'),
  /** How long a payment link stays payable; unpaid orders are closed some minutes after it (payments/expiry.ts). */
  PAYMENT_LINK_TTL_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(30),
  /** Set when behind a reverse proxy that sets X-Forwarded-For (then it gives the client IP). */
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** pino level of the JSON logs on stdout; each request is one `info` line. */
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
});

export type Env = z.infer<typeof schema> & { jwtSecret: string; appSecret: string };

/** Secrets not given by the environment are generated once and kept beside the database. */
function persistedSecret(dbPath: string, name: string): string {
  if (dbPath === ':memory:') return randomBytes(32).toString('hex');
  const file = resolve(dirname(dbPath), `${name}.secret`);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const value = randomBytes(32).toString('hex');
  writeFileSync(file, value, { mode: 0o600 });
  return value;
}

/**
 * The generated admin password goes to a 0600 file beside the database, never to the logs; the
 * start-up log names the file. Returns its path.
 */
export function saveBesideDatabase(dbPath: string, name: string, value: string): string {
  const file = resolve(dbPath === ':memory:' ? resolve(REPO_ROOT, 'data') : dirname(dbPath), `${name}.secret`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return file;
}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    logger.fatal({ detail }, 'Invalid configuration');
    process.exit(1);
  }
  const e = parsed.data;
  const dbPath = e.DATABASE_PATH === ':memory:' ? ':memory:' : resolve(e.DATABASE_PATH);
  return {
    ...e,
    DATABASE_PATH: dbPath,
    jwtSecret: e.JWT_SECRET ?? persistedSecret(dbPath, 'jwt'),
    appSecret: e.APP_SECRET ?? persistedSecret(dbPath, 'app'),
  };
}

/** Configuration for tests: in-memory database, fixed secrets, no demo data. */
export function testEnv(overrides: Record<string, string> = {}): Env {
  return loadEnv({
    DATABASE_PATH: ':memory:',
    JWT_SECRET: 'test-jwt-secret-0123456789',
    APP_SECRET: 'test-app-secret-0123456789',
    ADMIN_PASSWORD: 'admin123',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    ...overrides,
  });
}
