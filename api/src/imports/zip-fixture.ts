/**
 * Test helper: a hand-made xlsx whose sheet compresses extremely well (a decompression bomb),
 * written with a streaming deflate so the test itself never holds the inflated sheet.
 */
import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

interface Entry {
  name: string;
  data: Buffer;
  crc: number;
  size: number;
}

// Level 1: the rows repeat, so it compresses them nearly as well as 9, in half the time.
async function deflate(chunks: Iterable<string | Buffer>): Promise<Entry & { name: '' }> {
  const z = createDeflateRaw({ level: 1 });
  const out: Buffer[] = [];
  z.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((r) => z.on('end', r));
  let crc = 0;
  let size = 0;
  for (const s of chunks) {
    const b = typeof s === 'string' ? Buffer.from(s, 'utf8') : s;
    crc = crc32(b, crc);
    size += b.length;
    if (!z.write(b)) await new Promise((r) => z.once('drain', r));
  }
  z.end();
  await done;
  return { name: '', data: Buffer.concat(out), crc, size };
}

/**
 * `head`, then `times` copies of `block`, then `tail`, deflated. The block is compressed once and
 * its bytes repeated: a full flush ends it on a byte boundary with no reference to earlier data,
 * so each copy is a valid run of deflate blocks (a 780 MB sheet in a fraction of a second).
 */
function deflateRepeated(head: string, block: Buffer, times: number, tail: string): Entry & { name: '' } {
  const full = { finishFlush: constants.Z_FULL_FLUSH, level: 9 };
  const first = Buffer.from(head);
  const last = Buffer.from(tail);
  const packed = deflateRawSync(block, full);
  let crc = crc32(first);
  for (let i = 0; i < times; i++) crc = crc32(block, crc);
  crc = crc32(last, crc);
  const data = Buffer.concat([deflateRawSync(first, full), ...Array<Buffer>(times).fill(packed), deflateRawSync(last, { level: 9 })]);
  return { name: '', data, crc, size: first.length + block.length * times + last.length };
}

function zip(entries: Entry[], declared: (e: Entry) => number): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(declared(e), 22);
    local.writeUInt16LE(name.length, 26);
    const cd = Buffer.alloc(46);
    cd.writeUInt32LE(0x02014b50, 0);
    cd.writeUInt16LE(20, 4);
    cd.writeUInt16LE(20, 6);
    cd.writeUInt16LE(8, 10);
    cd.writeUInt32LE(e.crc >>> 0, 16);
    cd.writeUInt32LE(e.data.length, 20);
    cd.writeUInt32LE(declared(e), 24);
    cd.writeUInt16LE(name.length, 28);
    cd.writeUInt32LE(offset, 42);
    central.push(cd, name);
    parts.push(local, name, e.data);
    offset += 30 + name.length + e.data.length;
  }
  const cdBuf = Buffer.concat(central);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cdBuf.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cdBuf, eocd]);
}

const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;

/**
 * An xlsx of `rows` users rows (code, familyName, givenName, email) after a header row.
 * `lie` makes the zip declare a tiny size for the sheet, as a crafted bomb would.
 */
export async function bombXlsx(
  rows: number,
  opts: { lie?: boolean; padding?: number; compact?: boolean; identical?: boolean } = {},
): Promise<Uint8Array> {
  const header = ['Mã số', 'Họ', 'Tên', 'Email'];
  const sst = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="4" uniqueCount="4">${header.map((h) => `<si><t>${h}</t></si>`).join('')}</sst>`;
  const pad = 'x'.repeat(opts.padding ?? 0);
  const head = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">${header.map((_, i) => `<c r="${'ABCD'[i]}1" t="s"><v>${i}</v></c>`).join('')}</row>`;
  const tail = '</sheetData></worksheet>';
  const cells = `<c r="A"><v>1</v></c><c r="B" t="inlineStr"><is><t>Nguyen${pad}</t></is></c><c r="C" t="inlineStr"><is><t>An</t></is></c><c r="D" t="inlineStr"><is><t>a@sv.vn</t></is></c>`;
  // compact: cells without their row number (the format allows it), about 3 bytes a row zipped.
  const rowXml = (r: number) =>
    opts.compact
      ? `<row r="${r}">${cells}</row>`
      : `<row r="${r}"><c r="A${r}"><v>${r}</v></c><c r="B${r}" t="inlineStr"><is><t>Nguyen${pad}</t></is></c><c r="C${r}" t="inlineStr"><is><t>An</t></is></c><c r="D${r}" t="inlineStr"><is><t>u${r}@sv.vn</t></is></c></row>`;
  function* sheet() {
    yield head;
    let batch = '';
    for (let r = 2; r <= rows + 1; r++) {
      batch += rowXml(r);
      if (batch.length > 1 << 20) {
        yield batch;
        batch = '';
      }
    }
    yield `${batch}${tail}`;
  }
  // identical: rows without numbers either, a thousand to one, but exceljs cannot read them: only a
  // size bomb. Whole blocks of 10,000 rows, the rest in the tail.
  const identical = () => {
    const row = `<row>${cells}</row>`;
    return deflateRepeated(head, Buffer.from(row.repeat(10_000)), Math.floor(rows / 10_000), `${row.repeat(rows % 10_000)}${tail}`);
  };
  const plain = async (name: string, text: string) => ({ ...(await deflate([text])), name });
  const entries: Entry[] = [
    await plain('xl/workbook.xml', WORKBOOK),
    await plain('xl/_rels/workbook.xml.rels', RELS),
    await plain('xl/sharedStrings.xml', sst),
    { ...(opts.identical ? identical() : await deflate(sheet())), name: 'xl/worksheets/sheet1.xml' },
  ];
  return new Uint8Array(zip(entries, (e) => (opts.lie && e.name.includes('worksheets') ? 1000 : e.size)));
}

/**
 * Shared-string amplification (issue 25 item 13): `rows` users rows whose family name (B) or
 * organization codes (E, the widest cap of the users' columns) is one shared string of `length`
 * characters, stored once in the file.
 */
export async function sharedStringXlsx(
  rows: number,
  length: number,
  field: 'familyName' | 'organizationCodes' = 'familyName',
): Promise<Uint8Array> {
  const header = ['Mã số', 'Họ', 'Tên', 'Email', 'Mã tổ chức'];
  const long = 'Đ'.repeat(length);
  const sst = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${[...header, long].map((h) => `<si><t>${h}</t></si>`).join('')}</sst>`;
  const at = field === 'familyName' ? 'B' : 'E';
  const cell = (c: string, r: number, inline: string) =>
    c === at ? `<c r="${c}${r}" t="s"><v>${header.length}</v></c>` : `<c r="${c}${r}" t="inlineStr"><is><t>${inline}</t></is></c>`;
  const head = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">${header.map((_, i) => `<c r="${'ABCDE'[i]}1" t="s"><v>${i}</v></c>`).join('')}</row>`;
  function* sheet() {
    yield head;
    let batch = '';
    for (let r = 2; r <= rows + 1; r++) {
      batch += `<row r="${r}"><c r="A${r}"><v>${r}</v></c>${cell('B', r, 'Nguyen')}${cell('C', r, 'An')}${cell('D', r, `u${r}@sv.vn`)}${cell('E', r, '')}</row>`;
      if (batch.length > 1 << 20) {
        yield batch;
        batch = '';
      }
    }
    yield `${batch}</sheetData></worksheet>`;
  }
  const plain = async (name: string, text: string) => ({ ...(await deflate([text])), name });
  const entries: Entry[] = [
    await plain('xl/workbook.xml', WORKBOOK),
    await plain('xl/_rels/workbook.xml.rels', RELS),
    await plain('xl/sharedStrings.xml', sst),
    { ...(await deflate(sheet())), name: 'xl/worksheets/sheet1.xml' },
  ];
  return new Uint8Array(zip(entries, (e) => e.size));
}
