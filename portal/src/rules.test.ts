import { formatDateTime } from '@doanhoi/shared';
import { describe, expect, it } from 'vitest';
import {
  amountOf,
  displayStatus,
  dueDateOf,
  filterAssignments,
  isPortalPath,
  isVisible,
  lastWords,
  changePasswordUrl,
  loginUrl,
  memberAction,
  nextPollDelay,
  settledRecheckDelay,
  owedOf,
  partlyPaidOf,
  POLL_GIVE_UP_MS,
  normalizeOrderStatus,
  paginate,
  readDate,
  safeRedirect,
  sortAssignments,
  summarize,
  type RuleAssignment,
} from './rules';

const NOW = Date.parse('2026-03-15T05:00:00Z'); // 12:00 in Vietnam
const FUTURE = '2026-04-30T16:59:59.000Z';
const PAST = '2026-03-01T16:59:59.000Z';

function a(
  id: number,
  status: string,
  campaignStatus: string,
  extra: Partial<RuleAssignment> & { endDate?: string; name?: string } = {},
): RuleAssignment {
  const { endDate = FUTURE, name = `Đợt ${id}`, ...rest } = extra;
  return { id, status, feeLevel: { amount: 100_000 }, campaign: { name, status: campaignStatus, endDate }, ...rest };
}

describe('member view rules (001 §4)', () => {
  it('shows only assignments of ACTIVE or CANCELLED campaigns', () => {
    expect(isVisible(a(1, 'PENDING', 'ACTIVE'))).toBe(true);
    expect(isVisible(a(2, 'PENDING', 'CANCELLED'))).toBe(true);
    expect(isVisible(a(3, 'PENDING', 'DRAFT'))).toBe(false);
    expect(isVisible(a(4, 'PAID', 'COMPLETED'))).toBe(false);
  });

  it('offers pay now only for PENDING of an ACTIVE campaign that has not ended', () => {
    expect(memberAction(a(1, 'PENDING', 'ACTIVE'), NOW)).toBe('pay');
    expect(memberAction(a(2, 'PENDING', 'ACTIVE', { endDate: PAST }), NOW)).toBe('expired');
  });

  it('honours canPay: false — the treasurer for a campaign without online payment, never a button that can only fail (issue 25.3)', () => {
    expect(memberAction(a(1, 'PENDING', 'ACTIVE', { canPay: false, cannotPayReason: 'NO_ONLINE_PAYMENT' }), NOW)).toBe('treasurer');
    expect(memberAction(a(2, 'PENDING', 'ACTIVE', { canPay: false, cannotPayReason: 'CAMPAIGN_ENDED' }), NOW)).toBe('expired');
    expect(memberAction(a(3, 'PENDING', 'ACTIVE', { canPay: false, cannotPayReason: 'NOTHING_DUE' }), NOW)).toBe('none');
    expect(memberAction(a(4, 'PENDING', 'ACTIVE', { canPay: false }), NOW)).toBe('none');
    expect(memberAction(a(5, 'PENDING', 'ACTIVE', { canPay: true, cannotPayReason: null }), NOW)).toBe('pay');
  });

  it("shows 'payment expired' for PENDING of a CANCELLED campaign and for OVERDUE", () => {
    expect(memberAction(a(1, 'PENDING', 'CANCELLED'), NOW)).toBe('expired');
    expect(memberAction(a(2, 'OVERDUE', 'ACTIVE'), NOW)).toBe('expired');
    expect(memberAction(a(3, 'OVERDUE', 'CANCELLED'), NOW)).toBe('expired');
  });

  it("shows 'already paid' for PAID, whatever the campaign", () => {
    expect(memberAction(a(1, 'PAID', 'ACTIVE'), NOW)).toBe('paid');
    expect(memberAction(a(2, 'PAID', 'CANCELLED', { endDate: PAST }), NOW)).toBe('paid');
  });

  it('offers nothing for a campaign the member should not see', () => {
    expect(memberAction(a(1, 'PENDING', 'DRAFT'), NOW)).toBe('none');
  });

  it('displays a PENDING assignment past the campaign end as OVERDUE; PAID stays PAID', () => {
    expect(displayStatus(a(1, 'PENDING', 'ACTIVE', { endDate: PAST }), NOW)).toBe('OVERDUE');
    expect(displayStatus(a(2, 'PENDING', 'ACTIVE'), NOW)).toBe('PENDING');
    expect(displayStatus(a(3, 'PAID', 'ACTIVE', { endDate: PAST }), NOW)).toBe('PAID');
    expect(displayStatus(a(4, 'OVERDUE', 'ACTIVE'), NOW)).toBe('OVERDUE');
  });

  it('reads a bare end date as the end of that day in Vietnam time', () => {
    const sameDay = a(1, 'PENDING', 'ACTIVE', { endDate: '2026-03-15' });
    expect(displayStatus(sameDay, NOW)).toBe('PENDING');
    expect(displayStatus(sameDay, Date.parse('2026-03-15T17:00:00Z'))).toBe('OVERDUE');
  });

  it('keeps PENDING when the campaign has no end date', () => {
    expect(displayStatus({ id: 1, status: 'PENDING', campaign: { status: 'ACTIVE', endDate: null } }, NOW)).toBe('PENDING');
  });
});

describe('sort order', () => {
  it('puts PENDING first, then due date ascending, then id', () => {
    const list = [
      a(1, 'PAID', 'ACTIVE', { dueDate: '2026-03-20T00:00:00Z' }),
      a(2, 'PENDING', 'ACTIVE', { dueDate: '2026-04-20T00:00:00Z' }),
      a(3, 'OVERDUE', 'ACTIVE', { dueDate: '2026-03-10T00:00:00Z' }),
      a(4, 'PENDING', 'ACTIVE', { dueDate: '2026-03-25T00:00:00Z' }),
      a(5, 'PENDING', 'CANCELLED', { dueDate: null }),
      a(6, 'PENDING', 'ACTIVE', { dueDate: '2026-03-25T00:00:00Z' }),
    ];
    expect(sortAssignments(list, NOW).map((x) => x.id)).toEqual([4, 6, 2, 5, 3, 1]);
  });

  it('sorts a PENDING shown as overdue with the non-pending ones', () => {
    const list = [
      a(1, 'PENDING', 'ACTIVE', { endDate: PAST }),
      a(2, 'PENDING', 'ACTIVE'),
      a(3, 'PAID', 'ACTIVE', { dueDate: '2026-01-01T00:00:00Z' }),
    ];
    expect(sortAssignments(list, NOW).map((x) => x.id)).toEqual([2, 3, 1]);
  });

  it('puts entries without any date last and does not mutate the input', () => {
    const list = [a(1, 'PAID', 'ACTIVE', { endDate: undefined, dueDate: null }), a(2, 'PAID', 'ACTIVE')];
    list[0].campaign.endDate = null;
    const sorted = sortAssignments(list, NOW);
    expect(sorted.map((x) => x.id)).toEqual([2, 1]);
    expect(list.map((x) => x.id)).toEqual([1, 2]);
  });
});

describe('amounts, tiles and filters', () => {
  it('uses the assignment amount, else the fee level amount', () => {
    expect(amountOf(a(1, 'PENDING', 'ACTIVE', { amount: 50_000 }))).toBe(50_000);
    expect(amountOf(a(2, 'PENDING', 'ACTIVE'))).toBe(100_000);
    expect(amountOf({ id: 3, status: 'PENDING', campaign: { status: 'ACTIVE' } })).toBe(0);
  });

  it('falls back to the campaign end for the due date', () => {
    expect(dueDateOf(a(1, 'PENDING', 'ACTIVE', { dueDate: '2026-03-20T00:00:00Z' }))).toBe('2026-03-20T00:00:00Z');
    expect(dueDateOf(a(2, 'PENDING', 'ACTIVE'))).toBe(FUTURE);
  });

  it('sums counts and VND by displayed status', () => {
    const s = summarize(
      [
        a(1, 'PENDING', 'ACTIVE'),
        a(2, 'PAID', 'ACTIVE', { amount: 200_000 }),
        a(3, 'OVERDUE', 'ACTIVE'),
        a(4, 'PENDING', 'ACTIVE', { endDate: PAST }),
      ],
      NOW,
    );
    expect(s.total).toEqual({ count: 4, amount: 500_000 });
    expect(s.pending).toEqual({ count: 1, amount: 100_000 });
    expect(s.paid).toEqual({ count: 1, amount: 200_000 });
    expect(s.overdue).toEqual({ count: 2, amount: 200_000 });
  });

  it('filters by displayed status and by campaign name without accents or case', () => {
    const list = [
      a(1, 'PENDING', 'ACTIVE', { name: 'Đoàn phí 2025' }),
      a(2, 'PENDING', 'ACTIVE', { name: 'Hội phí', endDate: PAST }),
      a(3, 'PAID', 'ACTIVE', { name: 'Đoàn phí 2024' }),
    ];
    expect(filterAssignments(list, { status: 'ALL', search: 'doan phi' }, NOW).map((x) => x.id)).toEqual([1, 3]);
    expect(filterAssignments(list, { status: 'OVERDUE', search: '' }, NOW).map((x) => x.id)).toEqual([2]);
    expect(filterAssignments(list, { status: 'PENDING', search: '  ĐOÀN ' }, NOW).map((x) => x.id)).toEqual([1]);
  });

  it('pages 10 at a time and clamps the page', () => {
    const list = Array.from({ length: 23 }, (_, i) => i + 1);
    expect(paginate(list, 1)).toMatchObject({ items: list.slice(0, 10), page: 1, totalPages: 3, total: 23, from: 1, to: 10 });
    expect(paginate(list, 3)).toMatchObject({ items: [21, 22, 23], from: 21, to: 23 });
    expect(paginate(list, 9).page).toBe(3);
    expect(paginate([], 2)).toMatchObject({ items: [], page: 1, totalPages: 1, from: 0, to: 0 });
  });
});

describe('payment result helpers', () => {
  it('treats unknown order statuses as pending', () => {
    expect(normalizeOrderStatus('PAID')).toBe('PAID');
    expect(normalizeOrderStatus('expired')).toBe('EXPIRED');
    expect(normalizeOrderStatus('CANCELLED')).toBe('CANCELLED');
    expect(normalizeOrderStatus('PROCESSING')).toBe('PENDING');
    expect(normalizeOrderStatus(undefined)).toBe('PENDING');
  });

  it('reads zone-less payOS times as Vietnam time and zoned ISO as that instant', () => {
    expect(formatDateTime(readDate('2026-11-23 14:30:58'))).toBe(formatDateTime('2026-11-23T07:30:58Z'));
    expect(readDate('2026-11-23T07:30:50.011Z')?.toISOString()).toBe('2026-11-23T07:30:50.011Z');
    expect(readDate('2025-12-12T09:00:00+07:00')?.toISOString()).toBe('2025-12-12T02:00:00.000Z');
    expect(readDate(null)).toBeNull();
    expect(readDate('not a date')).toBeNull();
  });

  it('keeps the last 4 words of a transaction description', () => {
    expect(lastWords('CUSTOMER NGUYEN VAN AN chuyen tien TT 123456 DHDP')).toBe('tien TT 123456 DHDP');
    expect(lastWords('  a   b  c ')).toBe('a b c');
    expect(lastWords('one two three four five', 4)).toBe('two three four five');
    expect(lastWords(null)).toBe('');
    expect(lastWords('')).toBe('');
  });
});

describe('navigation helpers', () => {
  it('accepts only same-site paths after sign-in', () => {
    expect(safeRedirect('/payment-result/123?x=1')).toBe('/payment-result/123?x=1');
    expect(safeRedirect('/')).toBe('/');
    expect(safeRedirect(null)).toBe('/payment/my-campaigns');
    expect(safeRedirect('https://evil.example')).toBe('/payment/my-campaigns');
    expect(safeRedirect('//evil.example')).toBe('/payment/my-campaigns');
    expect(safeRedirect('/\\evil.example')).toBe('/payment/my-campaigns');
    expect(safeRedirect('/payment/login?to=/x')).toBe('/payment/my-campaigns');
  });

  it('tells portal paths from admin paths', () => {
    expect(isPortalPath('/payment/my-campaigns')).toBe(true);
    expect(isPortalPath('/payment-result/42')).toBe(true);
    expect(isPortalPath('/')).toBe(false);
    expect(isPortalPath('/admin/payment-campaigns')).toBe(false);
    expect(isPortalPath('/payments')).toBe(false);
  });

  it('builds the login URL with the way back', () => {
    expect(loginUrl('/payment-result/42')).toBe('/payment/login?to=%2Fpayment-result%2F42');
    expect(loginUrl('//evil')).toBe('/payment/login');
  });

  it('sends a temporary password to the change form with the way back, never back to the form itself', () => {
    expect(changePasswordUrl('/payment-result/42')).toBe('/payment/change-password?to=%2Fpayment-result%2F42');
    expect(changePasswordUrl('/payment/change-password?to=/x')).toBe('/payment/change-password');
    expect(safeRedirect('/payment/change-password')).toBe('/payment/my-campaigns');
  });
});

describe('status polling backs off and stops (issue 11 item 10)', () => {
  it('checks every 5 s in the first minute, then every 10 s, then every 30 s', () => {
    expect(nextPollDelay(0)).toBe(5000);
    expect(nextPollDelay(59_999)).toBe(5000);
    expect(nextPollDelay(60_000)).toBe(10_000);
    expect(nextPollDelay(3 * 60_000)).toBe(30_000);
  });

  it('stops after ten minutes, so an open tab does not ask forever', () => {
    expect(nextPollDelay(POLL_GIVE_UP_MS - 1)).toBe(30_000);
    expect(nextPollDelay(POLL_GIVE_UP_MS)).toBeNull();
    // Fewer than 50 automatic checks in all.
    let elapsed = 0;
    let checks = 0;
    for (let d = nextPollDelay(elapsed); d !== null; d = nextPollDelay(elapsed)) {
      elapsed += d;
      checks += 1;
    }
    expect(checks).toBeLessThan(50);
  });
});

describe('an underpaid fee stays payable for its balance', () => {
  const base = { id: 1, feeLevel: { amount: 50_000 }, campaign: { status: 'ACTIVE', endDate: '2099-12-31' } };
  it('owes the remaining amount, and shows what was already paid', () => {
    const a = { ...base, status: 'PENDING', amount: 50_000, remainingAmount: 20_000 };
    expect(owedOf(a)).toBe(20_000);
    expect(partlyPaidOf(a)).toBe(30_000);
    expect(memberAction(a, Date.parse('2026-11-23'))).toBe('pay');
  });
  it('owes the whole amount when the API sends no balance, and nothing once paid', () => {
    expect(owedOf({ ...base, status: 'PENDING', amount: 50_000 })).toBe(50_000);
    expect(owedOf({ ...base, status: 'PAID', amount: 50_000, remainingAmount: 0 })).toBe(0);
  });
  it('the pending tile sums balances, the total tile full amounts', () => {
    const s = summarize([{ ...base, status: 'PENDING', amount: 50_000, remainingAmount: 20_000 }], Date.parse('2026-11-23'));
    expect(s.pending.amount).toBe(20_000);
    expect(s.total.amount).toBe(50_000);
  });
});

describe('checks after the order left PENDING', () => {
  it('checks twice more within ten seconds, then stops', () => {
    expect(settledRecheckDelay(0)).toBeGreaterThanOrEqual(2000);
    expect(settledRecheckDelay(0)).toBeLessThanOrEqual(3000);
    expect(settledRecheckDelay(0)! + settledRecheckDelay(1)!).toBeLessThanOrEqual(10_000);
    expect(settledRecheckDelay(2)).toBeNull();
  });
});

describe('an exempted fee (issue 15.3)', () => {
  it('is shown as exempt, never overdue, owes nothing and offers no payment', () => {
    const a = {
      id: 1,
      status: 'EXEMPTED',
      amount: 0,
      remainingAmount: 0,
      feeLevel: { amount: 50_000 },
      campaign: { status: 'ACTIVE', endDate: '2000-01-01' },
    };
    expect(displayStatus(a)).toBe('EXEMPTED');
    expect(memberAction(a)).toBe('exempted');
    expect(owedOf(a)).toBe(0);
    expect(partlyPaidOf(a)).toBe(0);
  });
});
