/** Template, upload, validate, execute and status routes, one set per importable resource (000 §7). */
import {
  hasPermission,
  IMPORT_MAX_BYTES,
  type ImportMapping,
  MEMBER_IMPORT_LEVEL_MESSAGE,
  importExecuteSchema,
  importExecutionResultSchema,
  importHeadersResultSchema,
  importOptionsSchema,
  importStatusSchema,
  importUploadResponse,
  importValidationResultSchema,
  memberImportLevelQuery,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { every } from 'hono/combine';
import { z } from 'zod';
import { auditContext } from '../audit/writer';
import { acceptsGzip, jsonBody } from '../lib/compress';
import { pickLanguage } from '../lib/i18n';
import { rateLimit } from '../lib/rate-limit';
import { requireAuth, requirePermission, type OrganizationFrom } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { badRequest, fail, forbidden } from '../lib/errors';
import { validate } from '../lib/validate';
import { created, ok, xlsx } from '../lib/openapi/contract';
import { orgContext } from '../access/organization-context';
import { classesImport, departmentsImport } from './kinds/catalogue';
import { membersImport } from './kinds/members';
import { usersImport } from './kinds/users';
import type { AnyImportKind } from './kind';
import { importRunner as importService } from './offload';
import { parseMappingField, rememberMapping } from './mapping';
import { loadSession } from './session';
import { xlsxResponseHeaders } from '../lib/xlsx-writer';
import { buildTemplate } from './template';

const FILE_TOO_LARGE = 'File quá lớn. Dung lượng tối đa là 5 MB';
const sessionParam = z.object({ sessionId: z.string().uuid('Mã phiên không hợp lệ') });

/** Refuses an oversized upload from its Content-Length before reading the body. */
async function readUpload(c: Context<AppEnv>): Promise<File> {
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > IMPORT_MAX_BYTES + 64 * 1024) fail(413, FILE_TOO_LARGE);
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody();
  } catch {
    badRequest('Yêu cầu tải file không hợp lệ (cần multipart/form-data với trường file)');
  }
  const file = form!.file;
  if (!(file instanceof File)) badRequest('Vui lòng chọn file để tải lên');
  const f = file as File;
  if (f.size > IMPORT_MAX_BYTES) fail(413, FILE_TOO_LARGE);
  if (!/\.(xlsx|xls)$/i.test(f.name)) badRequest('Định dạng file không hợp lệ. Chỉ chấp nhận .xlsx hoặc .xls');
  return f;
}

const langOf = (c: Context<AppEnv>) => pickLanguage(c.req.header('accept-language'));

/** The uploaded file's headers and the suggested (or remembered) mapping to this kind's columns. */
async function fileHeaders(c: Context<AppEnv>, def: AnyImportKind, params: Record<string, unknown>) {
  const file = await readUpload(c);
  return importService(def, c.get('deps'), c.get('actor'), null, langOf(c)).headers(file, params);
}

/**
 * An upload with the optional `mapping` field of the form: the worker checks it against the file's
 * headers while reading, and it is remembered for this user and kind once the file was read.
 */
async function mappedUpload<T>(c: Context<AppEnv>, def: AnyImportKind, upload: (mapping: ImportMapping | undefined) => Promise<T>) {
  const form = await c.req.parseBody();
  const mapping = parseMappingField(form.mapping, langOf(c));
  const result = await upload(mapping);
  if (mapping) await rememberMapping(c.get('deps').db, c.get('actor').id, def.kind, mapping);
  return result;
}

/** The execute body: options under `options` or at the top level; no body means the defaults. */
async function executeOptions(c: Context<AppEnv>) {
  const text = await c.req.text();
  let json: unknown = {};
  try {
    json = text.trim() ? JSON.parse(text) : {};
  } catch {
    badRequest('Dữ liệu JSON không hợp lệ');
  }
  const body = importExecuteSchema.safeParse(json);
  if (!body.success) badRequest('Tùy chọn nhập không hợp lệ');
  const raw = (body.data!.options ?? body.data!) as Record<string, unknown>;
  const parsed = importOptionsSchema.safeParse({
    skipErrors: raw.skipErrors,
    updateExisting: raw.updateExisting,
    dryRun: raw.dryRun,
    batchSize: raw.batchSize,
  });
  // skipErrors, updateExisting, dryRun: true/false; batchSize: 1 to 1000.
  if (!parsed.success)
    badRequest(`Tùy chọn nhập không hợp lệ: ${[...new Set(parsed.error!.issues.map((i) => i.path.join('.')))].join(', ')}`);
  const opts = parsed.data!;
  if (body.data!.skipConflicts === true || raw.skipConflicts === true) opts.updateExisting = false;
  return opts;
}

/** Uploads and executes share one throttle, validation and error-row files another (lib/rate-limit.ts); status polls have none. */
const importLimit = rateLimit('import');
const HEADERS = "The file's headers and the suggested column mapping";
const UPLOADED = 'The file is read into a session: its id and a preview';
const MEMBERS_TEMPLATE = 'The members import template of a level';
const validateLimit = rateLimit('importValidate');

/** The shared upload/validate/execute/status routes for one kind, guarded by `permission`. */
function sessionRoutes(def: AnyImportKind, guard: ReturnType<typeof requirePermission>) {
  return new Hono<AppEnv>()
    .get(
      '/:sessionId/validate',
      ok(importValidationResultSchema, 'Every row checked (nothing written)'),
      requireAuth,
      guard,
      validateLimit,
      validate('param', sessionParam),
      async (c) =>
        jsonBody(
          c,
          await importService(def, c.get('deps'), c.get('actor'), auditContext(c).ip, langOf(c)).validateJson(
            c.req.valid('param').sessionId,
            acceptsGzip(c),
          ),
        ),
    )
    .get(
      '/:sessionId/error-rows',
      xlsx('The refused rows only, with their reasons, to fix and upload again'),
      requireAuth,
      guard,
      validateLimit,
      validate('param', sessionParam),
      async (c) => {
        const x = await importService(def, c.get('deps'), c.get('actor'), null, langOf(c)).errorRows(c.req.valid('param').sessionId);
        return c.body(x.body as Uint8Array<ArrayBuffer>, 200, xlsxResponseHeaders(x.fileName));
      },
    )
    .post(
      '/:sessionId/execute',
      ok(importExecutionResultSchema, 'The rows written (or the dry run)'),
      requireAuth,
      guard,
      importLimit,
      validate('param', sessionParam),
      async (c) => {
        const options = await executeOptions(c);
        const svc = importService(def, c.get('deps'), c.get('actor'), auditContext(c).ip, langOf(c));
        return c.json(await svc.execute(c.req.valid('param').sessionId, options));
      },
    )
    .get(
      '/:sessionId/status',
      ok(importStatusSchema, 'Progress of a running import, and its result'),
      requireAuth,
      guard,
      validate('param', sessionParam),
      async (c) => c.json(await importService(def, c.get('deps'), c.get('actor'), null).status(c.req.valid('param').sessionId)),
    );
}

/** /users, /departments and /classes: template, import/upload and the session routes. */
export function catalogueImportRoutes(def: AnyImportKind, permission: string, global: boolean) {
  // Departments and classes are university-wide: creating them needs a global grant.
  const guard = requirePermission(permission, global ? () => null : undefined);
  const app = new Hono<AppEnv>()
    .get('/template', xlsx(`The ${def.kind} import template`), requireAuth, guard, async (c) =>
      c.body(
        (await buildTemplate(def.sheetName, def.columns({}))) as Uint8Array<ArrayBuffer>,
        200,
        xlsxResponseHeaders(def.templateName({})),
      ),
    )
    .post('/import/headers', ok(importHeadersResultSchema, HEADERS), requireAuth, guard, importLimit, async (c) =>
      c.json(await fileHeaders(c, def, {})),
    )
    .post('/import/upload', created(importUploadResponse, UPLOADED), requireAuth, guard, importLimit, async (c) => {
      const file = await readUpload(c);
      const svc = importService(def, c.get('deps'), c.get('actor'), auditContext(c).ip, langOf(c));
      return c.json(await mappedUpload(c, def, (mapping) => svc.upload(file, {}, mapping)), 201);
    })
    .route('/import', sessionRoutes(def, guard));
  return app;
}

/** Legacy POST /departments/import: upload, validate and execute with default options in one call. */
export function legacyDepartmentImport() {
  return new Hono<AppEnv>().post(
    '/import',
    ok(importExecutionResultSchema, 'Upload, check and write in one call (the reference API)'),
    requireAuth,
    requirePermission('departments.create', () => null),
    importLimit,
    async (c) => {
      const file = await readUpload(c);
      const svc = importService(departmentsImport, c.get('deps'), c.get('actor'), auditContext(c).ip);
      const { sessionId } = await svc.upload(file, {});
      await svc.validate(sessionId);
      return c.json(await svc.execute(sessionId, importOptionsSchema.parse(undefined)));
    },
  );
}

/** The organization of a member-import session (its permission context). */
const sessionOrganization: OrganizationFrom = async (c) => {
  const s = await loadSession(c.get('deps').db, c.req.param('sessionId') ?? '', 'organization_members', c.get('actor').id, false);
  return Number(s.params.organizationId) || null;
};

/** Held somewhere first (so a caller without it gets 403, not 404), then in the session's organization. */
const inSessionOrganization = every(
  requirePermission('organizations.add_member'),
  requirePermission('organizations.add_member', sessionOrganization),
);

export function memberImportRoutes() {
  const template = async (c: Context<AppEnv>) => {
    const level = /^\d+$/.test(c.req.param('level') ?? '') ? Number(c.req.param('level')) : NaN;
    if (level !== 2 && level !== 3) badRequest(MEMBER_IMPORT_LEVEL_MESSAGE);
    return c.body(
      (await buildTemplate(membersImport.sheetName, membersImport.columns({ level }))) as Uint8Array<ArrayBuffer>,
      200,
      xlsxResponseHeaders(membersImport.templateName({ level })),
    );
  };
  const canImport = requirePermission('organizations.add_member');
  return new Hono<AppEnv>()
    .get('/template/:level', xlsx(MEMBERS_TEMPLATE), requireAuth, canImport, template)
    .get('/members/import/template/:level', xlsx(MEMBERS_TEMPLATE), requireAuth, canImport, template)
    .post(
      '/members/import/headers',
      ok(importHeadersResultSchema, HEADERS),
      requireAuth,
      canImport,
      importLimit,
      validate('query', memberImportLevelQuery),
      async (c) => c.json(await fileHeaders(c, membersImport, { level: c.req.valid('query').level })),
    )
    .post(
      '/members/import/upload',
      created(importUploadResponse, UPLOADED),
      requireAuth,
      canImport,
      importLimit,
      validate('query', memberImportLevelQuery),
      async (c) => {
        const { level } = c.req.valid('query');
        const file = await readUpload(c);
        const form = await c.req.parseBody();
        const organizationId = c.req.valid('query').organizationId ?? Number(form.organizationId);
        if (!Number.isInteger(organizationId) || organizationId <= 0) badRequest('Thiếu tổ chức cần nhập thành viên (organizationId)');
        const ctx = await orgContext(c.get('deps').db, organizationId);
        if (!ctx) fail(404, 'Không tìm thấy tổ chức');
        if (!hasPermission(c.get('actor').roles, 'organizations.add_member', ctx)) forbidden();
        const svc = importService(membersImport, c.get('deps'), c.get('actor'), auditContext(c).ip, langOf(c));
        return c.json(await mappedUpload(c, membersImport, (mapping) => svc.upload(file, { level, organizationId }, mapping)), 201);
      },
    )
    .route('/import', sessionRoutes(membersImport, inSessionOrganization));
}

export const importKinds = { users: usersImport, departments: departmentsImport, classes: classesImport };
