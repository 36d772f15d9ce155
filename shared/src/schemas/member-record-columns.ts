/**
 * The member record's columns in the users import template and the users export (issue 30 item 8).
 * The export writes the headers and labels the import reads back, so an exported file re-imports.
 */
import type { ExportField } from './exports';
import type { ImportColumn } from './imports';
import { ETHNICITIES } from './member-record';

/** What the template offers and the export writes for each gender; the import also takes the keys and English. */
export const GENDER_LABELS_VI = { male: 'Nam', female: 'Nữ', other: 'Khác' } as const;

const DAY_NOTE = 'Ngày/tháng/năm (dd/mm/yyyy) hoặc yyyy-mm-dd';

export const MEMBER_RECORD_IMPORT_COLUMNS: readonly ImportColumn[] = [
  {
    key: 'dateOfBirth',
    header: 'Ngày sinh',
    required: false,
    note: `${DAY_NOTE}; trước hôm nay`,
    example: '01/02/2004',
    aliases: ['Ngày tháng năm sinh', 'Ngày/tháng/năm sinh', 'Sinh ngày', 'Date of birth', 'DOB'],
  },
  {
    key: 'gender',
    header: 'Giới tính',
    required: false,
    note: 'Nam, Nữ hoặc Khác',
    values: Object.values(GENDER_LABELS_VI),
    example: 'Nam',
    aliases: ['Gender', 'Phái'],
  },
  {
    key: 'ethnicity',
    header: 'Dân tộc',
    required: false,
    note: 'Tên một trong 54 dân tộc Việt Nam (Kinh, Tày, Thái, Mường, Khơ-me…) hoặc mã 01–54',
    values: ETHNICITIES.map((e) => e.vi),
    example: 'Kinh',
    aliases: ['Ethnicity', 'Dân tộc (mã)'],
  },
  {
    key: 'religion',
    header: 'Tôn giáo',
    required: false,
    note: 'Để trống hoặc "Không" nếu không theo tôn giáo',
    example: 'Không',
    aliases: ['Religion'],
  },
  {
    key: 'doanJoinedAt',
    header: 'Ngày vào Đoàn',
    required: false,
    note: `${DAY_NOTE}; sau ngày sinh`,
    example: '26/03/2019',
    aliases: ['Ngày kết nạp Đoàn', 'Ngày vào đoàn TNCS', 'Date joined Doan'],
  },
  {
    key: 'hoiJoinedAt',
    header: 'Ngày vào Hội',
    required: false,
    note: `${DAY_NOTE}; sau ngày sinh`,
    example: '09/01/2022',
    aliases: ['Ngày kết nạp Hội', 'Ngày vào Hội SV', 'Date joined Hoi'],
  },
  {
    key: 'partyJoinedAt',
    header: 'Ngày vào Đảng',
    required: false,
    note: `${DAY_NOTE}; sau ngày sinh`,
    example: '',
    aliases: ['Ngày kết nạp Đảng', 'Date joined Party'],
  },
  {
    key: 'hometown',
    header: 'Quê quán',
    required: false,
    note: 'Tỉnh/thành phố, huyện…',
    example: 'Nghệ An',
    aliases: ['Nguyên quán', 'Hometown'],
  },
];

export const MEMBER_RECORD_EXPORT_FIELDS: readonly ExportField[] = MEMBER_RECORD_IMPORT_COLUMNS.map((c) => ({
  key: c.key,
  header: c.header,
  group: 'basic' as const,
}));
