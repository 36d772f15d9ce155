/** Success answers of đoàn phí by rule and remittance up the tree (issue 30 items 4–5). */
import {
  duesGeneratedSchema,
  duesPlanSchema,
  duesRatesResponse,
  duesSharesResponse,
  remittanceCampaignsResponse,
  remittanceReportSchema,
  remittanceSchema,
} from '@doanhoi/shared';
import { created, ok, xlsx, type Contract } from './contract';

export const duesContract: Contract = {
  'GET /dues/rates': ok(duesRatesResponse, "The rate per member type in force in the organization (own, inherited or the rule's)"),
  'PUT /dues/rates': ok(duesRatesResponse, 'The rates after the change (null removes the own rate)'),
  'GET /dues/shares': ok(duesSharesResponse, 'The share each organization type keeps'),
  'PUT /dues/shares': ok(duesSharesResponse, 'The shares after the change'),
  'POST /dues/campaigns/preview': ok(duesPlanSchema, 'What generating would create: levels with counts, total, examples'),
  'POST /dues/campaigns': created(duesGeneratedSchema, 'The DRAFT campaign with its levels and assignments'),
  'GET /payment-campaigns/:id/remittance': ok(
    remittanceReportSchema,
    'The unit and its direct units: collected, kept, owed up, received, confirmed',
  ),
  'GET /payment-campaigns/:id/remittance/export': xlsx('The same figures as xlsx'),
  'GET /remittances/campaigns': ok(remittanceCampaignsResponse, 'Campaigns (not drafts) of the unit and the levels above it'),
  'POST /remittances': created(remittanceSchema, 'The recorded remittance (PENDING until the level above confirms)'),
  'POST /remittances/:id/confirm': ok(remittanceSchema, 'Confirmed by the receiving level'),
  'POST /remittances/:id/cancel': ok(remittanceSchema, 'Withdrawn or turned down before confirmation'),
};
