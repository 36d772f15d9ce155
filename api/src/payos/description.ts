/** payOS accepts at most 25 characters of description (it becomes the bank transfer note). */
export const PAYOS_DESCRIPTION_MAX = 25;

/**
 * Accents and symbols are dropped (bank notes are plain ASCII), whitespace collapsed, then the
 * text is cut at a word boundary when one falls in the last third, else hard at 25.
 */
export function payosDescription(text: string, max = PAYOS_DESCRIPTION_MAX): string {
  const ascii = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .replace(/[^A-Za-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (ascii.length <= max) return ascii;
  const cut = ascii.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space >= Math.floor((max * 2) / 3) ? cut.slice(0, space) : cut).trim();
}

/**
 * The transfer note payOS gets for an order: 'DH' and the order code's last 7 digits (9 characters,
 * the limit for bank accounts not linked through payOS), then the campaign name when the
 * configuration allows more (up to 25).
 */
export function orderDescription(orderCode: number, campaignName: string, max = 9): string {
  const code = `DH${String(orderCode).slice(-7)}`;
  if (max <= code.length + 1) return code.slice(0, max);
  return payosDescription(`${code} ${campaignName}`, max);
}
