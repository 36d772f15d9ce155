/**
 * An amount of VND in Vietnamese words, as written on receipts ("Năm mươi nghìn đồng").
 * Groups of three digits are read with "nghìn", "triệu", "tỷ" (and "nghìn tỷ"…); a group after a
 * higher one keeps its "không trăm" / "linh" so the reading is unambiguous (1.000.050 → "một triệu
 * không trăm năm mươi").
 */
const DIGITS = ['không', 'một', 'hai', 'ba', 'bốn', 'năm', 'sáu', 'bảy', 'tám', 'chín'];
const GROUPS = ['', 'nghìn', 'triệu'];
const BILLION = 1_000_000_000;

/** One group of three digits; `full` when a higher group was read before it. */
function readGroup(n: number, full: boolean): string[] {
  const h = Math.floor(n / 100);
  const t = Math.floor((n % 100) / 10);
  const u = n % 10;
  const words: string[] = [];
  if (h > 0 || full) words.push(DIGITS[h], 'trăm');
  if (t === 0) {
    if (u > 0 && (h > 0 || full)) words.push('linh');
  } else if (t === 1) {
    words.push('mười');
  } else {
    words.push(DIGITS[t], 'mươi');
  }
  if (u > 0) {
    if (u === 1 && t >= 2) words.push('mốt');
    else if (u === 5 && t >= 1) words.push('lăm');
    else words.push(DIGITS[u]);
  }
  return words;
}

/** Below one billion; `full` when a higher part (billions) was read before. */
function readBelowBillion(n: number, full: boolean): string[] {
  const words: string[] = [];
  let started = full;
  for (let g = 2; g >= 0; g--) {
    const group = Math.floor(n / 1000 ** g) % 1000;
    if (group === 0) continue;
    words.push(...readGroup(group, started));
    if (GROUPS[g]) words.push(GROUPS[g]);
    started = true;
  }
  return words;
}

function read(n: number, full = false): string[] {
  if (n < BILLION) return readBelowBillion(n, full);
  const rest = n % BILLION;
  return [...read(Math.floor(n / BILLION), full), 'tỷ', ...(rest ? readBelowBillion(rest, true) : [])];
}

/** "Năm mươi nghìn đồng"; negative amounts read with "Âm"; fractions of a đồng are dropped. */
export function amountInWords(amount: number): string {
  if (!Number.isFinite(amount)) return '';
  const n = Math.floor(Math.abs(amount));
  const words = n === 0 ? ['không'] : read(n);
  const text = `${amount < 0 && n > 0 ? 'âm ' : ''}${words.join(' ')} đồng`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}
