/**
 * What an order meant for the member's fee, in words (issue 25.3c, 25.5): the result page's headline
 * says what happened — received X; Y still due / Z to be refunded; reversed; a reversing entry —
 * instead of greeting every PAID order with "success". Pure: the unit tests pin it down.
 */
import type { OrderOutcome } from '@doanhoi/shared';

/** The order fields read here; a structural subset of the member's order. */
export interface OutcomeOrder {
  status: string;
  isTest?: boolean | null;
  outcome?: OrderOutcome | null;
}

export type Tone = 'success' | 'warning' | 'danger' | 'neutral';
export type HeadlineKind = 'paid' | 'underpaid' | 'refundDue' | 'refunded' | 'reversed' | 'reversal' | 'test';

export interface Headline {
  kind: HeadlineKind;
  tone: Tone;
  /** Key under paymentResult.outcome.<kind>: title and message (message.counted / message.none where it varies). */
  messageKey: string;
  /** A second line: what the fee still needs, when that is not already the headline. */
  stillDue: number;
}

/**
 * The headline of an order that received money or reverses one, else null (pending, or a link
 * cancelled or expired with nothing paid: the status itself says it).
 */
export function headlineOf(order: OutcomeOrder): Headline | null {
  const o = order.outcome;
  if (!o || order.status === 'PENDING') return null;
  const extra = (kind: HeadlineKind) => (kind === 'underpaid' ? 0 : o.stillDue);
  if (o.reversesOrderCode != null) return { kind: 'reversal', tone: 'neutral', messageKey: 'reversal.message', stillDue: 0 };
  if (o.reversedAt)
    return {
      kind: 'reversed',
      tone: 'danger',
      messageKey: o.reversalReason ? 'reversed.messageReason' : 'reversed.message',
      stillDue: o.stillDue,
    };
  if (o.received <= 0) return null;
  if (o.refundDue > 0)
    return {
      kind: 'refundDue',
      tone: 'warning',
      messageKey: o.counted > 0 ? 'refundDue.messageCounted' : 'refundDue.messageNone',
      stillDue: extra('refundDue'),
    };
  if (o.refunded > 0) {
    const settled = o.counted > 0 && o.stillDue === 0;
    return {
      kind: 'refunded',
      tone: settled ? 'success' : 'warning',
      messageKey: o.counted > 0 ? 'refunded.messageCounted' : 'refunded.messageNone',
      stillDue: extra('refunded'),
    };
  }
  if (o.counted <= 0 && order.isTest) return { kind: 'test', tone: 'warning', messageKey: 'test.message', stillDue: extra('test') };
  if (o.stillDue > 0) return { kind: 'underpaid', tone: 'warning', messageKey: 'underpaid.message', stillDue: 0 };
  return { kind: 'paid', tone: 'success', messageKey: 'paid.message', stillDue: 0 };
}

/** Whether the page offers a receipt (and "print receipt"): only for money that counted, a reversed one marked. */
export function hasReceipt(order: OutcomeOrder): boolean {
  if (order.outcome) return order.outcome.receipt;
  // An older API without outcomes: a PAID order is a payment.
  return order.status === 'PAID';
}
