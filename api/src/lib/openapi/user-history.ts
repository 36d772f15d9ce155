/** Success answer of a member's history (issue 30 item 3). */
import { userHistoryResponse } from '@doanhoi/shared/schemas/user-history';
import { ok, type Contract } from './contract';

export const userHistoryContract: Contract = {
  'GET /users/:id/history': ok(
    userHistoryResponse,
    "The member's timeline, newest first (page, limit, one kind): joined, left, removed, transfers, roles granted and taken, fees assigned, paid and adjusted. The read rule of GET /users/{id}; fee events only for campaigns whose payments the caller may see",
  ),
};
