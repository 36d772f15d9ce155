/**
 * Caps on the text an upload may hand us (issue 25 item 13): one 2,000-character shared string
 * referenced by 50,000 rows is a 254 KB file that passes the size caps, yet became 100 MB of
 * session rows and gigabytes during validation. Each cell read is capped by its column, and the
 * text of a whole file by IMPORT_MAX_TEXT_MB, both counted on the decoded cell (after shared
 * strings are expanded), row by row while reading.
 *
 * The caps sit well above what the row rules accept (a 51-character code or a 101-character
 * name is still a row error to repair), and far below what could amplify.
 */
import { fail } from '../lib/errors';

const BY_KEY: Record<string, number> = {
  code: 200,
  studentCode: 200,
  familyName: 300,
  givenName: 300,
  name: 500,
  email: 400,
  password: 1024,
  phone: 50,
  className: 300,
  classOrUnitCode: 300,
  managementDepartmentCode: 300,
  trainingDepartmentCode: 300,
  departmentCode: 300,
  organizationCodes: 2000,
  description: 2000,
  userType: 50,
  membershipStatus: 50,
  year: 20,
};
/** A column without its own cap (a kind added later). */
const DEFAULT_CELL_MAX = 500;

export const cellMax = (key: string) => BY_KEY[key] ?? DEFAULT_CELL_MAX;

/** A1-style column letters of a 1-based index. */
export function columnLetters(index: number): string {
  let s = '';
  for (let n = index; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

const vi = (n: number) => n.toLocaleString('vi-VN');

export function cellTooLongMessage(address: string, header: string, length: number, max: number) {
  const name = header.length > 60 ? `${header.slice(0, 60)}…` : header;
  return `Ô ${address} (cột "${name}") dài ${vi(length)} ký tự, vượt giới hạn ${vi(max)} ký tự của cột này. Vui lòng sửa ô này rồi tải file lên lại`;
}

export function tooMuchTextMessage(maxChars: number) {
  return `File có quá nhiều chữ: tổng nội dung các ô vượt ${vi(maxChars)} ký tự (thường do một ô rất dài được lặp lại ở nhiều dòng). Vui lòng rút gọn hoặc chia nhỏ file`;
}

/** Counts the text of the cells kept, refusing a cell past its column's cap (422) or a file past the total (413). */
export function textBudget(maxChars: number) {
  let total = 0;
  return (text: string, key: string, address: string, header: string) => {
    const max = cellMax(key);
    if (text.length > max) fail(422, cellTooLongMessage(address, header, text.length, max));
    total += text.length;
    if (total > maxChars) fail(413, tooMuchTextMessage(maxChars));
  };
}
