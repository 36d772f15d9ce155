/** Success answers of the membership and đoàn phí report (issue 30 item 8). */
import { membershipReportSchema } from '@doanhoi/shared';
import { ok, xlsx, type Contract } from './contract';

export const reportsContract: Contract = {
  'GET /reports/membership': ok(
    membershipReportSchema,
    'The unit (own and total) and its direct units: members at the start, movements, at the end by group, đoàn phí collected, kept and remitted',
  ),
  'GET /reports/membership/export': xlsx('The same report as xlsx'),
};
