/** The remittance figures of one level as xlsx (issue 30 item 5), through the shared streaming writer (formula-looking text guarded). */
import type { ExportField, RemittanceReport } from '@doanhoi/shared';
import { exportFileName, streamXlsx, type Cell } from '../lib/xlsx-writer';

const FIELDS: ExportField[] = [
  { key: 'code', header: 'Mã đơn vị', group: 'basic' },
  { key: 'name', header: 'Đơn vị', group: 'basic' },
  { key: 'collectedAmount', header: 'Đã thu (cả đơn vị trực thuộc)', group: 'basic' },
  { key: 'ownCollectedAmount', header: 'Thu trực tiếp', group: 'basic' },
  { key: 'dueFromBelowAmount', header: 'Cấp dưới phải nộp', group: 'basic' },
  { key: 'share', header: 'Tỷ lệ giữ lại', group: 'basic' },
  { key: 'keptAmount', header: 'Được giữ lại', group: 'basic' },
  { key: 'owedUpAmount', header: 'Phải nộp cấp trên', group: 'basic' },
  { key: 'receivedFromBelowAmount', header: 'Đã nhận từ cấp dưới (đã xác nhận)', group: 'basic' },
  { key: 'confirmedAmount', header: 'Đã nộp (cấp trên đã xác nhận)', group: 'basic' },
  { key: 'pendingAmount', header: 'Đã nộp chờ xác nhận', group: 'basic' },
  { key: 'outstandingAmount', header: 'Còn nợ cấp trên', group: 'basic' },
];

export async function remittanceXlsx(report: RemittanceReport, campaignName: string): Promise<Response> {
  const [self, ...units] = report.units;
  const row = (u: RemittanceReport['units'][number], label?: string): Record<string, Cell> => ({
    code: u.code,
    name: label ?? u.name,
    collectedAmount: u.collected,
    ownCollectedAmount: u.ownCollected,
    dueFromBelowAmount: u.dueFromBelow,
    share: `${u.keepNumerator}/${u.keepDenominator}`,
    keptAmount: u.kept,
    owedUpAmount: u.owedUp,
    receivedFromBelowAmount: u.receivedFromBelow,
    confirmedAmount: u.confirmed,
    pendingAmount: u.pending,
    outstandingAmount: u.outstanding,
  });
  const t = report.totals;
  const totals: Record<string, Cell> = {
    code: null,
    name: 'Cộng các đơn vị trực thuộc',
    collectedAmount: t.collected,
    keptAmount: t.kept,
    owedUpAmount: t.owedUp,
    confirmedAmount: t.confirmed,
    pendingAmount: t.pending,
    outstandingAmount: t.outstanding,
  };
  const rows = [row(self!, `${self!.name} (cấp này)`), ...units.map((u) => row(u)), totals];
  return streamXlsx(exportFileName('trich-nop', `${campaignName} ${self!.code}`), 'Trích nộp', FIELDS, async function* () {
    yield rows;
  });
}
