/** Payment-assignment export (001 §7), keyset-paged over one campaign. */
import { fullName } from '@doanhoi/shared';
import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { feeLevels, paymentAssignments } from '../payments/schema';
import { users } from '../users/schema';
import { EXPORT_PAGE, vnDate, type Cell } from './writer';

const STATUS: Record<string, string> = { PENDING: 'Chờ thanh toán', PAID: 'Đã thanh toán', OVERDUE: 'Quá hạn' };
const METHOD: Record<string, string> = { MANUAL: 'Thủ công', ONLINE: 'Trực tuyến' };
// Sandbox money must never pass for real money in a treasurer's file (issue 10 item 2).
const TEST_METHOD = 'Thử nghiệm (sandbox, không phải tiền thật)';

export async function* assignmentPages(db: Db, campaignId: number): AsyncGenerator<Record<string, Cell>[]> {
  let last = 0;
  for (;;) {
    const rows = db
      .select({ a: paymentAssignments, u: users, levelName: feeLevels.levelName })
      .from(paymentAssignments)
      .innerJoin(users, eq(users.id, paymentAssignments.userId))
      .innerJoin(feeLevels, eq(feeLevels.id, paymentAssignments.feeLevelId))
      .where(and(eq(paymentAssignments.campaignId, campaignId), gt(paymentAssignments.id, last)))
      .orderBy(asc(paymentAssignments.id))
      .limit(EXPORT_PAGE)
      .all();
    if (rows.length === 0) return;
    last = rows[rows.length - 1]!.a.id;
    yield rows.map(({ a, u, levelName }) => ({
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
      notes: a.notes,
      createdAt: vnDate(a.createdAt),
    }));
  }
}
