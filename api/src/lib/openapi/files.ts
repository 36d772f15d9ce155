/** Success answers of the import sessions, the templates and the exports (xlsx files). */
import {
  importExecutionResultSchema,
  importHeadersResultSchema,
  importStatusSchema,
  importUploadResponse,
  importValidationResultSchema,
} from '@doanhoi/shared';
import { created, ok, xlsx, type Contract } from './contract';

/** The four routes every import session offers, under its prefix. */
function importSession(prefix: string): Contract {
  return {
    [`POST ${prefix}/import/upload`]: created(importUploadResponse, 'The file is read into a session: its id and a preview'),
    [`GET ${prefix}/import/:sessionId/validate`]: ok(importValidationResultSchema, 'Every row checked (nothing written)'),
    [`POST ${prefix}/import/:sessionId/execute`]: ok(importExecutionResultSchema, 'The rows written (or the dry run)'),
    [`GET ${prefix}/import/:sessionId/status`]: ok(importStatusSchema, 'Progress of a running import, and its result'),
    [`GET ${prefix}/import/:sessionId/error-rows`]: xlsx('The refused rows only, with their reasons, to fix and upload again'),
  };
}

export const filesContract: Contract = {
  'GET /users/template': xlsx('The users import template'),
  ...importSession('/users'),
  'POST /users/import/headers': ok(importHeadersResultSchema, "The file's headers and the suggested column mapping"),
  'GET /departments/template': xlsx('The departments import template'),
  ...importSession('/departments'),
  'POST /departments/import/headers': ok(importHeadersResultSchema, "The file's headers and the suggested column mapping"),
  'POST /departments/import': ok(importExecutionResultSchema, 'Upload, check and write in one call (the reference API)'),
  'GET /classes/template': xlsx('The classes import template'),
  ...importSession('/classes'),
  'POST /classes/import/headers': ok(importHeadersResultSchema, "The file's headers and the suggested column mapping"),
  'GET /organizations/template/:level': xlsx('The members import template of a level'),
  'GET /organizations/members/import/template/:level': xlsx('The members import template of a level'),
  'POST /organizations/members/import/upload': created(importUploadResponse, 'The file is read into a session: its id and a preview'),
  'GET /organizations/import/:sessionId/validate': ok(importValidationResultSchema, 'Every row checked (nothing written)'),
  'POST /organizations/import/:sessionId/execute': ok(importExecutionResultSchema, 'The rows written (or the dry run)'),
  'GET /organizations/import/:sessionId/status': ok(importStatusSchema, 'Progress of a running import, and its result'),
  'GET /organizations/import/:sessionId/error-rows': xlsx('The refused rows only, with their reasons, to fix and upload again'),
  'POST /organizations/members/import/headers': ok(importHeadersResultSchema, "The file's headers and the suggested column mapping"),

  'POST /export/users': xlsx('The users the caller sees, with the chosen columns'),
  'POST /export/organizations/:id/members': xlsx("The organization's members"),
  'POST /export/payment-assignments/:campaignId': xlsx("The campaign's fees"),
  'GET /audit-logs/export': xlsx('The filtered audit log'),
};
