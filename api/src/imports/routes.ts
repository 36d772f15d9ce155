/** Template, upload, validate, execute and status routes, one set per importable resource (000 §7). */
import { hasPermission, IMPORT_MAX_BYTES, importExecuteSchema, importOptionsSchema, memberImportLevelQuery } from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { auditContext } from '../lib/audit';
import { requireAuth, requirePermission, type OrganizationFrom } from '../lib/auth';
import type { AppEnv } from '../lib/context';
import { badRequest, fail, forbidden } from '../lib/errors';
import { validate } from '../lib/validate';
import { orgContext } from '../organizations/context';
import { classesImport, departmentsImport } from './kinds/catalogue';
import { membersImport } from './kinds/members';
import { usersImport } from './kinds/users';
import type { AnyImportKind } from './kind';
import { importService } from './service';
import { loadSession } from './session';
import { buildTemplate, xlsxResponseHeaders } from './template';

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

function executeOptions(body: z.output<typeof importExecuteSchema>) {
  const raw = (body.options ?? body) as Record<string, unknown>;
  const parsed = importOptionsSchema.safeParse({ skipErrors: raw.skipErrors, updateExisting: raw.updateExisting, dryRun: raw.dryRun, batchSize: raw.batchSize });
  if (!parsed.success) badRequest('Tùy chọn nhập không hợp lệ');
  const opts = parsed.data!;
  if (body.skipConflicts === true) opts.updateExisting = false;
  return opts;
}

/** The shared upload/validate/execute/status routes for one kind, guarded by `permission`. */
function sessionRoutes(def: AnyImportKind, guard: ReturnType<typeof requirePermission>) {
  return new Hono<AppEnv>()
    .get('/:sessionId/validate', requireAuth, guard, validate('param', sessionParam), (c) => {
      const { actorId, ip } = auditContext(c);
      return c.json(importService(def, c.get('deps'), c.get('actor'), ip ?? (actorId ? null : null)).validate(c.req.valid('param').sessionId));
    })
    .post('/:sessionId/execute', requireAuth, guard, validate('param', sessionParam), async (c) => {
      const body = importExecuteSchema.parse(await c.req.json().catch(() => ({})));
      const svc = importService(def, c.get('deps'), c.get('actor'), auditContext(c).ip);
      return c.json(await svc.execute(c.req.valid('param').sessionId, executeOptions(body)));
    })
    .get('/:sessionId/status', requireAuth, guard, validate('param', sessionParam), (c) =>
      c.json(importService(def, c.get('deps'), c.get('actor'), null).status(c.req.valid('param').sessionId)),
    );
}

/** /users, /departments and /classes: template, import/upload and the session routes. */
export function catalogueImportRoutes(def: AnyImportKind, permission: string, global: boolean) {
  // Departments and classes are university-wide: creating them needs a global grant.
  const guard = requirePermission(permission, global ? () => null : undefined);
  const app = new Hono<AppEnv>()
    .get('/template', requireAuth, guard, async (c) => c.body(await buildTemplate(def.sheetName, def.columns({})) as Uint8Array<ArrayBuffer>, 200, xlsxResponseHeaders(def.templateName({}))))
    .post('/import/upload', requireAuth, guard, async (c) => {
      const file = await readUpload(c);
      return c.json(await importService(def, c.get('deps'), c.get('actor'), auditContext(c).ip).upload(file, {}), 201);
    })
    .route('/import', sessionRoutes(def, guard));
  return app;
}

/** Legacy POST /departments/import: upload, validate and execute with default options in one call. */
export function legacyDepartmentImport() {
  return new Hono<AppEnv>().post('/import', requireAuth, requirePermission('departments.create', () => null), async (c) => {
    const file = await readUpload(c);
    const svc = importService(departmentsImport, c.get('deps'), c.get('actor'), auditContext(c).ip);
    const { sessionId } = await svc.upload(file, {});
    svc.validate(sessionId);
    return c.json(await svc.execute(sessionId, importOptionsSchema.parse(undefined)));
  });
}

/** The organization of a member-import session (its permission context). */
const sessionOrganization: OrganizationFrom = (c) => {
  const s = loadSession(c.get('deps').db, c.req.param('sessionId') ?? '', 'organization_members', c.get('actor').id);
  return Number(s.params.organizationId) || null;
};

export function memberImportRoutes() {
  const template = async (c: Context<AppEnv>) => {
    const level = Number(c.req.param('level'));
    if (level !== 2 && level !== 3) badRequest('Level phải là 2 hoặc 3');
    return c.body(await buildTemplate(membersImport.sheetName, membersImport.columns({ level })) as Uint8Array<ArrayBuffer>, 200, xlsxResponseHeaders(membersImport.templateName({ level })));
  };
  const canImport = requirePermission('organizations.add_member');
  return new Hono<AppEnv>()
    .get('/template/:level', requireAuth, canImport, template)
    .get('/members/import/template/:level', requireAuth, canImport, template)
    .post('/members/import/upload', requireAuth, validate('query', memberImportLevelQuery), async (c) => {
      const { level } = c.req.valid('query');
      const file = await readUpload(c);
      const form = await c.req.parseBody();
      const organizationId = c.req.valid('query').organizationId ?? Number(form.organizationId);
      if (!Number.isInteger(organizationId) || organizationId <= 0) badRequest('Thiếu tổ chức cần nhập thành viên (organizationId)');
      const ctx = orgContext(c.get('deps').db, organizationId);
      if (!ctx) fail(404, 'Không tìm thấy tổ chức');
      if (!hasPermission(c.get('actor').roles, 'organizations.add_member', ctx)) forbidden();
      return c.json(await importService(membersImport, c.get('deps'), c.get('actor'), auditContext(c).ip).upload(file, { level, organizationId }), 201);
    })
    .route('/import', sessionRoutes(membersImport, requirePermission('organizations.add_member', sessionOrganization)));
}

export const importKinds = { users: usersImport, departments: departmentsImport, classes: classesImport };
