/** Request and response schemas of the payments API (001 §3–§7), one module per part under ./payments/. */
export { VN_OFFSET_MS, parseVnDateTime } from '../format/vn-date-time';
export { assignmentStatusSchema, campaignStatusSchema, orderStatusSchema, paymentMethodSchema } from './payments/fields';
export * from './payments/campaigns';
export * from './payments/fee-levels';
export * from './payments/assignments';
export * from './payments/payos-config';
export * from './payments/orders';
export * from './payments/responses';
export * from './payments/adjustments';
