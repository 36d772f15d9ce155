import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';

/**
 * A gzip body assembled from pieces deflated one by one, so a large body of which a small part
 * changed is compressed again only where it changed. Each piece ends on a full flush (byte-aligned,
 * no back-reference into the piece before), so the pieces' deflate streams concatenate into one
 * valid stream; the CRC of the whole is combined from the pieces' own.
 */
export interface GzipPiece {
  raw: Buffer;
  deflated: Buffer;
  crc: number;
}

export function gzipPiece(raw: Buffer, level: number): GzipPiece {
  return { raw, deflated: deflateRawSync(raw, { level, finishFlush: constants.Z_FULL_FLUSH }), crc: crc32(raw) };
}

// zlib's own header for its fastest level (XFL 4) and a final empty fixed-Huffman block.
const HEADER = gzipSync(Buffer.alloc(0), { level: 1 }).subarray(0, 10);
const LAST_BLOCK = Buffer.from([0x03, 0x00]);

/** The gzip member of the pieces' concatenated bytes. */
export function gzipOfPieces(pieces: readonly GzipPiece[]): Buffer {
  let crc = 0;
  let size = 0;
  for (const p of pieces) {
    crc = crc32Combine(crc, p.crc, p.raw.length);
    size += p.raw.length;
  }
  const trailer = Buffer.allocUnsafe(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  return Buffer.concat([HEADER, ...pieces.map((p) => p.deflated), LAST_BLOCK, trailer]);
}

// CRC-32 of A‖B from crc(A), crc(B) and |B| (zlib's crc32_combine, which node does not expose):
// crc(A) is multiplied by x^(8·|B|) modulo the CRC polynomial, in its bit-reflected form.
const POLY = 0xedb88320;
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if ((a & m) !== 0) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}
/** x^(2^k) mod p for k = 0…31. */
const X2N: number[] = [];
for (let k = 0, p = 0x40000000; k < 32; k++) X2N.push(k === 0 ? p : (p = multModP(p, p)));

function x8nModP(bytes: number): number {
  let p = 0x80000000;
  for (let k = 3; bytes > 0; bytes = Math.floor(bytes / 2), k++) if (bytes % 2) p = multModP(X2N[k % 32]!, p);
  return p;
}

export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multModP(x8nModP(lengthB), crcA >>> 0) ^ crcB) >>> 0;
}
