/** Success answer of the users' bulk change (issue 30 item 6). */
import { userBulkUpdateResponse } from '@doanhoi/shared/schemas/users-bulk';
import { ok, type Contract } from './contract';

export const usersBulkContract: Contract = {
  'POST /users/bulk-update': ok(
    userBulkUpdateResponse,
    "With dryRun, the preview: how many match, how many would change, a sample and the rows that refuse it. Otherwise the change was made; a row outside the caller's rights refuses it all (403, or 409 for the self or a non-member; refusals list the codes), over BULK_UPDATE_MAX_USERS 413",
  ),
};
