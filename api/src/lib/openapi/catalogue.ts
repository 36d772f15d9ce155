/** Success answers of /departments, /classes and /roles (catalogues with the same list/detail/bulk shape). */
import {
  catalogueBulkDeleteResponse,
  classDetailSchema,
  classListResponse,
  departmentListResponse,
  departmentSchema,
  grantRolesResponse,
  messageResponse,
  permissionSchema,
  roleBulkDeleteResponse,
  roleDeleteResponse,
  roleDetailSchema,
  roleListResponse,
  seedDefaultRolesResponse,
} from '@doanhoi/shared';
import { z } from 'zod';
import { created, ok, type Contract } from './contract';

export const catalogueContract: Contract = {
  'GET /departments': ok(departmentListResponse, 'One page of departments'),
  'GET /departments/:id': ok(departmentSchema),
  'POST /departments': created(departmentSchema, 'The created department'),
  'PATCH /departments/:id': ok(departmentSchema, 'The updated department'),
  'DELETE /departments/bulk': ok(catalogueBulkDeleteResponse),
  'DELETE /departments/:id': ok(messageResponse, 'Deleted'),

  'GET /classes': ok(classListResponse, 'One page of classes'),
  'GET /classes/:id': ok(classDetailSchema, 'The class with its students'),
  'POST /classes': created(classDetailSchema, 'The created class'),
  'PATCH /classes/:id': ok(classDetailSchema, 'The updated class'),
  'DELETE /classes/bulk': ok(catalogueBulkDeleteResponse),
  'DELETE /classes/:id': ok(messageResponse, 'Deleted'),

  'GET /roles': ok(roleListResponse, 'One page of roles'),
  'GET /roles/available-permissions': ok(z.array(permissionSchema), 'The permission catalogue'),
  'POST /roles/seed-defaults': ok(seedDefaultRolesResponse, 'Default roles created or brought up to date'),
  'POST /roles/grant-roles': ok(grantRolesResponse, "The user's role links replaced"),
  'GET /roles/:id': ok(roleDetailSchema, 'The role with its permissions'),
  'POST /roles': created(roleDetailSchema, 'The created role'),
  'PUT /roles/:id': ok(roleDetailSchema, 'The updated role'),
  'DELETE /roles': ok(roleBulkDeleteResponse),
  'DELETE /roles/:id': ok(roleDeleteResponse),
};
