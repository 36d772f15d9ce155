/** The spreadsheets of the import/export bench: a users file to import, and the rows of an exported one. */
import ExcelJS from 'exceljs';
import { Readable } from 'node:stream';

/** A users file in the template's layout: Vietnamese headers, every optional column filled. */
export async function usersFile(rows: number, prefix: string, password: (i: number) => string): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Người dùng');
  ws.addRow([
    'Mã số',
    'Họ',
    'Tên',
    'Email',
    'Mật khẩu',
    'Số điện thoại',
    'Lớp',
    'Mã khoa quản lý',
    'Mã khoa đào tạo',
    'Mã tổ chức',
    'Loại người dùng',
    'Đoàn viên/Hội viên',
  ]);
  const statuses = ['none', 'doan_vien', 'hoi_vien', 'both'];
  for (let i = 0; i < rows; i++) {
    ws.addRow([
      `${prefix}${String(i).padStart(6, '0')}`,
      'Nguyễn Văn',
      `An ${i}`,
      `${prefix.toLowerCase()}.student${i}@bench.edu.vn`,
      password(i),
      `09${String(i).padStart(8, '0')}`,
      `BL${i % 50}`,
      `BK${i % 10}`,
      `BK${(i + 1) % 10}`,
      `BCD${i % 10}-${Math.floor(i / 10) % 10}`,
      i % 10 === 0 ? 'staff' : 'student',
      statuses[i % 4],
    ]);
  }
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

/** Rows of the first sheet of an xlsx (its header included). */
export async function countRows(buf: Buffer): Promise<number> {
  let n = 0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(buf), {
    sharedStrings: 'cache',
    styles: 'ignore',
    hyperlinks: 'ignore',
    worksheets: 'emit',
  });
  for await (const sheet of reader) {
    for await (const _row of sheet) n++;
    break;
  }
  return n;
}
