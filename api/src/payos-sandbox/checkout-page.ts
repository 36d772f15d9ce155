/** The sandbox checkout page: Vietnamese, amount in VND, description, a VietQR-like panel, Pay and Cancel. */
import { createHash } from 'node:crypto';
import { formatVnd } from '@doanhoi/shared';
import { SANDBOX_BANK, type SandboxLink } from './state';

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** A QR-looking grid drawn from the link id (not a scannable code: the sandbox has no bank). */
export function qrSvg(seed: string, size = 29): string {
  const bits: boolean[] = [];
  for (let i = 0; bits.length < size * size; i++) {
    for (const byte of createHash('sha256').update(`${seed}:${i}`).digest()) for (let b = 0; b < 8; b++) bits.push(((byte >> b) & 1) === 1);
  }
  const finder = (x: number, y: number) => {
    for (const [fx, fy] of [
      [0, 0],
      [size - 7, 0],
      [0, size - 7],
    ] as const) {
      const dx = x - fx;
      const dy = y - fy;
      if (dx >= 0 && dx < 7 && dy >= 0 && dy < 7)
        return dx === 0 || dx === 6 || dy === 0 || dy === 6 || (dx >= 2 && dx <= 4 && dy >= 2 && dy <= 4) ? 1 : 0;
      if (dx >= -1 && dx <= 7 && dy >= -1 && dy <= 7) return 0;
    }
    return null;
  };
  const cells: string[] = [];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const f = finder(x, y);
      if (f === 1 || (f === null && bits[y * size + x])) cells.push(`<rect x="${x}" y="${y}" width="1" height="1"/>`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-2 -2 ${size + 4} ${size + 4}" width="220" height="220" role="img" aria-label="Mã QR thử nghiệm" shape-rendering="crispEdges"><rect x="-2" y="-2" width="${size + 4}" height="${size + 4}" fill="#fff"/><g fill="#111">${cells.join('')}</g></svg>`;
}

const STATUS_TEXT: Record<string, string> = {
  PAID: 'Đơn này đã được thanh toán.',
  CANCELLED: 'Đơn này đã bị hủy.',
  EXPIRED: 'Link thanh toán đã hết hạn.',
};

/** Served as /sandbox/payos/checkout.css: the page has no inline style or script, so a strict CSP holds. */
export const CHECKOUT_CSS = `
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f3f5f9; margin: 0; color: #1f2937; }
main { max-width: 460px; margin: 32px auto; background: #fff; border-radius: 12px; box-shadow: 0 4px 24px rgba(0,0,0,.08); padding: 24px; }
.badge { display: inline-block; background: #fef3c7; color: #92400e; border-radius: 999px; padding: 2px 10px; font-size: 12px; }
h1 { font-size: 20px; margin: 12px 0 4px; }
.amount { font-size: 30px; font-weight: 700; color: #1d4ed8; margin: 8px 0; }
.qr { display: flex; justify-content: center; padding: 12px; border: 1px dashed #cbd5e1; border-radius: 8px; margin: 16px 0; }
dl { display: grid; grid-template-columns: 140px 1fr; gap: 6px 12px; font-size: 14px; }
dt { color: #6b7280; } dd { margin: 0; font-weight: 500; word-break: break-word; }
.actions { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 20px; } .actions form { flex: 1 1 40%; }
button { width: 100%; padding: 12px; border-radius: 8px; border: 0; font-size: 16px; cursor: pointer; }
.pay { background: #16a34a; color: #fff; } .cancel { background: #e5e7eb; color: #111827; } .sim { background: #fde68a; color: #78350f; font-size: 14px; }
.closed { font-weight: 600; color: #b91c1c; }
.message { margin-top: 16px; padding: 10px 12px; border-radius: 8px; background: #fef2f2; color: #991b1b; font-size: 14px; } .message a { color: #1d4ed8; } .note { font-size: 12px; color: #6b7280; margin-top: 16px; }
`;

// data-signed: checkout.js sends these with the member's token (payer.ts). Disabled until that script has
// taken them over: a click before it loads (a slow phone) posted the form without the token and showed a raw 401.
const button = (action: string, cls: string, label: string, mode?: string) =>
  `<form method="post" action="${esc(action)}" data-signed>${mode ? `<input type="hidden" name="mode" value="${mode}">` : ''}<button class="${cls}" type="submit" disabled>${esc(label)}</button></form>`;

export function checkoutPage(l: SandboxLink, base: string): string {
  const paid = l.transactions.reduce((n, t) => n + t.amount, 0);
  const due = Math.max(0, l.amount - paid);
  const open = l.status === 'PENDING' || l.status === 'UNDERPAID';
  const pay = `${base}/checkout/${l.id}/pay`;
  const actions = open
    ? `<div class="actions">
        ${button(pay, 'pay', l.status === 'UNDERPAID' ? 'Thanh toán phần còn thiếu' : 'Thanh toán')}
        ${l.status === 'PENDING' ? button(`${base}/checkout/${l.id}/cancel`, 'cancel', 'Hủy') : ''}
        ${button(pay, 'sim', 'Mô phỏng: chuyển thiếu', 'under')}
      </div>`
    : `<p class="closed">${esc(STATUS_TEXT[l.status] ?? `Trạng thái: ${l.status}`)}</p>
       <div class="actions">${button(pay, 'sim', 'Mô phỏng: chuyển khoản thêm một lần', 'again')}</div>
       <p><a href="${esc(l.status === 'PAID' ? l.returnUrl : l.cancelUrl)}">Quay lại trang kết quả</a></p>`;
  return `<!doctype html>
<html lang="vi">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Thanh toán ${esc(formatVnd(l.amount))} – payOS sandbox</title>
<link rel="stylesheet" href="${esc(`${base}/checkout.css`)}">
<script src="${esc(`${base}/checkout.js`)}" defer></script>
</head>
<body>
<main>
  <span class="badge">Môi trường thử nghiệm – không trừ tiền thật</span>
  <h1>Thanh toán đơn hàng #${l.orderCode}</h1>
  <div class="amount">${esc(formatVnd(due > 0 ? due : l.amount))}</div>
  ${paid > 0 && due > 0 ? `<p>Đã nhận ${esc(formatVnd(paid))} / ${esc(formatVnd(l.amount))}</p>` : ''}
  <div class="qr">${qrSvg(l.id)}</div>
  <dl>
    <dt>Nội dung</dt><dd>${esc(l.description)}</dd>
    <dt>Ngân hàng</dt><dd>${esc(SANDBOX_BANK.bankName)}</dd>
    <dt>Số tài khoản</dt><dd>${esc(SANDBOX_BANK.accountNumber)}</dd>
    <dt>Chủ tài khoản</dt><dd>${esc(SANDBOX_BANK.accountName)}</dd>
    <dt>Mã đơn hàng</dt><dd>${l.orderCode}</dd>
  </dl>
  ${actions}
  <p id="pay-message" class="message" role="alert" hidden></p>
  <p class="note">Trang này mô phỏng cổng thanh toán payOS. Chỉ thành viên được giao khoản phí, đã đăng nhập, mới thanh toán được. Nhấn “Thanh toán” để giả lập chuyển khoản thành công; các nút “Mô phỏng” tạo chuyển khoản thiếu hoặc chuyển lần hai để kiểm thử.</p>
</main>
</body>
</html>`;
}
