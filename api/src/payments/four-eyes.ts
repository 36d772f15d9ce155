/**
 * Four eyes on money for oneself (issue 25, item 10; docs/decisions.md): nobody, super admin
 * included, exempts, reduces, waives, resolves, marks paid or deletes their own fee. Another officer does it.
 */
import type { Actor } from '../lib/context';
import { forbidden } from '../lib/errors';

export function assertNotOwnFee(actor: Actor, feeUserId: number, what: string): void {
  if (feeUserId === actor.id) forbidden(`Bạn không thể tự ${what} cho khoản phí của chính mình: việc này cần một cán bộ khác thực hiện`);
}
