/** Success answers of /organizations (000 §7). */
import {
  accessibleOrganizationSchema,
  memberAddedResponse,
  memberRemovalPlanSchema,
  memberRemovedResponse,
  membershipEndedResponse,
  membershipsEndedResponse,
  membersRemovedResponse,
  messageResponse,
  organizationDetailSchema,
  organizationListResponse,
  organizationMembersResponse,
  organizationNodeSchema,
  organizationOfficersResponse,
  organizationRefSchema,
  organizationStatsSchema,
  organizationSummarySchema,
} from '@doanhoi/shared';
import { z } from 'zod';
import { created, ok, type Contract } from './contract';

export const organizationsContract: Contract = {
  'GET /organizations': ok(organizationListResponse, 'One page of organizations'),
  'GET /organizations/accessible': ok(z.array(accessibleOrganizationSchema), 'Organizations the caller sees, in tree order'),
  'GET /organizations/tree': ok(
    z.array(organizationNodeSchema),
    'The visible tree: roots and their children (deeper levels through child-nodes)',
  ),
  'GET /organizations/stats': ok(organizationStatsSchema, 'Counts over the visible organizations (000 §3)'),
  'GET /organizations/type/:type': ok(z.array(organizationSummarySchema), 'Visible organizations of one type'),
  'GET /organizations/by-type-code/:type/:code': ok(organizationDetailSchema),
  'POST /organizations': created(organizationSummarySchema, 'The created organization'),
  'GET /organizations/:id': ok(organizationDetailSchema),
  'GET /organizations/:id/children': ok(z.array(organizationSummarySchema)),
  'GET /organizations/:id/child-nodes': ok(z.array(organizationNodeSchema), 'One level below the node (children left empty)'),
  'GET /organizations/:id/stats': ok(organizationStatsSchema, 'Counts over the organization and everything beneath it'),
  'GET /organizations/:id/parent': ok(organizationSummarySchema.nullable(), 'The parent, or null for a root'),
  'GET /organizations/:id/breadcrumb': ok(z.array(organizationRefSchema), 'From the root down to the organization'),
  'GET /organizations/:id/officers': ok(
    organizationOfficersResponse,
    'One page of the roles held in the unit (and, with inherited=true, in the visible units above it)',
  ),
  'GET /organizations/:id/members': ok(
    organizationMembersResponse,
    'One page of active members, or with ?status=ended those whose membership ended (endedAt, endReason, endNote)',
  ),
  'PATCH /organizations/:id': ok(organizationSummarySchema, 'The updated organization'),
  'DELETE /organizations/:id': ok(messageResponse, 'Deleted'),
  'DELETE /organizations/:id/members/bulk-remove': ok(membersRemovedResponse),
  'POST /organizations/:id/members/bulk-end': ok(
    membershipsEndedResponse,
    'The year-end action: the chosen members (or a class) leave in one transaction, one audit row each',
  ),
  'POST /organizations/:id/members/:userId/end': ok(
    membershipEndedResponse,
    'The membership ends with a date and a reason (with the units beneath and the parents left empty); history and fees stay',
  ),
  'POST /organizations/:id/members/:userId/with-parents': created(
    memberAddedResponse,
    'Added here and to the parents the caller may add to',
  ),
  'POST /organizations/:id/members/:userId': created(memberAddedResponse),
  'DELETE /organizations/:id/members/:userId/safely': ok(
    memberRemovedResponse,
    'Removed from this unit only; 409 while a unit beneath holds them',
  ),
  'GET /organizations/:id/members/:userId/removal': ok(
    memberRemovalPlanSchema,
    'The levels the member can be removed from: each names the units left and those stayed in',
  ),
  'DELETE /organizations/:id/members/:userId': ok(
    memberRemovedResponse,
    'Removed from ?from= (default the recommended level) and every unit beneath it',
  ),
  'POST /organizations/:id/member/:code': created(memberAddedResponse, 'Added by user code (with parents)'),
};
