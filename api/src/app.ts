import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import type { Logger } from 'pino';
import { resolve } from 'node:path';
import { auditRoutes } from './audit/routes';
import { dashboardRoutes } from './dashboard/routes';
import { authRoutes } from './auth/routes';
import { classesRoutes } from './classes/routes';
import { departmentsRoutes } from './departments/routes';
import { organizationsRoutes } from './organizations/routes';
import { rolesRoutes } from './roles/routes';
import { usersRoutes } from './users/routes';
import { bulkUpdateRoutes } from './users/bulk-update.routes';
import { userHistoryRoutes } from './users/history.routes';
import { userRolesRoutes } from './roles/user-roles.routes';
import { userOrganizationsRoutes } from './organizations/user-organizations.routes';
import { exportRoutes } from './exports/routes';
import { catalogueImportRoutes, importKinds, legacyDepartmentImport, memberImportRoutes } from './imports/routes';
import { paymentsRoutes } from './payments/routes';
import { duesRoutes } from './dues/routes';
import { remittancesRoutes } from './remittances/routes';
import { remindersRoutes } from './reminders/routes';
import { transfersRoutes } from './transfers/routes';
import { reportsRoutes } from './reports/routes';
import { payosSandboxRoutes } from './payos-sandbox/routes';
import { LoginRateLimiter } from './auth/rate-limit';
import { REPO_ROOT } from './env';
import type { AppEnv, Deps } from './lib/context';
import { requestHeader } from './lib/headers';
import { pickLanguage } from './lib/i18n';
import { compressJson } from './lib/compress';
import { writeTurn } from './lib/write-turn';
import { withFieldErrors } from './lib/errors';
import { inReadEpoch } from './lib/freshness';
import { MemoRouter } from './lib/route-memo';
import { isOutOfRange } from './db/sqlite';
import { securityHeaders } from './lib/security-headers';
import { logger, requestLogger } from './lib/logger';
import { apiDocs } from './lib/openapi';
import { safeFile, sendFile, spa } from './lib/static';
import { isPg } from './db/postgres';

export interface AppOptions {
  /** Where the built admin and portal live (tests point elsewhere or nowhere). */
  adminDist?: string;
  portalDist?: string;
  /** Where request and error logs go (tests capture them); the process logger otherwise. */
  logger?: Logger;
}

/** Wires middleware, the domain routers, translations and the built front ends. */
export function createApp(deps: Deps, opts: AppOptions = {}) {
  const app = new Hono<AppEnv>({ router: new MemoRouter() });
  const log = opts.logger ?? logger;
  if (!opts.logger) logger.level = deps.env.LOG_LEVEL;
  const limiter = new LoginRateLimiter(deps.env.LOGIN_RATE_LIMIT, deps.env.LOGIN_RATE_WINDOW_SECONDS * 1000, {
    ipLimit: deps.env.LOGIN_IP_RATE_LIMIT,
    maxDelayMs: deps.env.LOGIN_MAX_DELAY_MS,
    // Counted in the database: every API process on it sees the same failures (issue 28).
    shared: deps.db,
  });

  // A request's reads confirm the cache versions once, then only look for this connection's writes (lib/freshness.ts).
  app.use('*', (_c, next) => inReadEpoch(next));
  app.use('*', requestId(), requestLogger(log));
  app.use('*', securityHeaders());
  app.use('*', (c, next) => {
    c.set('deps', deps);
    c.set('lang', pickLanguage(requestHeader(c, 'accept-language')));
    return next();
  });

  app.onError((err, c) => {
    if (err instanceof HTTPException) {
      const cause = err.cause as Record<string, unknown> | undefined;
      const extra = cause && typeof cause === 'object' && !(cause instanceof Error) ? cause : {};
      // Hono's own parse error is English; our clients show the message as is.
      const message =
        err.message === 'Malformed JSON in request body' ? 'Dữ liệu JSON không hợp lệ' : err.message || 'Yêu cầu không hợp lệ';
      return c.json({ message, ...withFieldErrors(extra) }, err.status);
    }
    // A number past a PostgreSQL integer column (a crafted id 99999999999): no such row, as SQLite answers, not a server fault.
    if (isOutOfRange(err)) return c.json({ message: 'Không tìm thấy' }, 404);
    // The stack is logged here once; the request line that follows carries only the status.
    log.error({ err, requestId: c.get('requestId') }, 'unhandled error');
    return c.json({ message: 'Lỗi máy chủ nội bộ' }, 500);
  });

  const api = new Hono<AppEnv>();
  const limitBody = bodyLimit({
    maxSize: 6 * 1024 * 1024,
    onError: (c) => c.json({ message: 'Dữ liệu gửi lên quá lớn' }, 413),
  });
  // bodyLimit reads c.req.raw, which makes @hono/node-server build a full Request (a tenth of a
  // list request's time); GET and HEAD carry no body to limit.
  api.use('*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));
  api.use('*', compressJson());
  // A write that finds SQLite's lock taken waits on a timer, not in the busy handler that would stop this process (lib/write-turn.ts).
  // PostgreSQL has no single write lock to wait for: its writers queue on the rows they touch.
  if (!isPg(deps.db)) api.use('*', writeTurn(deps.db.$client));
  api.route('/auth', authRoutes(limiter));
  // Fixed paths of each domain (import templates and sessions) before its /:id routes.
  api.route('/departments', catalogueImportRoutes(importKinds.departments, 'departments.create', true));
  api.route('/departments', legacyDepartmentImport());
  api.route('/classes', catalogueImportRoutes(importKinds.classes, 'classes.create', true));
  api.route('/organizations', memberImportRoutes());
  api.route('/export', exportRoutes());
  // /api/users: the fixed paths (/users/template, /users/import/…) before /users/:id, then a user's roles and organizations, then the CRUD.
  api.route('/users', catalogueImportRoutes(importKinds.users, 'users.create', false));
  api.route('/users', userRolesRoutes());
  api.route('/users', userOrganizationsRoutes());
  api.route('/users', bulkUpdateRoutes());
  api.route('/users', userHistoryRoutes());
  api.route('/users', usersRoutes());
  api.route('/roles', rolesRoutes());
  api.route('/organizations', organizationsRoutes());
  api.route('/departments', departmentsRoutes());
  api.route('/classes', classesRoutes());
  api.route('/audit-logs', auditRoutes());
  api.route('/transfers', transfersRoutes());
  api.route('/reports', reportsRoutes());
  api.route('/dashboard', dashboardRoutes());
  api.route('/', remindersRoutes());
  api.route('/dues', duesRoutes());
  api.route('/', remittancesRoutes());
  api.route('/', paymentsRoutes());
  api.get('/docs', apiDocs(api));
  app.route('/api', api);
  // Sub-app notFound handlers do not apply once mounted, and the SPA fallback below would answer instead.
  app.all('/api/*', (c) => c.json({ message: `Không tìm thấy API: ${c.req.method} ${c.req.path}` }, 404));

  if (deps.env.PAYOS_BASE_URL === 'sandbox') app.route('/sandbox/payos', payosSandboxRoutes());

  // The spec's Google button is a full-page redirect to /auth/google.
  app.get('/auth/google', (c) => c.redirect(`/api/auth/google${new URL(c.req.url).search}`));

  const localesRoot = resolve(REPO_ROOT, 'data/locales');
  app.get('/locales/:lng/:file', (c) => {
    const { lng, file } = c.req.param();
    const found = /^[a-z]{2}$/.test(lng) && /^[\w-]+\.json$/.test(file) ? safeFile(localesRoot, `${lng}/${file}`) : null;
    if (!found) return c.json({ message: 'Không tìm thấy bản dịch' }, 404);
    return sendFile(c, found);
  });

  const portal = spa(opts.portalDist ?? resolve(REPO_ROOT, 'portal/dist'));
  const portalAssets = spa(opts.portalDist ?? resolve(REPO_ROOT, 'portal/dist'), '/portal');
  app.get('/portal/*', portalAssets);
  app.get('/payment/*', portal);
  app.get('/payment-result/*', portal);
  app.get('*', spa(opts.adminDist ?? resolve(REPO_ROOT, 'admin/dist')));
  app.notFound((c) => c.json({ message: 'Không tìm thấy' }, 404));
  return app;
}
