/** Payment-assignment export (001 §7), keyset-paged over one campaign. */
import { formatDate, fullName } from '@doanhoi/shared';
import { and, asc, eq, gt, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { feeLevels, paymentAssignments, paymentOrders } from '../db/tables/payments';
import { users } from '../db/tables/users';
import { EXPORT_PAGE, vnDate, type Cell } from '../lib/xlsx-writer';
import { allRows } from '../db/engine';

const STATUS: Record<string, string> = { PENDING: 'Chờ thanh toán', PAID: 'Đã thanh toán', OVERDUE: 'Quá hạn', EXEMPTED: 'Được miễn' };
const ADJUSTMENT: Record<string, string> = { EXEMPTED: 'Miễn', REDUCED: 'Giảm' };
const vnd = (n: number) => n.toLocaleString('vi-VN');

/**
 * Reversed manual payments and their reversing entries of these assignments, one cell each:
 * "+50.000 (#code, date) / −50.000 (#code, date): reason", so the file shows both entries (issue 15.3).
 */
async function reversalCells(db: Db, ids: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string[]>();
  if (ids.length === 0) return new Map();
  const rows = await allRows(
    db
      .select()
      .from(paymentOrders)
      .where(and(inArray(paymentOrders.assignmentId, ids), isNotNull(paymentOrders.reversesOrderId)))
      .orderBy(asc(paymentOrders.id)),
  );
  const originals = new Map(
    rows.length
      ? (
          await allRows(
            db
              .select()
              .from(paymentOrders)
              .where(
                inArray(
                  paymentOrders.id,
                  rows.map((r) => r.reversesOrderId!),
                ),
              ),
          )
        ).map((o) => [o.id, o])
      : [],
  );
  for (const r of rows) {
    const o = originals.get(r.reversesOrderId!);
    const text = `${o ? `+${vnd(o.receivedAmount)} (#${o.orderCode}, ${o.paidAt ? formatDate(o.paidAt) : ''}) / ` : ''}${vnd(r.receivedAmount)} (#${r.orderCode}, ${r.paidAt ? formatDate(r.paidAt) : ''}): ${r.note ?? ''}`;
    out.set(r.assignmentId, [...(out.get(r.assignmentId) ?? []), text]);
  }
  return new Map([...out].map(([k, v]) => [k, v.join('; ')]));
}
const REASON: Record<string, string> = {
  DUPLICATE: 'thanh toán trùng',
  AFTER_CLOSE: 'tiền đến sau khi đợt thu đóng',
  OVERPAID: 'chuyển thừa',
  UNDERPAID: 'chuyển thiếu',
  AFTER_EXEMPTION: 'tiền đến sau khi được miễn',
};

interface Money {
  received: number;
  refundDue: number;
  refunded: number;
  test: number;
  notes: string[];
}

/**
 * The money of each fee as a treasurer reconciles it with the bank (issue 26 item 9): every real
 * đồng received (excess included), what is still to be refunded and what was refunded, with the
 * reason and order code; sandbox money apart. The same readings as statistics.ts and outcome.ts.
 */
async function moneyCells(db: Db, ids: number[]): Promise<Map<number, Money>> {
  const out = new Map<number, Money>();
  if (ids.length === 0) return out;
  const rows = await allRows(
    db
      .select()
      .from(paymentOrders)
      .where(and(inArray(paymentOrders.assignmentId, ids), gt(paymentOrders.receivedAmount, 0)))
      .orderBy(asc(paymentOrders.id)),
  );
  for (const o of rows) {
    const m = out.get(o.assignmentId) ?? { received: 0, refundDue: 0, refunded: 0, test: 0, notes: [] };
    out.set(o.assignmentId, m);
    if (o.isTest) {
      m.test += o.receivedAmount;
      continue;
    }
    // A reversed mark-paid never brought money (its reversing entry has receivedAmount < 0).
    if (o.reversedAt || o.reversesOrderId != null) continue;
    m.received += o.receivedAmount;
    if (o.attention !== 'REFUND_DUE') continue;
    const amount = o.attentionAmount ?? 0;
    const why = REASON[o.attentionReason ?? ''] ?? '';
    if (o.resolution === null) {
      m.refundDue += amount;
      m.notes.push(`Cần hoàn ${vnd(amount)} ₫ (${why}, #${o.orderCode})`);
    } else if (o.resolution === 'REFUNDED') {
      m.refunded += amount;
      m.notes.push(`Đã hoàn ${vnd(amount)} ₫ (${why}, #${o.orderCode}${o.resolvedAt ? `, ${formatDate(o.resolvedAt)}` : ''})`);
    } else if (o.resolution === 'ACCEPTED') {
      m.notes.push(`Giữ lại ${vnd(amount)} ₫ (${why}, #${o.orderCode})`);
    }
  }
  return out;
}

const METHOD: Record<string, string> = { MANUAL: 'Thủ công', ONLINE: 'Trực tuyến' };
// Sandbox money must never pass for real money in a treasurer's file (issue 10 item 2).
const TEST_METHOD = 'Thử nghiệm (sandbox, không phải tiền thật)';

export async function* assignmentPages(db: Db, campaignId: number): AsyncGenerator<Record<string, Cell>[]> {
  let last = 0;
  for (;;) {
    const rows = await allRows(
      db
        .select({ a: paymentAssignments, u: users, levelName: feeLevels.levelName })
        .from(paymentAssignments)
        .innerJoin(users, eq(users.id, paymentAssignments.userId))
        .innerJoin(feeLevels, eq(feeLevels.id, paymentAssignments.feeLevelId))
        .where(and(eq(paymentAssignments.campaignId, campaignId), gt(paymentAssignments.id, last)))
        .orderBy(asc(paymentAssignments.id))
        .limit(EXPORT_PAGE),
    );
    if (rows.length === 0) return;
    last = rows[rows.length - 1]!.a.id;
    const reversals = await reversalCells(
      db,
      rows.map((r) => r.a.id),
    );
    const money = await moneyCells(
      db,
      rows.map((r) => r.a.id),
    );
    yield rows.map(({ a, u, levelName }) => {
      const m = money.get(a.id);
      return {
        memberCode: u.code,
        memberName: fullName(u),
        memberEmail: u.email,
        memberPhone: u.phone,
        feeLevelName: levelName,
        // The amount owed is the assignment's own (it stops following the fee level once money arrived).
        amount: a.amount,
        status: STATUS[a.status] ?? a.status,
        dueDate: vnDate(a.dueDate),
        paidAt: vnDate(a.paidAt),
        paidAmount: a.paidAmount,
        paymentMethod: a.isTestPayment ? TEST_METHOD : a.paymentMethod ? (METHOD[a.paymentMethod] ?? a.paymentMethod) : null,
        adjustment: a.adjustment ? ADJUSTMENT[a.adjustment] : null,
        originalAmount: a.originalAmount,
        adjustmentReason: a.adjustmentReason,
        // A waived or reduced fee says by how much, beside the fee before it.
        waivedAmount: a.originalAmount != null ? a.originalAmount - a.amount : null,
        receivedAmount: m ? m.received : 0,
        refundDue: m?.refundDue || null,
        refunded: m?.refunded || null,
        moneyNotes: m?.notes.length ? m.notes.join('; ') : null,
        testAmount: m?.test || null,
        reversals: reversals.get(a.id) ?? null,
        notes: a.notes,
        createdAt: vnDate(a.createdAt),
      };
    });
  }
}
