/** The membership report as xlsx (issue 30 item 8), through the shared streaming writer (formula-looking text guarded). */
import {
  ethnicityName,
  LEAVE_REASONS,
  type ExportField,
  type MembershipReport,
  type ReportFigures,
  type ReportUnit,
} from '@doanhoi/shared';
import { exportFileName, streamXlsx, type Cell } from '../lib/xlsx-writer';

const REASON_VI: Record<(typeof LEAVE_REASONS)[number], string> = {
  graduated: 'Ra trường',
  over_age: 'Quá tuổi',
  moved_away: 'Chuyển đi nơi khác',
  removed: 'Khai trừ/xóa tên',
  deceased: 'Từ trần',
  other: 'Lý do khác',
};

const FIELDS: ExportField[] = [
  { key: 'code', header: 'Mã đơn vị', group: 'basic' },
  { key: 'name', header: 'Đơn vị', group: 'basic' },
  { key: 'start', header: 'Đầu kỳ', group: 'basic' },
  { key: 'admitted', header: 'Kết nạp/mới vào', group: 'basic' },
  { key: 'transferredIn', header: 'Chuyển đến', group: 'basic' },
  { key: 'transferredOut', header: 'Chuyển đi', group: 'basic' },
  { key: 'left', header: 'Ra khỏi tổ chức', group: 'basic' },
  ...LEAVE_REASONS.map((r) => ({ key: `left_${r}`, header: `— ${REASON_VI[r]}`, group: 'basic' as const })),
  { key: 'end', header: 'Cuối kỳ', group: 'basic' },
  { key: 'doan', header: 'Cuối kỳ: đoàn viên', group: 'basic' },
  { key: 'hoi', header: 'Cuối kỳ: hội viên', group: 'basic' },
  { key: 'student', header: 'Cuối kỳ: sinh viên', group: 'basic' },
  { key: 'staff', header: 'Cuối kỳ: cán bộ', group: 'basic' },
  { key: 'female', header: 'Cuối kỳ: nữ', group: 'basic' },
  { key: 'male', header: 'Cuối kỳ: nam', group: 'basic' },
  { key: 'minority', header: 'Cuối kỳ: dân tộc thiểu số', group: 'basic' },
  { key: 'collectedAmount', header: 'Đoàn phí đã thu', group: 'basic' },
  { key: 'keptAmount', header: 'Đoàn phí giữ lại', group: 'basic' },
  { key: 'owedUpAmount', header: 'Phải nộp cấp trên', group: 'basic' },
  { key: 'remittedAmount', header: 'Đã nộp cấp trên (đã xác nhận)', group: 'basic' },
];

/** Members at the end who are of a group other than Kinh ("01"), where the ethnicity is recorded. */
export const minorityAtEnd = (f: ReportFigures) =>
  Object.entries(f.ethnicities).reduce((s, [code, e]) => (code && code !== '01' ? s + e.end : s), 0);

function cells(code: string | null, name: string, f: ReportFigures): Record<string, Cell> {
  return {
    code,
    name,
    start: f.start,
    admitted: f.admitted,
    transferredIn: f.transferredIn,
    transferredOut: f.transferredOut,
    left: f.left,
    ...Object.fromEntries(LEAVE_REASONS.map((r) => [`left_${r}`, f.leftByReason[r]])),
    end: f.end,
    doan: f.groups.doan.end,
    hoi: f.groups.hoi.end,
    student: f.groups.student.end,
    staff: f.groups.staff.end,
    female: f.groups.female.end,
    male: f.groups.male.end,
    minority: minorityAtEnd(f),
    collectedAmount: f.dues.collected,
    keptAmount: f.dues.kept,
    owedUpAmount: f.dues.owedUp,
    remittedAmount: f.dues.remitted,
  };
}

/** Rows as on the screen: the unit's own members, each direct unit, the total; then the ethnic groups of the total. */
export async function reportXlsx(report: MembershipReport): Promise<Response> {
  const [self, ...units] = report.units as [ReportUnit, ...ReportUnit[]];
  const rows: Record<string, Cell>[] = [
    cells(self.code, `${self.name} (trực tiếp)`, self.own),
    ...units.map((u) => cells(u.code, u.name, u.total)),
    cells(
      null,
      `Tổng cộng ${self.name} (${report.from.split('-').reverse().join('/')} – ${report.to.split('-').reverse().join('/')})`,
      self.total,
    ),
  ];
  const groups = Object.entries(self.total.ethnicities)
    .filter(([, e]) => e.start || e.end)
    .sort(([a], [b]) => (a || '99').localeCompare(b || '99'));
  for (const [code, e] of groups)
    rows.push({ code: null, name: `Dân tộc ${code ? ethnicityName(code) : '(chưa ghi)'}`, start: e.start, end: e.end });
  return streamXlsx(exportFileName('bao-cao', `${self.code} ${report.from} ${report.to}`), 'Báo cáo', FIELDS, async function* () {
    yield rows;
  });
}
