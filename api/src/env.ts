/** The only place that reads process.env. Secrets are validated here and never logged. */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { isPublicOrigin } from './lib/public-origin';
import { LOG_LEVELS, logger } from './lib/logger';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** API processes sharing the port and the database (node:cluster, api/src/cluster/); 1 is the single process. */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(Math.min(availableParallelism(), 8)),
  DATABASE_PATH: z.string().default(resolve(REPO_ROOT, 'data/app.db')),
  /**
   * postgres://… of a PostgreSQL deployment (issue 29): the API serves it instead of the SQLite file at
   * DATABASE_PATH, whose folder still holds the secret files; backup and restore use pg_dump / pg_restore.
   */
  DATABASE_URL: z.string().optional(),
  /**
   * Connections each API process keeps to PostgreSQL (DATABASE_URL); SQLite has one per process.
   * Few: requests then queue in the process for a connection instead of in PostgreSQL for a core;
   * on 2 cores with 2 processes, 4 each cost 20 % less CPU per response than 10 (docs/benchmark.md).
   */
  PG_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(4),
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
  ACCESS_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().positive().default(30),
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  LOGIN_RATE_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  /** Failed sign-ins from one address across all accounts before it is refused (a campus NAT shares one). */
  LOGIN_IP_RATE_LIMIT: z.coerce.number().int().positive().default(100),
  /** Ceiling of the growing delay on an account under attack (no hard lock: auth/rate-limit.ts). */
  LOGIN_MAX_DELAY_MS: z.coerce.number().int().nonnegative().default(10_000),
  /** Forgotten-password requests per e-mail and per address in one window (auth/password-reset.ts); past either, 429. */
  FORGOT_PASSWORD_EMAIL_LIMIT: z.coerce.number().int().positive().default(3),
  FORGOT_PASSWORD_IP_LIMIT: z.coerce.number().int().positive().default(20),
  FORGOT_PASSWORD_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .positive()
    .default(15 * 60),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_AUTH_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: z.string().url().default('https://openidconnect.googleapis.com/v1/userinfo'),
  PAYOS_BASE_URL: z.string().default('sandbox'),
  /** The embedded sandbox on a public PUBLIC_URL must be asked for (a public demo); its payments never settle fees. */
  PAYOS_SANDBOX_PUBLIC: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** The embedded sandbox sends its webhook this long after the buyer is sent back (as payOS does: after, not before). */
  PAYOS_SANDBOX_WEBHOOK_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1_000),
  /** How long a payment link stays payable; unpaid orders are closed some minutes after it (payments/expiry.ts). */
  PAYMENT_LINK_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(30),
  /** Set when behind a reverse proxy that sets X-Forwarded-For (then it gives the client IP). */
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** Import caps against spreadsheet bombs: data rows per file and bytes the xlsx may inflate to. */
  IMPORT_MAX_ROWS: z.coerce.number().int().min(1).default(50_000),
  IMPORT_MAX_UNZIPPED_MB: z.coerce.number().int().min(1).default(100),
  /** Characters all cells read from one file may hold, shared strings expanded (imports/cell-limits.ts). */
  IMPORT_MAX_TEXT_CHARS: z.coerce.number().int().min(1).default(20_000_000),
  /**
   * Heavy routes per signed-in user per window (lib/rate-limit.ts): exports, import uploads and
   * executes, import validation and error-row files, dashboard figures. One address may make
   * RATE_LIMIT_IP_FACTOR times as many (an office behind one address).
   */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  EXPORT_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  IMPORT_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  IMPORT_VALIDATE_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  DASHBOARD_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_IP_FACTOR: z.coerce.number().int().min(1).default(5),
  /** Reminder e-mails go out through this SMTP server (smtp://user:pass@host:port, smtps:// for TLS); without it they wait in the outbox table. */
  SMTP_URL: z.string().url().optional(),
  SMTP_FROM: z.string().min(3).default('Đoàn Hội <no-reply@doanhoi.local>'),
  /** No member gets two reminders for one campaign within this many hours (reminders/service.ts). */
  REMINDER_MIN_INTERVAL_HOURS: z.coerce.number().min(0).default(24),
  /** Reminders one member may receive in 24 hours, over every campaign (issue 25 item 15). */
  REMINDER_MAX_PER_MEMBER_PER_DAY: z.coerce.number().int().min(1).default(3),
  /** The most users one bulk change may touch (POST /users/bulk-update, issue 30 item 6); past it, 413. */
  BULK_UPDATE_MAX_USERS: z.coerce.number().int().min(1).default(10_000),
  /** pino level of the JSON logs on stdout; each request is one `info` line. */
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
});

export type Config = z.infer<typeof schema>;
export type Env = Config & {
  jwtSecret: string;
  appSecret: string;
  /** Secret files this start created (none existed): removed again if the start is refused. */
  createdSecretFiles: string[];
};

/** Where a generated secret is kept: beside the database, so a backup takes both. */
export function secretFile(dbPath: string, name: 'app' | 'jwt'): string {
  return resolve(dirname(dbPath), `${name}.secret`);
}

/** Secrets not given by the environment are generated once and kept beside the database, 0600. */
function persistedSecret(dbPath: string, name: 'app' | 'jwt', created: string[]): string {
  if (dbPath === ':memory:') return randomBytes(32).toString('hex');
  const file = secretFile(dbPath, name);
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    return readFileSync(file, 'utf8').trim();
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const value = randomBytes(32).toString('hex');
  writeFileSync(file, value, { mode: 0o600 });
  created.push(file);
  return value;
}

/** The configuration without the secrets (no file is read or created): for backup and restore. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    logger.fatal({ detail }, 'Invalid configuration');
    process.exit(1);
  }
  const e = parsed.data;
  const sandbox = !e.PAYOS_BASE_URL.trim() || e.PAYOS_BASE_URL.trim() === 'sandbox';
  if (sandbox && e.PUBLIC_URL && isPublicOrigin(e.PUBLIC_URL) && !e.PAYOS_SANDBOX_PUBLIC) {
    console.error(
      `Invalid configuration: PUBLIC_URL ${e.PUBLIC_URL} is public but payOS is the embedded sandbox (PAYOS_BASE_URL=sandbox), where anyone can "pay" without money. ` +
        'Set PAYOS_BASE_URL=https://api-merchant.payos.vn for real payments, or PAYOS_SANDBOX_PUBLIC=true for a public demo (its payments never settle fees).',
    );
    process.exit(1);
  }
  return { ...e, DATABASE_PATH: e.DATABASE_PATH === ':memory:' ? ':memory:' : resolve(e.DATABASE_PATH) };
}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const e = loadConfig(source);
  const createdSecretFiles: string[] = [];
  return {
    ...e,
    jwtSecret: e.JWT_SECRET ?? persistedSecret(e.DATABASE_PATH, 'jwt', createdSecretFiles),
    appSecret: e.APP_SECRET ?? persistedSecret(e.DATABASE_PATH, 'app', createdSecretFiles),
    createdSecretFiles,
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
