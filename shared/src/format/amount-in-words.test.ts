import { describe, expect, it } from 'vitest';
import { amountInWords } from './index';

describe('amountInWords — VND in Vietnamese words for receipts', () => {
  it('reads round fee amounts', () => {
    expect(amountInWords(0)).toBe('Không đồng');
    expect(amountInWords(50_000)).toBe('Năm mươi nghìn đồng');
    expect(amountInWords(100_000)).toBe('Một trăm nghìn đồng');
    expect(amountInWords(1_000_000)).toBe('Một triệu đồng');
    expect(amountInWords(1_000_000_000)).toBe('Một tỷ đồng');
  });

  it('uses mốt, lăm, mười and linh where Vietnamese does', () => {
    expect(amountInWords(21)).toBe('Hai mươi mốt đồng');
    expect(amountInWords(11)).toBe('Mười một đồng');
    expect(amountInWords(15)).toBe('Mười lăm đồng');
    expect(amountInWords(25)).toBe('Hai mươi lăm đồng');
    expect(amountInWords(5)).toBe('Năm đồng');
    expect(amountInWords(105)).toBe('Một trăm linh năm đồng');
    expect(amountInWords(110)).toBe('Một trăm mười đồng');
  });

  it('keeps "không trăm" and "linh" in groups after a higher one', () => {
    expect(amountInWords(1_050)).toBe('Một nghìn không trăm năm mươi đồng');
    expect(amountInWords(1_000_005)).toBe('Một triệu không trăm linh năm đồng');
    expect(amountInWords(2_005_000)).toBe('Hai triệu không trăm linh năm nghìn đồng');
    expect(amountInWords(125_500)).toBe('Một trăm hai mươi lăm nghìn năm trăm đồng');
  });

  it('reads billions and thousands of billions', () => {
    expect(amountInWords(1_234_567_891)).toBe('Một tỷ hai trăm ba mươi bốn triệu năm trăm sáu mươi bảy nghìn tám trăm chín mươi mốt đồng');
    expect(amountInWords(2_000_000_001)).toBe('Hai tỷ không trăm linh một đồng');
    expect(amountInWords(1_000_000_000_000)).toBe('Một nghìn tỷ đồng');
  });

  it('drops fractions and reads negatives', () => {
    expect(amountInWords(50_000.9)).toBe('Năm mươi nghìn đồng');
    expect(amountInWords(-20_000)).toBe('Âm hai mươi nghìn đồng');
    expect(amountInWords(Number.NaN)).toBe('');
  });
});
