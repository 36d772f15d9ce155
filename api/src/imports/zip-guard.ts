/**
 * Decompression-bomb guard for uploaded .xlsx files, run before exceljs touches them.
 *
 * A 789 KB xlsx can hold a million rows: exceljs would inflate all of it (gigabytes of RSS, or a
 * temporary file when the sheet comes before the shared strings). Here every entry of the zip is
 * inflated once into nothing, counting bytes and stopping as soon as the cap is passed, so what
 * exceljs later reads is known to be small. The declared sizes are checked first (a cheap refusal
 * of honest bombs) and then verified, since a crafted file can declare anything.
 */
import { createInflateRaw } from 'node:zlib';
import { badRequest, fail } from '../lib/errors';

const EOCD_SIG = 0x06054b50;
const CENTRAL_SIG = 0x02014b50;
const LOCAL_SIG = 0x04034b50;
const BROKEN = 'File bị hỏng hoặc không phải file Excel (.xlsx)';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  declaredSize: number;
  /** Where the compressed bytes start. */
  dataOffset: number;
}

export function tooBigMessage(maxBytes: number) {
  return `File Excel quá lớn sau khi giải nén (tối đa ${Math.round(maxBytes / 1024 / 1024)} MB dữ liệu). Vui lòng chia nhỏ file`;
}

/**
 * The entries as the central directory lists them, refusing a zip whose local entries do not
 * follow each other exactly (a streaming unzipper reads the local entries, so hidden ones between
 * them would escape the size check).
 */
export function zipEntries(buf: Buffer): ZipEntry[] {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD_SIG) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) badRequest(BROKEN);
  const count = buf.readUInt16LE(eocd + 10);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  // Zip64 markers: no honest 5 MB spreadsheet needs them.
  if (count === 0xffff || cdOffset === 0xffffffff || cdOffset > eocd) badRequest(BROKEN);

  const entries: (ZipEntry & { localOffset: number; flags: number })[] = [];
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > eocd || buf.readUInt32LE(p) !== CENTRAL_SIG) badRequest(BROKEN);
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const compressedSize = buf.readUInt32LE(p + 20);
    const declaredSize = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const localOffset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    if (compressedSize === 0xffffffff || declaredSize === 0xffffffff || localOffset + 30 > cdOffset) badRequest(BROKEN);
    if (buf.readUInt32LE(localOffset) !== LOCAL_SIG) badRequest(BROKEN);
    const localCompressed = buf.readUInt32LE(localOffset + 18);
    // A streaming unzipper trusts the local size when one is given.
    if (localCompressed !== 0 && localCompressed !== compressedSize) badRequest(BROKEN);
    const dataOffset = localOffset + 30 + buf.readUInt16LE(localOffset + 26) + buf.readUInt16LE(localOffset + 28);
    entries.push({ name, method, compressedSize, declaredSize, dataOffset, localOffset, flags });
    p += 46 + nameLen + extraLen + commentLen;
  }

  entries.sort((a, b) => a.localOffset - b.localOffset);
  let expected = 0;
  for (const e of entries) {
    if (e.localOffset !== expected) badRequest(BROKEN);
    const end = e.dataOffset + e.compressedSize;
    // A data descriptor (flag bit 3) follows the data: 12 or 16 bytes, 20 or 24 in zip64 form.
    expected = end;
    if (e.flags & 0x08) {
      const sig = end + 4 <= buf.length && buf.readUInt32LE(end) === 0x08074b50;
      expected = end + (sig ? 16 : 12);
    }
  }
  if (expected !== cdOffset) badRequest(BROKEN);
  return entries;
}

/** Inflates one entry into nothing; the number of bytes it gives, or more than `limit` if it passes it. */
async function inflatedSize(data: Buffer, limit: number): Promise<number> {
  const inflate = createInflateRaw();
  inflate.end(data);
  let total = 0;
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limit) break;
    }
  } catch {
    badRequest(BROKEN);
  } finally {
    inflate.destroy();
  }
  return total;
}

/** 413 when the entries would inflate past maxBytes in total; 400 when they lie about their sizes. */
export async function assertZipWithinLimit(buffer: Uint8Array, maxBytes: number): Promise<void> {
  const buf = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const entries = zipEntries(buf);
  const declared = entries.reduce((s, e) => s + e.declaredSize, 0);
  if (declared > maxBytes) fail(413, tooBigMessage(maxBytes));
  let remaining = maxBytes;
  for (const e of entries) {
    const data = buf.subarray(e.dataOffset, e.dataOffset + e.compressedSize);
    let size: number;
    if (e.method === 0) size = data.length;
    else if (e.method === 8) size = await inflatedSize(data, Math.min(remaining, e.declaredSize));
    else badRequest(BROKEN);
    if (size! > remaining) fail(413, tooBigMessage(maxBytes));
    // Under the cap but more than it declared: the size check above would not have been honest.
    if (size! !== e.declaredSize) badRequest(BROKEN);
    remaining -= size!;
  }
}
