import type { OrderOutcome } from '@doanhoi/shared';
import { describe, expect, it } from 'vitest';
import { hasReceipt, headlineOf } from './outcome';

const base: OrderOutcome = {
  received: 0,
  counted: 0,
  refundDue: 0,
  refunded: 0,
  stillDue: 0,
  receipt: false,
  reversedAt: null,
  reversalReason: null,
  reversesOrderCode: null,
};
const paid = (o: Partial<OrderOutcome>, extra: { isTest?: boolean; status?: string } = {}) => ({
  status: extra.status ?? 'PAID',
  isTest: extra.isTest ?? false,
  outcome: { ...base, ...o },
});

describe('headlineOf: what happened, not a bare "success" (issue 25.5)', () => {
  it('a full payment is a success', () => {
    expect(headlineOf(paid({ received: 60_000, counted: 60_000, receipt: true }))).toMatchObject({ kind: 'paid', tone: 'success' });
  });
  it('an underpayment says what is still due, as a warning', () => {
    expect(headlineOf(paid({ received: 30_000, counted: 30_000, stillDue: 30_000, receipt: true }))).toMatchObject({
      kind: 'underpaid',
      tone: 'warning',
      stillDue: 0,
    });
  });
  it('money after a cancellation, all to be refunded, is no success', () => {
    expect(headlineOf(paid({ received: 60_000, refundDue: 60_000, stillDue: 60_000 }))).toMatchObject({
      kind: 'refundDue',
      tone: 'warning',
      messageKey: 'refundDue.messageNone',
      stillDue: 60_000,
    });
  });
  it('an overpayment counts the fee and names the refund; once refunded it is a success', () => {
    expect(headlineOf(paid({ received: 120_000, counted: 60_000, refundDue: 60_000, receipt: true }))).toMatchObject({
      kind: 'refundDue',
      messageKey: 'refundDue.messageCounted',
    });
    expect(headlineOf(paid({ received: 120_000, counted: 60_000, refunded: 60_000, receipt: true }))).toMatchObject({
      kind: 'refunded',
      tone: 'success',
    });
  });
  it('a reversed payment and its reversing entry', () => {
    expect(
      headlineOf(paid({ received: 100_000, reversedAt: '2026-11-20T03:00:00Z', reversalReason: 'Nhầm', stillDue: 100_000, receipt: true })),
    ).toMatchObject({ kind: 'reversed', tone: 'danger', messageKey: 'reversed.messageReason', stillDue: 100_000 });
    expect(headlineOf(paid({ reversesOrderCode: 123 }))).toMatchObject({ kind: 'reversal', tone: 'neutral' });
  });
  it('test money that does not count; pending and empty cancelled orders keep their status', () => {
    expect(headlineOf(paid({ received: 50_000 }, { isTest: true }))).toMatchObject({ kind: 'test', tone: 'warning' });
    expect(headlineOf(paid({}, { status: 'PENDING' }))).toBeNull();
    expect(headlineOf(paid({}, { status: 'CANCELLED' }))).toBeNull();
    expect(headlineOf({ status: 'PAID' })).toBeNull();
  });
});

describe('hasReceipt', () => {
  it('follows the API, and a PAID order of an older API', () => {
    expect(hasReceipt(paid({ receipt: false }, { status: 'CANCELLED' }))).toBe(false);
    expect(hasReceipt(paid({ receipt: false, reversesOrderCode: 9 }))).toBe(false);
    expect(hasReceipt(paid({ receipt: true }))).toBe(true);
    expect(hasReceipt({ status: 'PAID' })).toBe(true);
    expect(hasReceipt({ status: 'CANCELLED' })).toBe(false);
  });
});
