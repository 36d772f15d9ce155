/** Success answers of /transfers and the membership endings (issue 30 items 1, 2). */
import { transferCandidateResponse, transferListResponse, transferSchema, transferUnitsResponse } from '@doanhoi/shared';
import { z } from 'zod';
import { created, ok, type Contract } from './contract';

export const transfersContract: Contract = {
  'GET /transfers': ok(transferListResponse, 'Requests from or to the units the caller sees (and their own), newest first'),
  'GET /transfers/units': ok(transferUnitsResponse, 'Units a member may ask to move to, by name or code'),
  'GET /transfers/mine': ok(
    z.object({ units: transferUnitsResponse, transfers: z.array(transferSchema) }),
    "The caller's own units and transfer requests (the portal)",
  ),
  'GET /transfers/candidate': ok(
    transferCandidateResponse,
    'A member by code and their current units, for a caller who may ask on either side',
  ),
  'POST /transfers': created(transferSchema, 'The request, PENDING; 409 while another request for the member is pending'),
  'GET /transfers/:id': ok(transferSchema),
  'POST /transfers/:id/accept': ok(
    transferSchema,
    'ACCEPTED: the old memberships ended on the effective date (transferred), the new ones started',
  ),
  'POST /transfers/:id/refuse': ok(transferSchema, 'REFUSED with the reason'),
  'POST /transfers/:id/cancel': ok(transferSchema, 'CANCELLED by the requesting side'),
};
