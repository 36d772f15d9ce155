import { crc32, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32Combine, gzipOfPieces, gzipPiece } from './segmented-gzip';

// Text that compresses well and repeats across pieces, as a tree's JSON does.
const text = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => `{"id":${seed * 1000 + i},"name":"Chi đoàn ${(i * 7919 + seed) % 97}","memberCount":${i % 13}}`).join(
    ',',
  );

describe('segmented gzip', () => {
  it('combines CRCs as one pass over the concatenation does', () => {
    for (const [a, b] of [
      ['', ''],
      ['a', ''],
      ['', 'b'],
      ['hello ', 'world'],
      [text(300, 1), text(5, 2)],
    ]) {
      const [x, y] = [Buffer.from(a!), Buffer.from(b!)];
      expect(crc32Combine(crc32(x), crc32(y), y.length)).toBe(crc32(Buffer.concat([x, y])));
    }
  });

  it('gives a gzip member that decodes to the pieces concatenated, also with empty pieces and none', () => {
    const raws = [text(400, 1), '', text(1, 2), text(2000, 3), ']'].map((s) => Buffer.from(s));
    for (const pieces of [raws, raws.slice(0, 1), []]) {
      const gz = gzipOfPieces(pieces.map((r) => gzipPiece(r, 1)));
      expect(gunzipSync(gz).equals(Buffer.concat(pieces))).toBe(true);
    }
  });
});
